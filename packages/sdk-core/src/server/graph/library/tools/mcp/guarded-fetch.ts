import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { outboundRequest, type OutboundPolicy } from '../../../../kernel/outbound/index.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** Statuses whose answer has no body (a `Response` refuses one). */
const NO_BODY = new Set([101, 204, 205, 304]);

function bodyText(body: RequestInit['body']): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  throw new TypeError('an MCP request body must be text');
}

/**
 * A `fetch` for the MCP client's streamable-HTTP transport that goes through the platform's outbound guard
 * (`kernel/outbound`): the server's address must pass `policy` where the socket connects, redirects are
 * never followed, and the answer streams (server-sent events) as it arrives.
 */
export function guardedFetch(policy: OutboundPolicy): FetchLike {
  return async (url, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase() as Method;
    if (!METHODS.includes(method)) throw new TypeError(`an MCP request cannot use ${method}`);
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, key) => (headers[key] = value));
    const answer = await outboundRequest(new URL(url), {
      method,
      headers,
      body: bodyText(init.body),
      signal: init.signal ?? new AbortController().signal,
      policy,
    });
    const responseHeaders = new Headers();
    for (const [key, value] of Object.entries(answer.headers)) {
      for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(key, one);
    }
    if (NO_BODY.has(answer.status)) {
      answer.body.resume();
      return new Response(null, { status: answer.status, headers: responseHeaders });
    }
    return new Response(Readable.toWeb(answer.body) as ReadableStream<Uint8Array>, { status: answer.status, headers: responseHeaders });
  };
}
