import type { Logger } from 'pino';
import {
  MAX_COMPLETION_TOKENS,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
  type ChatCompletionUsage,
  type ChatMessage,
  type ChatStreamError,
  type ChatToolChoice,
} from '../../contract/chat.js';
import { BadRequestError, InternalServerError } from '../../errors/api-error.js';
import type { Principal } from '../services/auth/principal.js';
import { newId } from '../store/ids.js';
import { ChatModelError, type ChatDelta, type ChatModel, type ChatModelRequest } from './chat-model.js';
import { assembleCompletion } from './completion-assembler.js';
import type { ResolveModel } from './model-resolver.js';
import { estimatePromptTokens } from './token-count.js';
import type { Transcriber } from './transcriber.js';
import type { UsageMeter, UsageReservation } from './usage-meter.js';

/** What one completion measured: for logs, benchmarks and the realtime agent's latency budget. */
export interface ChatMetrics {
  model: string;
  stream: boolean;
  /** From the request reaching the gateway to the model's first delta; undefined when none came. */
  timeToFirstDeltaMs: number | undefined;
  totalMs: number;
  usage: ChatCompletionUsage;
  outcome: 'completed' | 'aborted' | 'failed';
}

export interface ChatGatewayDependencies {
  resolveModel: ResolveModel;
  usageMeter: UsageMeter;
  /** Speech-to-text for `input_audio` parts; without it such requests are refused with 400. */
  transcriber?: Transcriber | undefined;
  logger: Logger;
  onMetrics?: (metrics: ChatMetrics) => void;
}

/** One event of a streamed completion: a chunk, or the error that ends the stream early. */
export type ChatStreamEvent = { type: 'chunk'; chunk: ChatCompletionChunk } | { type: 'error'; error: ChatStreamError };

/** The effective tool choice: the spec's defaults are `none` without tools and `auto` with tools. */
export function effectiveToolChoice(request: Pick<ChatCompletionRequest, 'tools' | 'tool_choice'>): ChatToolChoice {
  return request.tool_choice ?? ((request.tools?.length ?? 0) > 0 ? 'auto' : 'none');
}

function unixSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

interface PreparedRun {
  model: ChatModel;
  modelRequest: ChatModelRequest;
  reservation: UsageReservation;
  promptEstimate: number;
}

/**
 * The LLM gateway: resolves the request's LLM, refuses what the model cannot take, transcribes audio
 * parts, meters tokens per human, and returns the answer whole or as a stream of chunks. Errors before
 * the first delta are thrown (so the HTTP layer answers with a status); once a stream has begun, an
 * error becomes a final `error` event.
 *
 * @example
 * const stream = await gateway.stream(principal, request, { signal });
 * for await (const event of stream) send(event);
 */
export class ChatGateway {
  constructor(private readonly dependencies: ChatGatewayDependencies) {}

  /** A whole (non-streamed) completion. */
  async complete(principal: Principal, request: ChatCompletionRequest, options: { signal: AbortSignal }): Promise<ChatCompletionResponse> {
    const deltas = await this.open(principal, request, options.signal, false);
    const collected: ChatDelta[] = [];
    try {
      for await (const delta of deltas) collected.push(delta);
    } catch (error) {
      throw toApiError(error);
    }
    return assembleCompletion(collected, { id: newId('chatcmpl'), created: unixSeconds(), model: request.model });
  }

  /**
   * A streamed completion. Resolves once the model produced its first delta, so failures up to then
   * (unknown model, limits, upstream errors after retries) reject instead of starting a stream.
   */
  async stream(principal: Principal, request: ChatCompletionRequest, options: { signal: AbortSignal }): Promise<AsyncIterable<ChatStreamEvent>> {
    const deltas = await this.open(principal, request, options.signal, true);
    const id = newId('chatcmpl');
    const created = unixSeconds();
    const includeUsage = request.stream_options?.include_usage === true;
    const base = { id, object: 'chat.completion.chunk' as const, created, model: request.model };

    return (async function* events(): AsyncGenerator<ChatStreamEvent> {
      let usage: ChatCompletionUsage | undefined;
      try {
        for await (const delta of deltas) {
          if (delta.type === 'usage') {
            usage = delta.usage;
            continue;
          }
          yield { type: 'chunk', chunk: { ...base, choices: [chunkChoice(delta)] } };
        }
      } catch (error) {
        if (options.signal.aborted) return;
        const message = error instanceof ChatModelError ? error.message : 'the completion failed';
        yield { type: 'error', error: { error: { type: 'internal_error', code: 'upstream_error', message } } };
        return;
      }
      if (includeUsage && usage) yield { type: 'chunk', chunk: { ...base, choices: [], usage } };
    })();
  }

  /** Prepares the run and pulls the first delta; the returned iterable yields it first. */
  private async open(principal: Principal, request: ChatCompletionRequest, signal: AbortSignal, stream: boolean): Promise<AsyncIterable<ChatDelta>> {
    const started = performance.now();
    const prepared = await this.prepare(principal, request, signal);
    const iterator = this.run(prepared, request, signal, stream, started)[Symbol.asyncIterator]();
    let first: IteratorResult<ChatDelta>;
    try {
      first = await iterator.next();
    } catch (error) {
      throw toApiError(error);
    }
    return {
      [Symbol.asyncIterator]() {
        let pending: IteratorResult<ChatDelta> | undefined = first;
        return {
          next: async () => {
            if (pending) {
              const result = pending;
              pending = undefined;
              return result;
            }
            return iterator.next();
          },
          return: async () => iterator.return(undefined),
        };
      },
    };
  }

  private async prepare(principal: Principal, request: ChatCompletionRequest, signal: AbortSignal): Promise<PreparedRun> {
    const model = await this.dependencies.resolveModel(principal, request.model);
    const messages = await this.withTranscribedAudio(request.messages, model, signal);
    const promptEstimate = estimatePromptTokens(messages);
    const wanted = request.max_tokens ?? MAX_COMPLETION_TOKENS;
    const reservation = await this.dependencies.usageMeter.reserve(principal, promptEstimate + wanted);
    // When only part of the human's budget remains, the answer is cut to fit it.
    const maxTokens = reservation.granted < promptEstimate + wanted ? Math.max(1, reservation.granted - promptEstimate) : request.max_tokens;
    return {
      model,
      promptEstimate,
      reservation,
      modelRequest: {
        messages,
        maxTokens,
        temperature: request.temperature,
        tools: request.tools,
        toolChoice: effectiveToolChoice(request),
        parallelToolCalls: request.parallel_tool_calls,
      },
    };
  }

  /** Refuses parts the model cannot take and replaces audio parts by their transcript. */
  private async withTranscribedAudio(messages: readonly ChatMessage[], model: ChatModel, signal: AbortSignal): Promise<ChatMessage[]> {
    const result: ChatMessage[] = [];
    for (const [messageIndex, message] of messages.entries()) {
      if (message.role !== 'user' || typeof message.content === 'string') {
        result.push(message);
        continue;
      }
      const parts = [];
      for (const [partIndex, part] of message.content.entries()) {
        const field = `messages[${messageIndex}].content[${partIndex}]`;
        if ((part.type === 'image_url' && !model.accepts.images) || (part.type === 'video_url' && !model.accepts.video)) {
          throw new BadRequestError(`Invalid body: ${field}: ${part.type} parts are not supported by the LLM '${model.id}'`);
        }
        if (part.type !== 'input_audio') {
          parts.push(part);
          continue;
        }
        const transcriber = this.dependencies.transcriber;
        if (!transcriber) {
          throw new BadRequestError(`Invalid body: ${field}: input_audio needs a speech-to-text provider, and none is configured on this server`);
        }
        const data = Buffer.from(part.input_audio.data, 'base64');
        const text = await transcriber.transcribe({ data, format: part.input_audio.format }, { signal });
        parts.push({ type: 'text' as const, text });
      }
      result.push({ ...message, content: parts });
    }
    return result;
  }

  /** The model's deltas, metered: usage is committed however the run ends (done, failed, aborted). */
  private async *run(prepared: PreparedRun, request: ChatCompletionRequest, signal: AbortSignal, stream: boolean, started: number): AsyncGenerator<ChatDelta> {
    const { model, modelRequest, reservation, promptEstimate } = prepared;
    let firstDeltaMs: number | undefined;
    let reported: ChatCompletionUsage | undefined;
    let producedText = 0;
    let outcome: ChatMetrics['outcome'] = 'aborted';
    try {
      for await (const delta of model.stream(modelRequest, { signal })) {
        firstDeltaMs ??= performance.now() - started;
        if (delta.type === 'usage') reported = delta.usage;
        else if (delta.type === 'text' || delta.type === 'refusal') producedText += delta.text.length;
        else if (delta.type === 'tool-call') producedText += (delta.name?.length ?? 0) + (delta.arguments?.length ?? 0);
        yield delta;
      }
      outcome = 'completed';
    } catch (error) {
      outcome = signal.aborted ? 'aborted' : 'failed';
      throw error;
    } finally {
      const completionTokens = Math.ceil(producedText / 4);
      const usage = reported ?? { prompt_tokens: promptEstimate, completion_tokens: completionTokens, total_tokens: promptEstimate + completionTokens };
      const metadata = { ...(request.metadata ?? {}), model: request.model, stream, outcome };
      try {
        // A request that produced nothing (refused upstream, aborted before the first token) used nothing.
        if (firstDeltaMs === undefined) await reservation.release();
        else await reservation.commit(usage.total_tokens, metadata);
      } catch (error) {
        this.dependencies.logger.error({ err: error, model: request.model }, 'could not record token usage');
      }
      const metrics: ChatMetrics = { model: model.id, stream, timeToFirstDeltaMs: firstDeltaMs, totalMs: performance.now() - started, usage, outcome };
      this.dependencies.logger.debug({ ...metrics }, 'chat completion');
      this.dependencies.onMetrics?.(metrics);
    }
  }
}

function chunkChoice(delta: Exclude<ChatDelta, { type: 'usage' }>): ChatCompletionChunk['choices'][number] {
  switch (delta.type) {
    case 'text':
      return { index: 0, delta: { role: 'assistant', content: delta.text }, finish_reason: null };
    case 'refusal':
      return { index: 0, delta: { role: 'assistant', content: null, refusal: delta.text }, finish_reason: null };
    case 'tool-call': {
      const fn = { ...(delta.name !== undefined ? { name: delta.name } : {}), ...(delta.arguments !== undefined ? { arguments: delta.arguments } : {}) };
      const call = { index: delta.index, ...(delta.id !== undefined ? { id: delta.id, type: 'function' as const } : {}), function: fn };
      return { index: 0, delta: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: null };
    }
    case 'finish':
      return { index: 0, delta: { role: 'assistant', content: null }, finish_reason: delta.reason };
  }
}

/** Failures before anything was sent: the caller's fault is 400, the upstream's 500 with a clear message. */
function toApiError(error: unknown): unknown {
  if (!(error instanceof ChatModelError)) return error;
  if (error.details.kind === 'client') return new BadRequestError(error.message, { cause: error });
  return new InternalServerError(error.message, { cause: error });
}
