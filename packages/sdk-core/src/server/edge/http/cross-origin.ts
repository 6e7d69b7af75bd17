import type { Context, Next } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnvironment } from './app-environment.js';
import { requestHeader, withAnswerHeaders, type AnswerHeader } from './node-headers.js';

export interface CrossOriginOptions {
  /** `*` or a comma-separated list of origins. */
  origins: string;
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAgeSeconds: number;
}

/**
 * CORS. Preflights are Hono's `cors`. On every other request the same two headers are set with
 * {@link withAnswerHeaders} (on Node's response under @hono/node-server): Hono's `cors` sets them on
 * `context.res` before the handler runs, and the handler's response is then copied over that one, which under
 * @hono/node-server turns the lightweight response into a full web `Response` (7% of a small GET's CPU).
 */
export function crossOrigin(options: CrossOriginOptions): (context: Context<AppEnvironment>, next: Next) => Promise<void> {
  const anyOrigin = options.origins === '*';
  const allowed = anyOrigin ? [] : options.origins.split(',').map((origin) => origin.trim());
  const preflight = cors({
    origin: anyOrigin ? '*' : allowed,
    allowMethods: options.allowMethods,
    allowHeaders: options.allowHeaders,
    exposeHeaders: options.exposeHeaders,
    maxAge: options.maxAgeSeconds,
  });
  const exposed: AnswerHeader[] = options.exposeHeaders.length > 0 ? [['access-control-expose-headers', options.exposeHeaders.join(',')]] : [];
  // With any origin allowed, every answer gets the same headers.
  const forAnyOrigin: AnswerHeader[] = [['access-control-allow-origin', '*'], ...exposed];
  const answerPreflight = async (context: Context<AppEnvironment>, next: Next) => {
    // Set, not returned: this middleware may run inside another one, which would not pass a returned answer on.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- the `any` is Hono's default path parameter of Context
    const answer = await preflight(context, next);
    if (answer) context.res = answer;
  };
  return (context, next) => {
    if (context.req.method === 'OPTIONS') return answerPreflight(context, next);
    if (anyOrigin) return withAnswerHeaders(context, forAnyOrigin, next);
    const origin = requestHeader(context, 'origin');
    const allowOrigin: AnswerHeader[] = origin !== undefined && allowed.includes(origin) ? [['access-control-allow-origin', origin]] : [];
    return withAnswerHeaders(context, [...allowOrigin, ...exposed, ['vary', 'Origin', true]], next);
  };
}
