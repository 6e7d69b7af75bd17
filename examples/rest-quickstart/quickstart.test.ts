import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { quickstart } from './quickstart.js';

let server: PalaverServer;
let baseUrl: string;
beforeAll(async () => {
  server = await createServer({ env: {}, config: { logLevel: 'silent' } });
  baseUrl = await server.listen(0);
});
afterAll(async () => server.close());

it('runs the REST quickstart against a real platform over HTTP', async () => {
  const lines: string[] = [];
  const result = await quickstart({ baseUrl, apiKey: server.apiKey, log: (line) => lines.push(line) });
  expect(result.voice.id).toMatch(/^flite-/);
  expect(result.context.human).toBe('user-42');
  expect(result.context.latest_messages[0]?.content).toEqual([{ type: 'text', text: 'What is 1/2 + 1/3?' }]);
  expect(result.hiddenFromOthers).toBe(true);
  expect(lines).toHaveLength(4);
});
