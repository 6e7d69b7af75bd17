import type { Context } from 'hono';
import type { AppEnvironment } from './app-environment.js';

/** Reads one request header by its lower-case name; `undefined` when absent. */
export type HeaderReader = (name: string) => string | undefined;

/** A {@link HeaderReader} over a web `Headers`. */
export function readerOfHeaders(headers: Headers): HeaderReader {
  return (name) => headers.get(name) ?? undefined;
}

/**
 * A {@link HeaderReader} over Node's parsed request headers, as a web `Headers` would answer (repeated headers
 * joined by `, `). Node's `IncomingMessage.headers` is a plain object parsed anyway; the web `Headers` that
 * `context.req.header()` reads is built from it on first use, validating every header (a sixth of a small GET).
 */
export function readerOfIncoming(incoming: NodeRequestHeaders): HeaderReader {
  return (name) => incomingHeader(incoming, name);
}

type NodeRequestHeaders = {
  headers: Record<string, string | string[] | undefined>;
  headersDistinct: Record<string, string[] | undefined>;
};

/**
 * Headers of which Node keeps only the first copy in `incoming.headers` (its documented list, of those requests
 * carry). A web `Headers` joins every copy: a request with two `Authorization` headers must not pass on the first.
 */
const FIRST_COPY_ONLY = new Set([
  'authorization',
  'proxy-authorization',
  'content-type',
  'content-length',
  'host',
  'user-agent',
  'referer',
  'from',
  'age',
  'expires',
  'if-modified-since',
  'if-unmodified-since',
  'max-forwards',
]);

function incomingHeader(incoming: NodeRequestHeaders, name: string): string | undefined {
  const value = incoming.headers[name];
  if (value === undefined) return undefined;
  if (Array.isArray(value)) return value.join(', ');
  return FIRST_COPY_ONLY.has(name) ? incoming.headersDistinct[name]!.join(', ') : value;
}

/** The request's headers: Node's own under @hono/node-server, the web `Request`'s when the app is called through `fetch`. */
export function requestHeaders(context: Context<AppEnvironment>): HeaderReader {
  const incoming = context.env?.incoming;
  return incoming ? readerOfIncoming(incoming) : readerOfHeaders(context.req.raw.headers);
}

/** One request header (lower-case name), without building the web `Headers` under @hono/node-server. */
export function requestHeader(context: Context<AppEnvironment>, name: string): string | undefined {
  const incoming = context.env?.incoming;
  return incoming ? incomingHeader(incoming, name) : context.req.header(name);
}

/** The names of the request's headers, lower-case. */
export function requestHeaderNames(context: Context<AppEnvironment>): string[] {
  const incoming = context.env?.incoming;
  return incoming ? Object.keys(incoming.headers) : [...context.req.raw.headers.keys()];
}

/** A header a middleware gives every answer: name, value, and whether it adds to the answer's own (`vary`). */
export type AnswerHeader = readonly [name: string, value: string, append?: boolean];

/**
 * Runs `next` and gives its answer `headers`, whatever the answer: a handler's, a refusal, an event stream.
 * Under @hono/node-server they go on Node's response before `next`, which merges them into the head it writes
 * (the answer's own headers win), so the lightweight response stays lightweight and an event stream, whose head
 * goes out while the handler runs, carries them; `context.header` would start a web `Headers` for every answer.
 * Through `server.fetch` they are set on the finished answer after `next`, so that answers the handlers built
 * themselves (binary, event streams) carry them too.
 */
export function withAnswerHeaders(context: Context<AppEnvironment>, headers: readonly AnswerHeader[], next: () => Promise<void>): Promise<void> {
  const outgoing = context.env?.outgoing;
  if (!outgoing) return onFinishedAnswer(context, headers, next);
  for (const [name, value, append] of headers) {
    if (append) outgoing.appendHeader(name, value);
    else outgoing.setHeader(name, value);
  }
  // Not awaited here: one async frame less per request on the hot path.
  return next();
}

async function onFinishedAnswer(context: Context<AppEnvironment>, headers: readonly AnswerHeader[], next: () => Promise<void>): Promise<void> {
  await next();
  for (const [name, value, append] of headers) context.header(name, value, append ? { append: true } : undefined);
}
