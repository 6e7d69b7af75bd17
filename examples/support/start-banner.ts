/** The LLM the demos answer with, as `pnpm start` found it. */
export type DemoLlm =
  /** An OpenAI-compatible server found on this machine (Ollama). */
  | { kind: 'found'; model: string; url: string }
  /** One the environment configures (`OPENAI_API_KEY`, `PALAVER_OLLAMA_URL`). */
  | { kind: 'configured' }
  /** None: the built-in offline model, which repeats what it heard. */
  | { kind: 'offline' };

export interface StartBannerOptions {
  voiceDemoUrl: string;
  appRunDemoUrl: string;
  platformUrl: string;
  apiKey: string;
  llm: DemoLlm;
}

function llmLines(llm: DemoLlm): string[] {
  switch (llm.kind) {
    case 'found':
      return [`  LLM:           ${llm.model} on the OpenAI-compatible server at ${llm.url} (found on this machine)`];
    case 'configured':
      return [];
    case 'offline':
      return [
        '  LLM:           none configured. The agents answer with the built-in offline model, which repeats what it heard.',
        '                 For a real LLM: OPENAI_API_KEY=sk-... pnpm start, or run Ollama (ollama serve, with a model pulled) and restart.',
      ];
  }
}

/**
 * What `pnpm start` prints once everything listens: where the demos and the platform are, the development key, the
 * LLM the demos answer with (and, without one, how to get a real one), and how to stop.
 *
 * @example
 * process.stdout.write(startBanner({ voiceDemoUrl, appRunDemoUrl, platformUrl, apiKey, llm: { kind: 'offline' } }));
 */
export function startBanner(options: StartBannerOptions): string {
  const { platformUrl, apiKey } = options;
  return (
    [
      '',
      `  Voice demo:    ${options.voiceDemoUrl}   (open it in a browser, allow the microphone)`,
      `  App run demo:  ${options.appRunDemoUrl}   (the Simple Voice AI template as a running app graph)`,
      `  Platform:      ${platformUrl}`,
      `  Dev API key:   ${apiKey}`,
      ...llmLines(options.llm),
      `  API reference: ${platformUrl}/docs`,
      '',
      `  Try: curl -H "x-api-key: ${apiKey}" ${platformUrl}/v1/voice/list`,
      '  Stop with Ctrl-C. Ports: PORT, PALAVER_DEMO_PORT, PALAVER_APP_DEMO_PORT.',
      '',
    ].join('\n') + '\n'
  );
}
