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

type NodeRequestHeaders = { headers: Record<string, string | string[] | undefined> };

function incomingHeader(incoming: NodeRequestHeaders, name: string): string | undefined {
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
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

/**
 * Sets a header of the coming response. Under @hono/node-server it goes on Node's response, which merges it
 * into the head it writes (the response's own headers win), so the lightweight response stays lightweight;
 * `context.header` would start a web `Headers` for the response instead. A response already under way (an
 * event stream written to Node directly) keeps its head.
 */
export function setResponseHeader(context: Context<AppEnvironment>, name: string, value: string, options?: { append?: boolean }): void {
  const outgoing = context.env?.outgoing;
  if (!outgoing) {
    context.header(name, value, options);
    return;
  }
  if (outgoing.headersSent) return;
  if (options?.append) outgoing.appendHeader(name, value);
  else outgoing.setHeader(name, value);
}
