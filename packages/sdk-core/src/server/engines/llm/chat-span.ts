import type { Span } from '@opentelemetry/api';
import { recordFailure, tracer } from '../../kernel/telemetry/tracer.js';
import type { ChatMetrics } from './chat-metrics.js';

/**
 * The trace span of one LLM gateway call, named as OpenTelemetry's GenAI conventions say (`chat {model}`):
 * from the request reaching the gateway to the model's last delta, a child of whatever is active (the HTTP
 * request, the agent turn). The model's first delta is an event; model, stream, tokens, outcome and the time
 * to the first delta are attributes. It ends once: with the run's measurements, or refused before the model ran.
 *
 * @example
 * const span = new ChatSpan(request.model, true);
 * span.firstDelta();
 * span.finished(metrics);
 */
export class ChatSpan {
  private readonly span: Span;
  private ended = false;

  constructor(model: string, stream: boolean) {
    this.span = tracer.startSpan(`chat ${model}`, {
      attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': model, 'palaver.chat.stream': stream },
    });
  }

  /** The model's first delta arrived (the latency the caller feels). */
  firstDelta(): void {
    this.span.addEvent('first delta');
  }

  /** The run ended (completed, aborted or failed with `error`); usage is what was metered. */
  finished(metrics: ChatMetrics, error?: unknown): void {
    if (this.ended) return;
    this.span.setAttributes({
      'gen_ai.response.model': metrics.model,
      'gen_ai.usage.input_tokens': metrics.usage.prompt_tokens,
      'gen_ai.usage.output_tokens': metrics.usage.completion_tokens,
      'palaver.chat.outcome': metrics.outcome,
      ...(metrics.timeToFirstDeltaMs !== undefined ? { 'palaver.chat.time_to_first_delta_ms': metrics.timeToFirstDeltaMs } : {}),
    });
    // An abort is the caller's choice (barge-in, a client gone), not a failure of the call.
    if (metrics.outcome === 'failed') recordFailure(this.span, error);
    this.end();
  }

  /** The call was refused before the model ran: unknown model, a limit reached, input the model cannot take. */
  refused(error: unknown): void {
    if (this.ended) return;
    this.span.setAttribute('palaver.chat.outcome', 'refused');
    recordFailure(this.span, error);
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.span.end();
  }
}
