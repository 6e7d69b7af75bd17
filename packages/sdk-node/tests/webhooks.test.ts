import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WebhookMessage } from '@palaver/sdk-core';
import { createServer, type PalaverServer } from '@palaver/sdk-core/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  WebhookVerificationError,
  createExpressWebhookMiddleware,
  createNodeWebhookHandler,
  createWebhookHandler,
  verifyWebhook,
  type ExpressLikeResponse,
} from '../src/index.js';

const SECRET = 'whsec_dGVzdC1zZWNyZXQtZm9yLXNkay1ub2Rl';

interface Captured {
  headers: IncomingHttpHeaders;
  body: string;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Starts a platform whose dev project delivers webhooks to `url` (dispatcher on, as in production). */
function platform(url: string, secret?: string): Promise<PalaverServer> {
  return createServer({ env: {}, config: { logLevel: 'silent', webhook: { url, ...(secret ? { secret } : {}) } } });
}

describe('@palaver/sdk-node webhooks', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function capture(): Promise<{ url: string; requests: Captured[] }> {
    const requests: Captured[] = [];
    const server = createHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(200).end();
      });
    });
    const url = await listen(server);
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    return { url, requests };
  }

  let captured: Captured;
  let capturedWithApiKey: { request: Captured; apiKey: string };
  beforeAll(async () => {
    const { url, requests } = await capture();
    const server = await platform(url, SECRET);
    await server.services.usage.record({ project: server.project, human: 'alice' }, 'token_cnt', 42, { model: 'm' });
    await waitFor(() => requests.length === 1, 10_000);
    captured = requests[0]!;
    await server.close();

    // Without PALAVER_WEBHOOK_SECRET the spec's rule applies: signed with the project's service key.
    const second = await capture();
    const keyed = await platform(second.url);
    await keyed.services.usage.record({ project: keyed.project }, 'conversational_seconds', 1);
    await waitFor(() => second.requests.length === 1, 10_000);
    capturedWithApiKey = { request: second.requests[0]!, apiKey: keyed.apiKey };
    await keyed.close();
  });
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('verifies a real delivery and returns the typed message', () => {
    const message = verifyWebhook(captured.body, captured.headers, SECRET);
    expect(message.type).toBe('usage.tracked');
    if (message.type !== 'usage.tracked') throw new Error('unreachable');
    expect(message.payload).toMatchObject({ type: 'token_cnt', value: 42, human: 'alice', human_id: 'alice', metadata: { model: 'm' } });
    expect(verifyWebhook(Buffer.from(captured.body), new Headers(captured.headers as Record<string, string>), SECRET).type).toBe('usage.tracked');
  });

  it('rejects tampering, wrong secrets, stale timestamps and missing headers', () => {
    const reject = (body: string, headers: Record<string, unknown>, secret = SECRET, options = {}) => {
      let error: unknown;
      try {
        verifyWebhook(body, headers as IncomingHttpHeaders, secret, options);
      } catch (caught) {
        error = caught;
      }
      expect(WebhookVerificationError.isInstance(error)).toBe(true);
    };
    reject(captured.body.replace('42', '43'), captured.headers);
    reject(captured.body, captured.headers, 'whsec_d3Jvbmctc2VjcmV0');
    reject(captured.body, captured.headers, SECRET, { now: () => Date.now() + 10 * 60_000 });
    reject(captured.body, { ...captured.headers, 'webhook-id': 'msg_replayed' });
    reject(captured.body, { ...captured.headers, 'webhook-signature': 'v1,AAAA' });
    reject(captured.body, { 'content-type': 'application/json' });
    const { 'webhook-id': _id, 'webhook-timestamp': _timestamp, 'webhook-signature': _signature, ...legacyOnly } = captured.headers;
    expect(verifyWebhook(captured.body, legacyOnly, SECRET).type).toBe('usage.tracked');
    reject(captured.body, legacyOnly, SECRET, { allowLegacySignature: false });
    reject(`${captured.body} `, legacyOnly);
  });

  it('signs with the API key when no webhook secret is configured', () => {
    const { request, apiKey } = capturedWithApiKey;
    expect(verifyWebhook(request.body, request.headers, apiKey).type).toBe('usage.tracked');
  });

  it('fetch-style handler (Hono, Next): 200 handled, 400 invalid, 500 when the handler throws', async () => {
    const seen: Array<{ message: WebhookMessage; webhookId: string | undefined }> = [];
    let fail = false;
    const handler = createWebhookHandler({
      secret: SECRET,
      onEvent: (message, context) => {
        if (fail) throw new Error('database down');
        seen.push({ message, webhookId: context.webhookId });
      },
      onError: () => {},
    });
    const request = (body: string) => new Request('http://receiver/hook', { method: 'POST', headers: captured.headers as Record<string, string>, body });
    expect((await handler(request(captured.body))).status).toBe(200);
    expect(seen[0]!.webhookId).toBe(captured.headers['webhook-id']);
    const invalid = await handler(request(captured.body.replace('alice', 'mallory')));
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toHaveProperty('error');
    fail = true;
    expect((await handler(request(captured.body))).status).toBe(500);
    expect(seen).toHaveLength(1);
  });

  it('node:http handler receives live deliveries end to end', async () => {
    const messages: WebhookMessage[] = [];
    const receiver = createHttpServer(createNodeWebhookHandler({ secret: SECRET, onEvent: (message) => void messages.push(message) }));
    const url = await listen(receiver);
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const server = await platform(url, SECRET);
    closers.push(() => server.close());
    await server.services.usage.record({ project: server.project, human: 'bob' }, 'memory_message_cnt', 2);
    await waitFor(() => messages.length === 1, 10_000);
    expect(messages[0]).toMatchObject({ type: 'usage.tracked', payload: { human: 'bob', value: 2 } });
    const bad = await fetch(url, { method: 'POST', headers: { 'x-webhook-signature': '0'.repeat(64) }, body: '{"type":"x","payload":{}}' });
    expect(bad.status).toBe(400);
  });

  it('Express-style middleware verifies raw bodies from express.raw() or the stream', async () => {
    const messages: WebhookMessage[] = [];
    const middleware = createExpressWebhookMiddleware({ secret: SECRET, onEvent: (message) => void messages.push(message) });
    const receiver = createHttpServer((request, response) => {
      const expressResponse: ExpressLikeResponse = {
        status(code) {
          response.statusCode = code;
          return expressResponse;
        },
        type(contentType) {
          response.setHeader('content-type', contentType);
          return expressResponse;
        },
        send(body) {
          response.end(body);
          return expressResponse;
        },
      };
      void middleware(request, expressResponse, (error) => response.writeHead(599).end(String(error)));
    });
    const url = await listen(receiver);
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const headers = captured.headers as Record<string, string>;
    const { host: _host, 'content-length': _length, connection: _connection, ...forwarded } = headers;
    expect((await fetch(url, { method: 'POST', headers: forwarded, body: captured.body })).status).toBe(200);
    expect((await fetch(url, { method: 'POST', headers: forwarded, body: captured.body.replace('42', '1') })).status).toBe(400);
    expect(messages).toHaveLength(1);

    // express.raw() leaves a Buffer in req.body.
    const answers: number[] = [];
    const fakeResponse: ExpressLikeResponse = {
      status: (code) => (answers.push(code), fakeResponse),
      type: () => fakeResponse,
      send: () => fakeResponse,
    };
    await middleware({ headers: captured.headers, body: Buffer.from(captured.body) } as never, fakeResponse, () => {});
    expect(answers).toEqual([200]);
  });
});
