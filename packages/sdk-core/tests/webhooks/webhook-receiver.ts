import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ReceivedRequest {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** 1-based attempt number for this `webhook-id`. */
  attempt: number;
  /** The status answered, or how the request was dropped. */
  answered?: number | 'hang' | 'reset';
}

/** What the receiver does with one request. */
export type ReceiverAction = { status: number; headers?: Record<string, string>; delayMs?: number } | 'hang' | 'reset';

/**
 * A loopback webhook receiver that records every request and answers as the script says (by the
 * attempt number of the request's `webhook-id`).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** Requests received and not answered yet (delayed answers). */
  inFlight = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  url = '';

  constructor(private readonly script: (attempt: number, request: ReceivedRequest) => ReceiverAction = () => ({ status: 200 })) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const id = String(request.headers['webhook-id']);
        const attempt = this.requests.filter((earlier) => earlier.headers['webhook-id'] === id).length + 1;
        const received: ReceivedRequest = { headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), attempt };
        const action = this.script(attempt, received);
        received.answered = typeof action === 'object' ? action.status : action;
        this.requests.push(received);
        if (action === 'hang') this.hanging.add(response);
        else if (action === 'reset') request.socket.destroy();
        else if (action.delayMs) {
          this.inFlight += 1;
          setTimeout(() => {
            this.inFlight -= 1;
            if (!response.destroyed) response.writeHead(action.status, action.headers ?? {}).end('{}');
          }, action.delayMs);
        } else response.writeHead(action.status, action.headers ?? {}).end('{}');
      });
    });
    this.server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this.url;
  }

  /** Ids answered with 2xx. */
  deliveredIds(): Set<string> {
    const ids = new Set<string>();
    for (const request of this.requests) if (request.headers['webhook-id'] && this.succeeded(request)) ids.add(String(request.headers['webhook-id']));
    return ids;
  }

  private succeeded(request: ReceivedRequest): boolean {
    return typeof request.answered === 'number' && request.answered >= 200 && request.answered < 300;
  }

  async close(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/**
 * An independent implementation of the Standard Webhooks verification (standardwebhooks.com spec):
 * key = base64 of the part after `whsec_`, content = `${id}.${timestamp}.${body}`, signature =
 * base64 HMAC-SHA256, header = space-separated `v1,<signature>` entries.
 */
export function standardWebhooksValid(secret: string, headers: IncomingHttpHeaders, body: string, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
  const id = headers['webhook-id'];
  const timestamp = headers['webhook-timestamp'];
  const signature = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  if (Math.abs(nowSeconds - Number.parseInt(timestamp, 10)) > 300) return false;
  if (!secret.startsWith('whsec_')) throw new Error('the independent verifier expects a whsec_ secret');
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signature.split(' ').some((entry) => {
    const [version, value] = entry.split(',');
    if (version !== 'v1' || !value) return false;
    const given = Buffer.from(value, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The spec's `X-Webhook-Signature`: hex HMAC-SHA256 of the raw body, keyed with the configured secret. */
export function specSignatureValid(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  return headers['x-webhook-signature'] === createHmac('sha256', secret).update(body).digest('hex');
}

/** Polls `condition` every 20 ms until true or `timeoutMs` passes. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
