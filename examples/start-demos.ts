/**
 * `pnpm start`: the platform with embedded defaults (SQLite, the in-process media endpoint, offline speech and
 * the built-in model) plus the two demo apps: a voice agent (`useVoiceAgent`) and an app graph run from a
 * template (`useAppRun`). Prints their URLs and the development API key.
 *
 * Ports: `PORT` (platform, default 8080), `PALAVER_DEMO_PORT` (voice demo, 3000), `PALAVER_APP_DEMO_PORT`
 * (app run demo, 3001). A problem at start (a taken port, a bad value) is one line on stderr and exit code 1.
 * With no hosted LLM configured, an OpenAI-compatible server on 127.0.0.1:11434 (Ollama) becomes the demos' LLM;
 * with neither, the banner says the agents only repeat what they heard and how to get a real LLM.
 */
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { startAppRunDemo } from './app-run-demo/demo-server.js';
import { detectLocalLlm } from './support/local-llm.js';
import { startBanner, type DemoLlm } from './support/start-banner.js';
import { listenOn, portFrom, startProblemLine } from './support/start-problems.js';
import { startVoiceDemo } from './voice-demo/demo-server.js';

const closers: Array<() => Promise<void>> = [];
let stopping = false;
/**
 * Closes the demos and the platform, then exits: with `code`, or 1 when a close failed (or took over 10 s). Signals
 * after the first change nothing: one Ctrl-C reaches this process twice under `pnpm start` (the terminal's, and the
 * one pnpm and tsx pass on), and a second default handler would end it in the middle of closing.
 */
const stop = async (code: number, why?: NodeJS.Signals) => {
  if (stopping) return;
  stopping = true;
  setTimeout(() => {
    process.stderr.write('Shutdown took over 10 s; exiting now.\n');
    process.exit(1);
  }, 10_000).unref();
  const closed = await Promise.allSettled(closers.reverse().map((close) => close()));
  const failed = closed.find((result) => result.status === 'rejected');
  if (failed) process.stderr.write(`Closing failed: ${String(failed.reason)}\n`);
  if (why) process.stdout.write(`Stopped (${why}).\n`);
  process.exit(failed ? 1 : code);
};
process.on('SIGINT', () => void stop(0, 'SIGINT'));
process.on('SIGTERM', () => void stop(0, 'SIGTERM'));

try {
  const platformPort = portFrom('PORT', 8080);
  const voicePort = portFrom('PALAVER_DEMO_PORT', 3000);
  const appRunPort = portFrom('PALAVER_APP_DEMO_PORT', 3001);
  // Ollama on this machine, when no LLM is configured: the demos talk to its first model instead of the echo model.
  const configured = Boolean(process.env.OPENAI_API_KEY || process.env.PALAVER_OLLAMA_URL);
  const ollama = configured ? undefined : await detectLocalLlm();
  const server: PalaverServer = await createServer({
    // For development: the try-it console of the reference at /docs starts with the dev key (pages opened on this machine).
    config: {
      port: platformPort,
      docs: { prefillDevKey: true },
      ...(ollama ? { llm: { ollamaUrl: ollama.url, ollamaModels: ollama.models.slice(0, 1) } } : {}),
    },
  });
  closers.push(() => server.close());
  const platformUrl = await listenOn('platform', platformPort, 'PORT', () => server.listen());
  const voiceDemo = await listenOn('voice demo', voicePort, 'PALAVER_DEMO_PORT', () => startVoiceDemo({ platformUrl, apiKey: server.apiKey, port: voicePort }));
  closers.push(() => voiceDemo.close());
  const appRunDemo = await listenOn('app run demo', appRunPort, 'PALAVER_APP_DEMO_PORT', () =>
    startAppRunDemo({ platformUrl, apiKey: server.apiKey, port: appRunPort }),
  );
  closers.push(() => appRunDemo.close());
  const llm: DemoLlm = ollama ? { kind: 'found', model: ollama.models[0]!, url: ollama.url } : configured ? { kind: 'configured' } : { kind: 'offline' };
  process.stdout.write(startBanner({ voiceDemoUrl: voiceDemo.url, appRunDemoUrl: appRunDemo.url, platformUrl, apiKey: server.apiKey, llm }));
} catch (error) {
  process.stderr.write(`${startProblemLine(error)}\n`);
  await stop(1);
}
