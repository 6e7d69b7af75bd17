import { context as traceContext, propagation, SpanKind, SpanStatusCode, trace, type Context as TraceContext, type TextMapGetter } from '@opentelemetry/api';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { UNMATCHED_ROUTE, type ServerMetrics } from '../../kernel/telemetry/server-metrics.js';
import { recordFailure, tracer } from '../../kernel/telemetry/tracer.js';
import type { AppEnvironment } from './app-environment.js';

/** Reads W3C trace context (`traceparent`, `tracestate`) from request headers. */
const headerGetter: TextMapGetter<Headers> = {
  get: (headers, key) => headers.get(key) ?? undefined,
  keys: (headers) => [...headers.keys()],
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
function parentOf(headers: Headers): TraceContext {
  const active = traceContext.active();
  return trace.getSpan(active) ? active : propagation.extract(active, headers, headerGetter);
}

/**
 * Measures and traces every request: the `palaver_http_request_duration_seconds` histogram by method, route
 * template and status, and a server span `METHOD /route/template` (OpenTelemetry's HTTP conventions: the
 * span is active while the request runs, so the LLM gateway's span is its child; 5xx answers are errors).
 * Registered first, so it sees every answer, refusals of the later middlewares included.
 *
 * @example
 * app.use(observeRequests(services.metrics));
 */
export function observeRequests(metrics: ServerMetrics): MiddlewareHandler<AppEnvironment> {
  return async (context, next) => {
    const method = context.req.method;
    const started = performance.now();
    const parent = parentOf(context.req.raw.headers);
    const span = tracer.startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method, 'palaver.request.id': context.get('requestId') } },
      parent,
    );
    let thrown: unknown;
    try {
      await traceContext.with(trace.setSpan(parent, span), next);
    } catch (error) {
      // Hono answers handler errors through onError before this point; anything reaching here is a 500.
      thrown = error;
      throw error;
    } finally {
      const route = routeTemplate(context);
      const status = thrown === undefined ? context.res.status : 500;
      metrics.requestAnswered({ method, route, status }, (performance.now() - started) / 1000);
      const matched = route !== UNMATCHED_ROUTE;
      span.updateName(matched ? `${method} ${route}` : method);
      span.setAttributes({ 'http.response.status_code': status, ...(matched ? { 'http.route': route } : {}) });
      const failure = thrown ?? context.error;
      if (status >= 500) {
        if (failure !== undefined) recordFailure(span, failure);
        else span.setStatus({ code: SpanStatusCode.ERROR, message: `answered ${status}` });
      }
      span.end();
    }
  };
}
