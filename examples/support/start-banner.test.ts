import { describe, expect, it } from 'vitest';
import { startBanner, type DemoLlm } from './start-banner.js';

const banner = (llm: DemoLlm) =>
  startBanner({ voiceDemoUrl: 'http://127.0.0.1:3000/', appRunDemoUrl: 'http://127.0.0.1:3001/', platformUrl: 'http://127.0.0.1:8080', apiKey: 'pk_dev', llm });

describe('the pnpm start banner', () => {
  it('without an LLM, says the agents only repeat what they heard and how to get a real LLM', () => {
    const text = banner({ kind: 'offline' });
    expect(text).toContain('built-in offline model, which repeats what it heard');
    expect(text).toContain('OPENAI_API_KEY=sk-... pnpm start');
    expect(text).toContain('ollama serve');
    // The rest is still there.
    expect(text).toContain('Voice demo:    http://127.0.0.1:3000/');
    expect(text).toContain('Dev API key:   pk_dev');
  });

  it('with Ollama found, names its model and gives no advice', () => {
    const text = banner({ kind: 'found', model: 'llama3.2', url: 'http://127.0.0.1:11434' });
    expect(text).toContain('LLM:           llama3.2 on the OpenAI-compatible server at http://127.0.0.1:11434 (found on this machine)');
    expect(text).not.toContain('offline model');
    expect(text).not.toContain('OPENAI_API_KEY');
  });

  it('with an LLM configured in the environment, gives no advice', () => {
    const text = banner({ kind: 'configured' });
    expect(text).not.toContain('LLM:');
    expect(text).not.toContain('OPENAI_API_KEY');
  });
});
