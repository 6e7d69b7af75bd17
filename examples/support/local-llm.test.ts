import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '@palaver/sdk-core/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preferredLlm } from './browser-app-server.js';
import { detectLocalLlm } from './local-llm.js';

/** What `pnpm start` does with an Ollama on the machine: finds it, and the demos use its model. */
describe('a local OpenAI-compatible server (Ollama) for the demos', () => {
  let ollama: Server;
  let url: string;
  beforeAll(async () => {
    // Ollama's OpenAI-compatible model list, as it answers it.
    ollama = createHttpServer((request, response) => {
      if (request.url === '/v1/models')
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ object: 'list', data: [{ id: 'llama3.2:1b', object: 'model', created: 1, owned_by: 'library' }] }));
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => ollama.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => ollama.close(() => resolve())));

  it('is found with its models; nothing listening, or no model list, is undefined', async () => {
    expect(await detectLocalLlm(url)).toEqual({ url, models: ['llama3.2:1b'] });
    expect(await detectLocalLlm('http://127.0.0.1:59998')).toBeUndefined();
    expect(await detectLocalLlm(`${url}/elsewhere`)).toBeUndefined();
  });

  it('configured as the platform does at start, it is the LLM the demos pick', async () => {
    const found = (await detectLocalLlm(url))!;
    const server = await createServer({ env: {}, config: { logLevel: 'silent', llm: { ollamaUrl: found.url, ollamaModels: found.models } } });
    try {
      const platformUrl = await server.listen(0, '127.0.0.1');
      const llm = await preferredLlm(platformUrl, server.apiKey);
      expect(llm).toMatch(/^builtin-ollama-/);
    } finally {
      await server.close();
    }
  });
});
