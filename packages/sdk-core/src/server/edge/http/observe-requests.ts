import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { context as traceContext, propagation, SpanKind, SpanStatusCode, trace, type Context as TraceContext, type TextMapGetter } from '@opentelemetry/api';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { UNMATCHED_ROUTE, type ServerMetrics } from '../../kernel/telemetry/server-metrics.js';
import { recordFailure, tracer } from '../../kernel/telemetry/tracer.js';
import type { AppEnvironment } from './app-environment.js';
import { requestHeader, requestHeaderNames, withAnswerHeaders } from './node-headers.js';

const REQUEST_ID_HEADER = 'x-request-id';
/** A caller's request id is kept when it is 1 to 255 characters of letters, digits, `_`, `-` and `=`. */
const CALLER_REQUEST_ID = /^[\w\-=]{1,255}$/;

/** Reads W3C trace context (`traceparent`, `tracestate`) from request headers. */
const headerGetter: TextMapGetter<Context<AppEnvironment>> = {
  get: (context, key) => requestHeader(context, key),
  keys: (context) => requestHeaderNames(context),
};

/**
 * The route that answered, as the contract writes it (`/v1/realtime/{session}/end`), never the raw path: raw
 * paths carry ids (one series each) and, for `/v1/chat/audio/{id}`, the credential itself. A request only
 * middlewares saw (unknown path, wrong method, CORS preflight) has a wildcard route: {@link UNMATCHED_ROUTE}.
 */
function routeTemplate(context: Context): string {
  const path = routePath(context);
  let template = templates.get(path);
  if (template === undefined) {
    template = path === '' || path.includes('*') ? UNMATCHED_ROUTE : path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    templates.set(path, template);
  }
  return template;
}

/** Route templates by Hono path: the routes are fixed, so the map stays as small as the contract. */
const templates = new Map<string, string>();

/** The parent of a request's span: a span already active (the application's own HTTP instrumentation), else the caller's. */
function parentOf(context: Context<AppEnvironment>): TraceContext {
  const active = traceContext.active();
  return trace.getSpan(active) ? active : propagation.extract(active, context, headerGetter);
}

/**
 * The answer's status. An answer written to Node directly (an event stream) has its status on Node's response:
 * reading the stand-in response Hono holds would build a web `Response` for nothing.
 */
function statusOf(context: Context<AppEnvironment>): number {
  const outgoing = context.env?.outgoing;
  return outgoing?.headersSent ? outgoing.statusCode : context.res.status;
}

/** The caller's `x-request-id` when it is a usable one, else a new UUID. */
function requestIdOf(context: Context<AppEnvironment>): string {
  const presented = requestHeader(context, REQUEST_ID_HEADER);
  return presented !== undefined && CALLER_REQUEST_ID.test(presented) ? presented : randomUUID();
}

/**
 * Gives every request its id (the caller's `x-request-id` when usable, answered in the same header) and
 * measures and traces it: the `palaver_http_request_duration_seconds` histogram by method, route
 * template and status, and a server span `METHOD /route/template` (OpenTelemetry's HTTP conventions: the
 * span is active while the request runs, so the LLM gateway's span is its child; 5xx answers are errors).
 * At `debug`, each answer is also logged with its duration.
 * Registered first, so it sees every answer, refusals of the later middlewares included. One middleware, not
 * three: each of Hono's middleware layers is a promise and a closure per request.
 *
 * @example
 * app.use(observeRequests(services.metrics, services.logger));
 */
export function observeRequests(metrics: ServerMetrics, logger: Logger): MiddlewareHandler<AppEnvironment> {
  return async (context, next) => {
    const method = context.req.method;
    const started = performance.now();
    const requestId = requestIdOf(context);
    context.set('requestId', requestId);
    const parent = parentOf(context);
    const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'palaver.request.id': requestId } }, parent);
    let thrown: unknown;
    try {
      await withAnswerHeaders(context, [[REQUEST_ID_HEADER, requestId]], () => traceContext.with(trace.setSpan(parent, span), next));
    } catch (error) {
      // Hono answers handler errors through onError before this point; anything reaching here is a 500.
      thrown = error;
      throw error;
    } finally {
      const route = routeTemplate(context);
      const status = thrown === undefined ? statusOf(context) : 500;
      const seconds = (performance.now() - started) / 1000;
      metrics.requestAnswered({ method, route, status }, seconds);
      if (logger.isLevelEnabled('debug')) {
        // An unmatched request is logged with its path (a matched one's path may carry a credential: /v1/chat/audio/{id}).
        const path = route === UNMATCHED_ROUTE ? { path: new URL(context.req.url).pathname } : {};
        logger.debug({ requestId, method, route, ...path, status, ms: Math.round(seconds * 1000) }, 'request');
      }
      // Without an OpenTelemetry SDK the span records nothing: its name and attributes are not even built.
      if (span.isRecording()) {
        const matched = route !== UNMATCHED_ROUTE;
        span.updateName(matched ? `${method} ${route}` : method);
        span.setAttributes({ 'http.response.status_code': status, ...(matched ? { 'http.route': route } : {}) });
        const failure = thrown ?? context.error;
        if (status >= 500) {
          if (failure !== undefined) recordFailure(span, failure);
          else span.setStatus({ code: SpanStatusCode.ERROR, message: `answered ${status}` });
        }
      }
      span.end();
    }
  };
}
