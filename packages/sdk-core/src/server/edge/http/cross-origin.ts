import type { Context, Next } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnvironment } from './app-environment.js';
import { requestHeader, setResponseHeader } from './node-headers.js';

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
 * {@link setResponseHeader} (on Node's response under @hono/node-server): Hono's `cors` sets them on
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
  const exposed = options.exposeHeaders.join(',');
  return async (context, next) => {
    if (context.req.method === 'OPTIONS') {
      // Set, not returned: this middleware may run inside another one, which would not pass a returned answer on.
      const answer = await preflight(context, next);
      if (answer) context.res = answer;
      return;
    }
    const origin = requestHeader(context, 'origin');
    const allowOrigin = anyOrigin ? '*' : origin !== undefined && allowed.includes(origin) ? origin : undefined;
    if (allowOrigin) setResponseHeader(context, 'access-control-allow-origin', allowOrigin);
    if (exposed) setResponseHeader(context, 'access-control-expose-headers', exposed);
    // Before the handler, so that an event stream, whose head goes out while the handler runs, carries it too.
    if (!anyOrigin) setResponseHeader(context, 'vary', 'Origin', { append: true });
    await next();
  };
}
