import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebhookMessage } from '@palaver/sdk-core';
import { WebhookVerificationError, verifyWebhook, type HeaderSource, type VerifyWebhookOptions } from './verify-webhook.js';

export interface WebhookHandlerOptions extends VerifyWebhookOptions {
  /** The endpoint's signing secret. */
  secret: string;
  /** Called once per verified message; throw to answer 500 (Palaver retries later). */
  onEvent(message: WebhookMessage, context: { webhookId: string | undefined }): void | Promise<void>;
  /** Largest accepted body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Receives errors thrown by `onEvent` (default: console.error). */
  onError?(error: unknown): void;
}

/** The spec's answers: 200 when handled, 400 for invalid data (bad signature), 500 for an internal error. */
interface Answer {
  status: 200 | 400 | 413 | 500;
  body: string;
}

const DEFAULT_MAX_BODY = 1024 * 1024;

async function handle(rawBody: string | Uint8Array, headers: HeaderSource, options: WebhookHandlerOptions): Promise<Answer> {
  let message: WebhookMessage;
  try {
    message = verifyWebhook(rawBody, headers, options.secret, options);
  } catch (error) {
    if (WebhookVerificationError.isInstance(error)) return { status: 400, body: JSON.stringify({ error: error.message }) };
    throw error;
  }
  try {
    const webhookId =
      typeof (headers as Headers).get === 'function'
        ? ((headers as Headers).get('webhook-id') ?? undefined)
        : (headers as Record<string, string | undefined>)['webhook-id'];
    await options.onEvent(message, { webhookId });
    return { status: 200, body: JSON.stringify({ ok: true }) };
  } catch (error) {
    (options.onError ?? ((caught: unknown) => console.error('webhook handler failed', caught)))(error);
    return { status: 500, body: JSON.stringify({ error: 'internal error' }) };
  }
}

async function readStream(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * A fetch-style webhook endpoint (`Request` -> `Response`): Hono, Next.js route handlers, Bun, Deno.
 *
 * @example
 * const handler = createWebhookHandler({ secret, onEvent: (message) => queue.push(message) });
 * app.post('/palaver/webhooks', (context) => handler(context.req.raw)); // Hono
 */
export function createWebhookHandler(options: WebhookHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    const body = new Uint8Array(await request.arrayBuffer());
    const answer = body.byteLength > limit ? { status: 413, body: JSON.stringify({ error: 'body too large' }) } : await handle(body, request.headers, options);
    return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
  };
}

/**
 * A node:http request listener for a webhook endpoint.
 *
 * @example
 * http.createServer(createNodeWebhookHandler({ secret, onEvent })).listen(3000);
 */
export function createNodeWebhookHandler(options: WebhookHandlerOptions): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return async (request, response) => {
    const body = await readStream(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
    const answer = body === undefined ? { status: 413, body: JSON.stringify({ error: 'body too large' }) } : await handle(body, request.headers, options);
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  };
}

/** The parts of an Express request and response the middleware uses. */
export interface ExpressLikeRequest extends IncomingMessage {
  /** Set by `express.raw()` / `express.text()`; when it is a parsed object the raw bytes are lost. */
  body?: unknown;
}
export interface ExpressLikeResponse {
  status(code: number): ExpressLikeResponse;
  type(contentType: string): ExpressLikeResponse;
  send(body: string): unknown;
}

/**
 * Express-style middleware (Express, Connect-compatible). Mount it before any JSON body parser, or use
 * `express.raw({ type: 'application/json' })` on the route, so the raw body can be verified.
 *
 * @example
 * app.post('/palaver/webhooks', createExpressWebhookMiddleware({ secret, onEvent }));
 */
export function createExpressWebhookMiddleware(
  options: WebhookHandlerOptions,
): (request: ExpressLikeRequest, response: ExpressLikeResponse, next: (error?: unknown) => void) => Promise<void> {
  return async (request, response, next) => {
    try {
      let body: string | Uint8Array | undefined;
      if (typeof request.body === 'string' || request.body instanceof Uint8Array) body = request.body;
      else if (request.body !== undefined && request.body !== null && Object.keys(request.body).length > 0) {
        response
          .status(500)
          .type('application/json')
          .send(JSON.stringify({ error: 'webhook body was parsed before verification; use express.raw()' }));
        return;
      } else body = await readStream(request, options.maxBodyBytes ?? DEFAULT_MAX_BODY);
      const answer = body === undefined ? { status: 413, body: JSON.stringify({ error: 'body too large' }) } : await handle(body, request.headers, options);
      response.status(answer.status).type('application/json').send(answer.body);
    } catch (error) {
      next(error);
    }
  };
}
