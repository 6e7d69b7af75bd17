import type { Logger } from 'pino';
import {
  MAX_COMPLETION_TOKENS,
  moderationRequested,
  type ChatCompletionChunk,
  type ChatCompletionRequest,
  type ChatCompletionResponse,
  type ChatCompletionUsage,
  type ChatMessage,
  type ChatStreamError,
  type ChatToolChoice,
  type ChatVoiceOutput,
} from '../../../contract/chat.js';
import type { ChatTokenLogprob } from '../../../contract/chat-parameters.js';
import { ApiError, BadRequestError, UpstreamError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import { newId } from '../../store/ids.js';
import { ChatModelError, type ChatDelta, type ChatModel, type ChatModelRequest } from './chat-model.js';
import { ChatSpan } from './chat-span.js';
import { assembleCompletion } from './completion-assembler.js';
import type { ChatMetrics } from './chat-metrics.js';
import type { ResolveModel } from './model-resolver.js';
import { moderatedDeltas } from './moderated-deltas.js';
import { passedParameters } from './request-parameters.js';
import { estimatePromptTokens, messageText } from './token-count.js';
import { AudioInputError, type Transcriber } from './transcriber.js';
import type { ChatPort, ChatRunOptions, ChatStreamEvent } from '../../kernel/ports/chat.js';
import type { SpeechOutput, SpeechPlan } from '../../kernel/ports/speech-output.js';
import type { UsageMeter, UsageReservation } from '../../kernel/ports/usage-meter.js';

export interface ChatGatewayDependencies {
  resolveModel: ResolveModel;
  usageMeter: UsageMeter;
  /** Speech-to-text for `input_audio` parts; without it such requests are refused with 400. */
  transcriber?: Transcriber | undefined;
  /** Speech of the answer (`modalities: ["text", "audio"]`); without it such requests are refused with 400. */
  speechOutput?: SpeechOutput | undefined;
  /**
   * Throws 400 `moderation_error` for flagged text (`metadata.moderation: true`): the latest user message,
   * the whole answer of a non-streamed request, each sentence of a streamed one. Without it such requests are refused.
   */
  moderate?: ((text: string, signal: AbortSignal) => Promise<void>) | undefined;
  logger: Logger;
  onMetrics?: (metrics: ChatMetrics) => void;
  /**
   * How often a running answer's tokens so far are recorded (default 1 s): a crash then loses at most that much of
   * the metering. Each time is one item of the usage group commit, never a database round trip of the stream's own.
   */
  meterEveryMs?: number;
}

/** See {@link ChatGatewayDependencies.meterEveryMs}. */
const METER_EVERY_MS = 1000;

export type { ChatMetrics, ChatRunOptions, ChatStreamEvent };

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
  speech: SpeechPlan | undefined;
}

/** An opened run: the model's deltas (the first one already pulled) and the speech to render afterwards. */
interface OpenedRun {
  deltas: AsyncIterable<ChatDelta>;
  speech: SpeechPlan | undefined;
}

/**
 * The LLM gateway: resolves the request's LLM, refuses what the model cannot take, transcribes audio
 * parts, meters tokens per human, and returns the answer whole or as a stream of chunks. Errors before
 * the first delta are thrown (so the HTTP layer answers with a status); once a stream has begun, an
 * error (an upstream failure, a sentence refused by moderation) becomes a final `error` event.
 *
 * @example
 * const stream = await gateway.stream(principal, request, { signal });
 * for await (const event of stream) send(event);
 */
export class ChatGateway implements ChatPort {
  constructor(private readonly dependencies: ChatGatewayDependencies) {}

  /**
   * A whole (non-streamed) completion. With `metadata.moderation`, a flagged answer is refused (400
   * `moderation_error`); with speech output, the message's `service_ext.voice` points at the spoken answer.
   */
  async complete(principal: Principal, request: ChatCompletionRequest, options: ChatRunOptions): Promise<ChatCompletionResponse> {
    const { deltas, speech } = await this.open(principal, request, options.signal, false);
    const collected: ChatDelta[] = [];
    try {
      for await (const delta of deltas) collected.push(delta);
    } catch (error) {
      throw toApiError(error);
    }
    const completion = assembleCompletion(collected, { id: newId('chatcmpl'), created: unixSeconds(), model: request.model });
    const message = completion.choices[0]?.message;
    if (message && moderationRequested(request)) {
      const answer = [message.content, message.refusal].filter((text) => text).join('\n');
      if (answer !== '') await this.moderate(answer, options.signal);
    }
    if (message && speech) message.service_ext = { voice: await this.speak(principal, request, speech, message.content ?? '', options) };
    return completion;
  }

  /**
   * A streamed completion. Resolves once the model produced its first delta, so failures up to then
   * (unknown model, limits, upstream errors after retries) reject instead of starting a stream. With
   * `metadata.moderation`, text is held back until its sentence is complete and moderated, then sent in
   * the model's own chunks; a flagged sentence is never sent: the stream ends with a `moderation_error`
   * event and the model call is aborted (its tokens are still counted).
   */
  async stream(principal: Principal, request: ChatCompletionRequest, options: ChatRunOptions): Promise<AsyncIterable<ChatStreamEvent>> {
    const opened = await this.open(principal, request, options.signal, true);
    const { speech } = opened;
    const deltas = moderationRequested(request) ? moderatedDeltas(opened.deltas, (text, signal) => this.moderate(text, signal), options.signal) : opened.deltas;
    const speak = (text: string) => this.speak(principal, request, speech!, text, options);
    const id = newId('chatcmpl');
    const created = unixSeconds();
    const includeUsage = request.stream_options?.include_usage === true;
    const base = { id, object: 'chat.completion.chunk' as const, created, model: request.model };

    return (async function* events(): AsyncGenerator<ChatStreamEvent> {
      let usage: ChatCompletionUsage | undefined;
      let text = '';
      try {
        for await (const delta of deltas) {
          if (delta.type === 'usage') {
            usage = delta.usage;
            continue;
          }
          if (delta.type === 'text') text += delta.text;
          yield { type: 'chunk', chunk: { ...base, choices: [chunkChoice(delta)] } };
        }
      } catch (error) {
        if (options.signal.aborted) return;
        yield { type: 'error', error: streamFailure(error) };
        return;
      }
      if (speech) {
        // The speech chunk follows the finish chunk: synthesis needs the whole answer.
        let voice: ChatVoiceOutput | null;
        try {
          voice = await speak(text);
        } catch (error) {
          if (options.signal.aborted) return;
          const message = ApiError.isInstance(error) ? error.message : 'speech synthesis failed';
          const type = ApiError.isInstance(error) ? error.type : 'internal_error';
          yield { type: 'error', error: { error: { type, code: 'speech_error', message } } };
          return;
        }
        const serviceExt = { voice };
        yield {
          type: 'chunk',
          chunk: { ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null, service_ext: serviceExt }, finish_reason: null }] },
        };
      }
      if (includeUsage && usage) yield { type: 'chunk', chunk: { ...base, choices: [], usage } };
    })();
  }

  /** Prepares the run and pulls the first delta; the returned iterable yields it first. */
  private async open(principal: Principal, request: ChatCompletionRequest, signal: AbortSignal, stream: boolean): Promise<OpenedRun> {
    const started = performance.now();
    const span = new ChatSpan(request.model, stream);
    let prepared: PreparedRun;
    try {
      prepared = await this.prepare(principal, request, signal);
    } catch (error) {
      span.refused(error);
      throw error;
    }
    const iterator = this.run(prepared, request, signal, stream, started, span)[Symbol.asyncIterator]();
    let first: IteratorResult<ChatDelta>;
    try {
      first = await iterator.next();
    } catch (error) {
      throw toApiError(error);
    }
    const deltas: AsyncIterable<ChatDelta> = {
      [Symbol.asyncIterator]() {
        let pending: IteratorResult<ChatDelta> | undefined = first;
        // Plain functions handing over the run's own promises: no async wrapper (and its extra ticks) per delta.
        return {
          next: () => {
            if (!pending) return iterator.next();
            const result = pending;
            pending = undefined;
            return Promise.resolve(result);
          },
          return: () => iterator.return(undefined),
        };
      },
    };
    return { deltas, speech: prepared.speech };
  }

  /** 400 `moderation_error` for flagged text; 400 `invalid_input` when this server has no moderator. */
  private async moderate(text: string, signal: AbortSignal): Promise<void> {
    await this.moderator()(text, signal);
  }

  /** The configured moderator; 400 `invalid_input` when this server has none. */
  private moderator(): NonNullable<ChatGatewayDependencies['moderate']> {
    const moderate = this.dependencies.moderate;
    if (!moderate) throw new BadRequestError('Invalid body: metadata.moderation: no moderator is configured on this server');
    return moderate;
  }

  private async speak(
    principal: Principal,
    request: ChatCompletionRequest,
    plan: SpeechPlan,
    text: string,
    options: ChatRunOptions,
  ): Promise<ChatVoiceOutput | null> {
    const metadata = { ...(request.metadata ?? {}), model: request.model };
    return this.dependencies.speechOutput!.render(principal, plan, text, { signal: options.signal, baseUrl: options.audioBaseUrl ?? '', metadata });
  }

  private async prepare(principal: Principal, request: ChatCompletionRequest, signal: AbortSignal): Promise<PreparedRun> {
    const model = await this.dependencies.resolveModel(principal, request.model);
    const messages = await this.withTranscribedAudio(request.messages, model, signal);
    if (moderationRequested(request)) {
      // Refused before any token is spent when there is no moderator, even without user text to check.
      const moderate = this.moderator();
      // The latest user message, as the model will see it (audio parts already transcribed).
      const latest = [...messages].reverse().find((message) => message.role === 'user');
      const text = latest ? messageText(latest).trim() : '';
      if (text !== '') await moderate(text, signal);
    }
    const speechOutput = this.dependencies.speechOutput;
    if (!speechOutput && request.modalities?.includes('audio')) {
      throw new BadRequestError('Invalid body: modalities: speech output is not available on this server');
    }
    // Voice and voice_synthesis_seconds limit are checked before any token is spent.
    const speech = await speechOutput?.plan(principal, request);
    const passed = passedParameters(request);
    const promptEstimate = estimatePromptTokens(messages);
    const wanted = (passed.limit ?? MAX_COMPLETION_TOKENS) * passed.choices;
    const modelRequest: ChatModelRequest = {
      messages,
      maxTokens: passed.limit,
      limitFields: passed.limitFields,
      temperature: request.temperature,
      parameters: passed.parameters,
      metadata: passed.metadata,
      tools: request.tools,
      toolChoice: effectiveToolChoice(request),
      parallelToolCalls: request.parallel_tool_calls,
    };
    const refused = model.refusal?.(modelRequest);
    if (refused) throw new BadRequestError(`Invalid body: ${refused.field}: ${refused.reason} (LLM '${model.id}')`);
    const reservation = await this.dependencies.usageMeter.reserve(principal, promptEstimate + wanted);
    // When only part of the human's budget remains, the answer is cut to fit it.
    if (reservation.granted < promptEstimate + wanted) {
      modelRequest.maxTokens = Math.max(1, Math.floor((reservation.granted - promptEstimate) / passed.choices));
      if (passed.limitFields.length === 0) modelRequest.limitFields = ['max_tokens'];
    }
    return { model, promptEstimate, reservation, speech, modelRequest };
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
        let text: string;
        try {
          text = await transcriber.transcribe({ data, format: part.input_audio.format }, { signal });
        } catch (error) {
          if (!(error instanceof AudioInputError)) throw error;
          const where = error.field === 'stt' ? field : `${field}.input_audio.${error.field}`;
          throw new BadRequestError(`Invalid body: ${where}: ${error.message}`, { cause: error });
        }
        parts.push({ type: 'text' as const, text });
      }
      result.push({ ...message, content: parts });
    }
    return result;
  }

  /** The model's deltas, metered: usage is committed however the run ends (done, failed, aborted). */
  private async *run(
    prepared: PreparedRun,
    request: ChatCompletionRequest,
    signal: AbortSignal,
    stream: boolean,
    started: number,
    span: ChatSpan,
  ): AsyncGenerator<ChatDelta> {
    const { model, modelRequest, reservation, promptEstimate } = prepared;
    let firstDeltaMs: number | undefined;
    let reported: ChatCompletionUsage | undefined;
    let producedText = 0;
    let outcome: ChatMetrics['outcome'] = 'aborted';
    let failure: unknown;
    // The tokens so far are recorded every meterEveryMs while the answer runs (a kill -9 loses at most that much).
    const meterEveryMs = this.dependencies.meterEveryMs ?? METER_EVERY_MS;
    let meterAt = started + meterEveryMs;
    try {
      for await (const delta of model.stream(modelRequest, { signal })) {
        const now = performance.now();
        if (firstDeltaMs === undefined) span.firstDelta();
        firstDeltaMs ??= now - started;
        if (delta.type === 'usage') reported = delta.usage;
        else if (delta.type === 'text' || delta.type === 'refusal') producedText += delta.text.length;
        else if (delta.type === 'tool-call') producedText += (delta.name?.length ?? 0) + (delta.arguments?.length ?? 0);
        if (now >= meterAt) {
          meterAt = now + meterEveryMs;
          reservation.progress(promptEstimate + Math.ceil(producedText / 4), { ...(request.metadata ?? {}), model: request.model, stream, outcome: 'running' });
        }
        yield delta;
      }
      outcome = 'completed';
    } catch (error) {
      outcome = signal.aborted ? 'aborted' : 'failed';
      failure = error;
      throw error;
    } finally {
      const completionTokens = Math.ceil(producedText / 4);
      const usage = reported ?? { prompt_tokens: promptEstimate, completion_tokens: completionTokens, total_tokens: promptEstimate + completionTokens };
      const metadata = { ...(request.metadata ?? {}), model: request.model, stream, outcome };
      try {
        // A request the model refused or failed before answering used nothing. One its caller abandoned before the
        // first token (a preemptive answer thrown away) had its prompt sent and read: the prompt counts.
        if (firstDeltaMs === undefined && outcome !== 'aborted') await reservation.release();
        else await reservation.commit(usage.total_tokens, metadata);
      } catch (error) {
        this.dependencies.logger.error({ err: error, model: request.model }, 'could not record token usage');
      }
      const metrics: ChatMetrics = { model: model.id, stream, timeToFirstDeltaMs: firstDeltaMs, totalMs: performance.now() - started, usage, outcome };
      this.dependencies.logger.debug({ ...metrics }, 'chat completion');
      span.finished(metrics, failure);
      this.dependencies.onMetrics?.(metrics);
    }
  }
}

function chunkChoice(delta: Exclude<ChatDelta, { type: 'usage' }>): ChatCompletionChunk['choices'][number] {
  const index = delta.choice ?? 0;
  switch (delta.type) {
    case 'text':
      return { index, delta: { role: 'assistant', content: delta.text }, finish_reason: null, ...logprobsOf(delta.logprobs, 'content') };
    case 'refusal':
      return { index, delta: { role: 'assistant', content: null, refusal: delta.text }, finish_reason: null, ...logprobsOf(delta.logprobs, 'refusal') };
    case 'tool-call': {
      const fn = { ...(delta.name !== undefined ? { name: delta.name } : {}), ...(delta.arguments !== undefined ? { arguments: delta.arguments } : {}) };
      const call = { index: delta.index, ...(delta.id !== undefined ? { id: delta.id, type: 'function' as const } : {}), function: fn };
      return { index, delta: { role: 'assistant', content: null, tool_calls: [call] }, finish_reason: null };
    }
    case 'finish':
      return { index, delta: { role: 'assistant', content: null }, finish_reason: delta.reason };
  }
}

/** A chunk's `logprobs` for the tokens of one text delta, when the model reported them. */
function logprobsOf(tokens: ChatTokenLogprob[] | undefined, kind: 'content' | 'refusal'): Pick<ChatCompletionChunk['choices'][number], 'logprobs'> {
  if (!tokens) return {};
  return { logprobs: kind === 'content' ? { content: tokens, refusal: null } : { content: null, refusal: tokens } };
}

/**
 * The error event ending a stream: an upstream failure (`upstream_error`, naming the LLM and the cause), or an
 * API error of the answer's moderation (`moderation_error`, or the moderation endpoint's failure), whose
 * type is also its code.
 */
function streamFailure(error: unknown): ChatStreamError {
  if (ApiError.isInstance(error)) return { error: { type: error.type, code: error.type, message: error.message } };
  if (error instanceof ChatModelError) return { error: { type: 'upstream_error', code: 'upstream_error', message: error.message } };
  return { error: { type: 'internal_error', code: 'internal_error', message: 'the completion failed' } };
}

/**
 * Failures before anything was sent: the caller's fault is 400; an unreachable or failing upstream is 502
 * `upstream_error` (never a 500: the platform did not fail), its message naming the LLM and the cause.
 */
function toApiError(error: unknown): unknown {
  if (!(error instanceof ChatModelError)) return error;
  if (error.details.kind === 'client') return new BadRequestError(error.message, { cause: error });
  return new UpstreamError(error.message, { cause: error });
}
