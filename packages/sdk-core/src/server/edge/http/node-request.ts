import type { Context } from 'hono';
import type { AppEnvironment } from './app-environment.js';

/**
 * Reads a request body as text. Under @hono/node-server with a declared `content-length` (already checked
 * against the route's limit by `bodyLimit`), it reads Node's request stream directly: going through the
 * web `Request` builds a ReadableStream pipeline that costs more than the rest of a small request.
 */
export async function readRequestText(context: Context<AppEnvironment>): Promise<string> {
  const incoming = context.env?.incoming;
  if (!incoming || incoming.headers['content-length'] === undefined || incoming.readableDidRead) return context.req.text();
  // Read through the stream's events, not its async iterator (which costs more than the JSON parse of a small body).
  return new Promise<string>((resolve, reject) => {
    const parts: Buffer[] = [];
    const settle = (error?: Error) => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', settle);
      incoming.off('close', onClose);
      if (error) reject(error);
      else resolve(parts.length === 1 ? parts[0]!.toString('utf8') : Buffer.concat(parts).toString('utf8'));
    };
    const onData = (part: Buffer) => parts.push(part);
    const onEnd = () => settle();
    const onClose = () => {
      if (!incoming.readableEnded)
        settle(Object.assign(new Error('the client closed the request before its body ended'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', settle);
    incoming.once('close', onClose);
  });
}

/**
 * A signal that aborts when the client goes away before the response ended. Under @hono/node-server it
 * follows Node's response (`close` before `finish`) rather than materialising the web `Request`.
 */
export function clientSignal(context: Context<AppEnvironment>): AbortSignal {
  const outgoing = context.env?.outgoing;
  if (!outgoing) return context.req.raw.signal;
  const controller = new AbortController();
  if (outgoing.destroyed && !outgoing.writableFinished) {
    controller.abort(new Error('the client disconnected'));
  } else {
    outgoing.once('close', () => {
      if (!outgoing.writableFinished) controller.abort(new Error('the client disconnected'));
    });
  }
  return controller.signal;
}
