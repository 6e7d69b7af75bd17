import { SpanStatusCode, trace, type Span } from '@opentelemetry/api';

/**
 * The platform's tracer. Spans go through `@opentelemetry/api` only: they cost next to nothing and go nowhere
 * until the application registers an OpenTelemetry SDK (docs/decisions/0069-metrics-and-traces.md). Taken
 * once: the API hands out a proxy that follows an SDK registered later.
 *
 * @example
 * const span = tracer.startSpan('agent turn');
 * span.end();
 */
export const tracer = trace.getTracer('@palaver/sdk-core');

/**
 * Marks a span failed with the error that ended its operation (status ERROR and an `exception` event).
 *
 * @example
 * try { await work(); } catch (error) { recordFailure(span, error); throw error; } finally { span.end(); }
 */
export function recordFailure(span: Span, error: unknown): void {
  const failure = error instanceof Error ? error : new Error(String(error));
  span.recordException(failure);
  span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
}
