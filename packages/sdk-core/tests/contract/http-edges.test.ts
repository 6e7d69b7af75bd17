import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe('HTTP edges', () => {
  let test: TestServer;
  beforeAll(async () => {
    test = await startTestServer('sqlite');
  });
  afterAll(async () => test.close());

  it('answers CORS preflights so browsers can call the API with a usage token', async () => {
    const response = await test.server.fetch(
      new Request('http://palaver.test/v1/persona/list', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,x-human-id' },
      }),
    );
    expect(response.status).toBeLessThan(300);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    const simple = await test.server.fetch(new Request('http://palaver.test/health', { headers: { origin: 'https://app.example.com' } }));
    expect(simple.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });

  it('answers only the configured origins over a real socket, refusals included', async () => {
    const limited = await startTestServer('sqlite', { config: { corsOrigins: 'https://app.example.com, https://admin.example.com' } });
    try {
      const base = await limited.server.listen(0, '127.0.0.1');
      const allowed = await fetch(`${base}/v1/persona/list`, { headers: { origin: 'https://admin.example.com', 'x-api-key': limited.server.apiKey } });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://admin.example.com');
      expect(allowed.headers.get('access-control-expose-headers')).toBe('x-request-id,retry-after,location');
      expect(allowed.headers.get('vary')).toBe('Origin');
      expect(allowed.headers.get('x-request-id')).toMatch(/.{8,}/);
      // A browser reads a refusal's message only when the refusal carries the CORS headers too.
      const refused = await fetch(`${base}/v1/persona/list`, { headers: { origin: 'https://app.example.com', 'x-api-key': 'pk_wrong' } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(await refused.json()).toMatchObject({ type: 'unauthorized' });
      // A streamed answer, written straight to the socket, carries them too.
      const streamed = await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { origin: 'https://app.example.com', 'x-api-key': limited.server.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'builtin-offline', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
      });
      expect(streamed.headers.get('content-type')).toContain('text/event-stream');
      expect(streamed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(streamed.headers.get('access-control-expose-headers')).toBe('x-request-id,retry-after,location');
      expect(streamed.headers.get('x-request-id')).toMatch(/.{8,}/);
      expect(streamed.headers.get('vary')).toBe('Origin');
      expect((await streamed.text()).endsWith('data: [DONE]\n\n')).toBe(true);
      const stranger = await fetch(`${base}/v1/persona/list`, { headers: { origin: 'https://evil.example.com', 'x-api-key': limited.server.apiKey } });
      expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
      // Through server.fetch too: an answer the handler built itself (an event stream) carries them as well.
      const inProcess = await limited.server.fetch(
        new Request('http://palaver.test/v1/chat/completions', {
          method: 'POST',
          headers: { origin: 'https://app.example.com', 'x-api-key': limited.server.apiKey, 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'builtin-offline', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
        }),
      );
      expect(inProcess.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(inProcess.headers.get('vary')).toBe('Origin');
      expect(inProcess.headers.get('x-request-id')).toMatch(/.{8,}/);
      expect((await inProcess.text()).endsWith('data: [DONE]\n\n')).toBe(true);
      const preflight = await fetch(`${base}/v1/persona`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-api-key' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
      expect(preflight.headers.get('access-control-max-age')).toBe('600');
    } finally {
      await limited.close();
    }
  });

  it("gives every answer a request id, the caller's own when it is usable, through fetch and over a socket; HEAD included", async () => {
    const response = await test.server.fetch(new Request('http://palaver.test/v1/persona/list'));
    expect(response.headers.get('x-request-id')).toMatch(/.{8,}/);
    const kept = await test.server.fetch(new Request('http://palaver.test/v1/persona/list', { headers: { 'x-request-id': 'trace-42_a=b' } }));
    expect(kept.headers.get('x-request-id')).toBe('trace-42_a=b');
    const listening = await startTestServer('sqlite');
    try {
      const base = await listening.server.listen(0, '127.0.0.1');
      const overSocket = await fetch(`${base}/v1/persona/list`, { headers: { 'x-request-id': 'from-the-caller', 'x-api-key': listening.server.apiKey } });
      expect(overSocket.status).toBe(200);
      expect(overSocket.headers.get('x-request-id')).toBe('from-the-caller');
      for (const unusable of ['has spaces', 'x'.repeat(256), 'semi;colon']) {
        const replaced = await fetch(`${base}/health`, { headers: { 'x-request-id': unusable } });
        expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
      // HEAD is answered by the GET routes, without a body: the site's own, the health check and a contract route.
      for (const path of ['/', '/health', '/favicon.svg', '/v1/persona/list']) {
        const head = await fetch(`${base}${path}`, { method: 'HEAD', headers: { 'x-api-key': listening.server.apiKey } });
        expect([path, head.status]).toEqual([path, 200]);
        expect(await head.text()).toBe('');
        expect(head.headers.get('x-request-id')).toMatch(/.{8,}/);
      }
    } finally {
      await listening.close();
    }
  });

  it('refuses a request with two Authorization headers over a socket, as through fetch, even when the first is a valid key', async () => {
    const listening = await startTestServer('sqlite');
    try {
      const base = new URL(await listening.server.listen(0, '127.0.0.1'));
      const status = await new Promise<number>((resolve, reject) => {
        const request = httpRequest(
          // Two header lines: Node sends one per element (its types allow a list only for some headers).
          {
            host: base.hostname,
            port: base.port,
            path: '/v1/persona/list',
            headers: { authorization: [`Bearer ${listening.server.apiKey}`, 'Bearer pk_someone_else'] } as unknown as OutgoingHttpHeaders,
          },
          (response) => {
            response.resume();
            resolve(response.statusCode ?? 0);
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(status).toBe(401);
      const joined = await listening.server.fetch(
        new Request('http://palaver.test/v1/persona/list', {
          headers: [
            ['authorization', `Bearer ${listening.server.apiKey}`],
            ['authorization', 'Bearer pk_someone_else'],
          ],
        }),
      );
      expect(joined.status).toBe(401);
      const single = await fetch(new URL('/v1/persona/list', base), { headers: { authorization: `Bearer ${listening.server.apiKey}` } });
      expect(single.status).toBe(200);
    } finally {
      await listening.close();
    }
  });

  it('unknown routes answer 404 with the error shape', async () => {
    const response = await test.server.fetch(new Request('http://palaver.test/v1/nothing-here', { headers: { 'x-api-key': test.server.apiKey } }));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: 'not_found', message: expect.stringContaining('/v1/nothing-here') });
  });

  it('oversized bodies answer 413 with the error shape', async () => {
    const response = await test.server.fetch(
      new Request('http://palaver.test/v1/persona', {
        method: 'POST',
        headers: { 'x-api-key': test.server.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'big', description: 'x'.repeat(2 * 1024 * 1024), voice: 'flite-slt' }),
      }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ type: 'payload_too_large' });
  });

  it('a 413 closes the connection it could not read to the end, so a kept-alive client never reuses a broken socket', async () => {
    const url = new URL(await test.server.listen(0, '127.0.0.1'));
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
        const request = httpRequest(
          {
            host: url.hostname,
            port: url.port,
            method,
            path,
            agent,
            headers: { 'x-api-key': test.server.apiKey, ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
          },
          (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, connection: response.headers.connection, body: text }));
          },
        );
        request.on('error', reject);
        request.end(body);
      });
    try {
      for (const [method, path] of [
        ['POST', '/v1/persona'],
        ['DELETE', '/v1/persona/persona_missing'],
      ] as const) {
        const refused = await send(method, path, JSON.stringify({ name: 'big', description: 'x'.repeat(2 * 1024 * 1024) }));
        expect(refused.status).toBe(413);
        expect(refused.connection).toBe('close');
        expect(JSON.parse(refused.body)).toMatchObject({ type: 'payload_too_large' });
        // The next request through the same kept-alive agent gets a fresh connection and an answer.
        expect((await send('GET', '/v1/persona/list')).status).toBe(200);
      }
    } finally {
      agent.destroy();
    }
  });

  it('chat errors carry an OpenAI-style error object, so the openai client shows the message', async () => {
    const openai = new OpenAI({
      apiKey: test.server.apiKey,
      baseURL: 'http://palaver.test/v1',
      fetch: (input, init) => test.server.fetch(new Request(input, init)),
      maxRetries: 0,
    });
    const error = await openai.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect((error as Error).message).toContain('model');
    expect((error as Error).message).not.toContain('no body');
  });

  it('the typed client answers a chat completion from the built-in model', async () => {
    const completion = await test.client.chat.completions.create({
      model: 'builtin-offline',
      messages: [{ role: 'user', content: 'Say hello' }],
      max_tokens: 20,
    });
    expect(completion.choices[0]?.message.role).toBe('assistant');
    expect(completion.choices[0]?.message.content?.length).toBeGreaterThan(0);
  });
});
