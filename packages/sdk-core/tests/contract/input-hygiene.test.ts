import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe.each(await storeKinds())('input no store can hold is a 400, never a 500 (%s)', (kind) => {
  let test: TestServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    test = await startTestServer(kind);
    headers = { 'x-api-key': test.server.apiKey, 'content-type': 'application/json' };
  });
  afterAll(async () => test.close());

  async function call(method: string, path: string, body?: unknown) {
    const text = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
    const response = await test.server.fetch(new Request(`http://palaver.test${path}`, { method, headers, ...(text === undefined ? {} : { body: text }) }));
    return { status: response.status, body: (await response.json()) as { type?: string; message?: string } };
  }

  it('refuses NUL characters in path ids, query values, body strings and keys', async () => {
    for (const [method, path, body] of [
      ['GET', '/v1/persona/%00'],
      ['DELETE', '/v1/secret/%00'],
      ['GET', '/v1/llm/context/list?context_ids=%00'],
      ['POST', '/v1/persona', { name: 'a\u0000b', description: 'd', voice: 'flite-slt' }],
      ['POST', '/v1/usage/token', { human: 'a\u0000' }],
      ['POST', '/v1/app/subgraph/create', { name: 'g', graph: { 'k\u0000': 1 } }],
    ] as const) {
      const answer = await call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(400);
      expect(answer.body.type).toBe('invalid_input');
      expect(answer.body.message).toContain('NUL');
    }
  });

  it('refuses JSON nested deeper than 64 levels, and accepts 60', async () => {
    // Built as text: 5,000 levels is beyond what JSON.stringify itself can walk.
    const deep = await call('POST', '/v1/app/subgraph/create', `{"name":"deep","graph":${'{"a":'.repeat(5000)}"leaf"${'}'.repeat(5000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.message).toMatch(/nested deeper than 64/);
    const fine = await call('POST', '/v1/app/subgraph/create', { name: 'fine', graph: nested(60) });
    expect(fine.status).toBe(200);
  });

  it('path ids are decoded once: an id with a percent sign is looked up as written', async () => {
    const answer = await call('GET', '/v1/persona/abc%25');
    expect(answer.status).toBe(404);
    expect(answer.body.message).toContain("'abc%'");
  });
});
