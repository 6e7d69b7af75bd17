import type { Logger } from 'pino';
import type { ChatMessage, ChatToolChoice } from '../../../contract/chat.js';
import type { RealtimeResponseObject, RealtimeServerEventBody } from '../../../contract/openai-realtime-events.js';
import type { RealtimeFunctionTool, RealtimeItem, RealtimeToolChoice } from '../../../contract/openai-realtime-session.js';
import { ApiError } from '../../../errors/api-error.js';
import type { Speech } from '../../engines/speech/index.js';
import type { Principal } from '../../kernel/principal.js';
import { AgentSpeaker, streamAnswer, type AgentChat, type Answer, type AnswerResult, type SessionSpeech } from '../../voice/index.js';
import { REALTIME_SAMPLE_RATE } from './pushed-audio-track.js';
import { outputAudioEncoder, type SessionAudioFormat } from './realtime-audio-format.js';
import { realtimeId } from './realtime-ids.js';
import type { RealtimeItems, SpokenSegment } from './realtime-items.js';
import { SocketAudioOutput } from './socket-audio-output.js';

/** What one response is asked with: the session's settings and `response.create`'s overrides, resolved. */
export interface ResponsePlan {
  id: string;
  model: string;
  messages: ChatMessage[];
  modalities: Array<'audio' | 'text'>;
  voice: string;
  /** The format of its audio deltas. */
  format: SessionAudioFormat;
  tools: RealtimeFunctionTool[];
  toolChoice: RealtimeToolChoice;
  maxOutputTokens: number | 'inf';
  metadata: Record<string, string> | null;
  /** Whether its output items join the conversation (`conversation: 'auto'`). */
  conversation: boolean;
}

/** What a response runs on. */
export interface ResponseContext {
  sessionId: string;
  principal: Principal;
  chat: AgentChat;
  tts: Speech['tts'];
  /** The session's voice, the human's speech budget and its metering. */
  speech: SessionSpeech;
  items: RealtimeItems;
  send(event: RealtimeServerEventBody): void;
  /** Where speech goes on WebRTC (the agent's track); without it, `response.output_audio.delta` events. */
  audioSink?: RealtimeAudioSink;
  logger: Logger;
}

/** The agent's audio track of a WebRTC call: 24 kHz PCM in, paced to real time by the track. */
export interface RealtimeAudioSink {
  write(pcm: Int16Array): void;
  /** Drops what is queued and not yet played. */
  clear(): void;
}

/** Why a response stopped early: `response.cancel`, or the human's speech (server VAD). */
export type CancelReason = 'client_cancelled' | 'turn_detected';

type Status = RealtimeResponseObject['status'];
type StatusDetails = RealtimeResponseObject['status_details'];

function chatToolChoice(choice: RealtimeToolChoice): ChatToolChoice {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * One response of a Realtime API session, on the voice layer: the model's answer (`streamAnswer`, the chat gateway
 * metered for the human) is spoken by the `AgentSpeaker` clause by clause into `response.output_audio.delta`s paced to
 * playback, its words as `response.output_audio_transcript.delta`s (or, text only, `response.output_text.delta`s); the
 * model's tool calls become `function_call` items for the client to run. Cancelled (`response.cancel`, speech of the
 * human), it keeps the words heard; `response.done` carries its status and token usage.
 *
 * @example
 * const response = new RealtimeResponse(context, plan);
 * await response.run(controller.signal);
 */
export class RealtimeResponse {
  private readonly output: RealtimeItem[] = [];
  private message: { item: RealtimeItem; index: number; segments: SpokenSegment[]; said: string; audio?: SocketAudioOutput } | undefined;
  private status: Status = 'in_progress';
  private details: StatusDetails = null;
  private result: AnswerResult | undefined;

  constructor(
    private readonly context: ResponseContext,
    readonly plan: ResponsePlan,
  ) {}

  get id(): string {
    return this.plan.id;
  }

  async run(signal: AbortSignal): Promise<void> {
    this.context.send({ type: 'response.created', response: this.object() });
    const audio = this.plan.modalities.includes('audio');
    try {
      const refusal = audio ? await this.context.speech.refusal() : undefined;
      if (refusal) throw new ApiError({ status: 400, type: refusal.type, message: refusal.message });
      const answer = this.ask(signal);
      if (audio) await this.speak(answer, signal);
      else await this.write(answer, signal);
      this.result = await answer.done;
      this.finishMessage(signal.aborted || this.result.finishReason === 'length');
      if (!signal.aborted) this.callFunctions(this.result);
    } catch (error) {
      this.finishMessage(true);
      if (!signal.aborted) this.failed(error);
    }
    this.settle(signal);
    this.context.send({ type: 'response.done', response: this.object() });
  }

  private ask(signal: AbortSignal): Answer {
    const { plan, context } = this;
    return streamAnswer(context.chat, {
      principal: context.principal,
      model: plan.model,
      messages: plan.messages,
      metadata: { openai_realtime_session: context.sessionId, response: plan.id },
      signal,
      tools: plan.tools.map((tool) => ({
        type: 'function',
        function: {
          name: tool.name,
          strict: null,
          ...(tool.description ? { description: tool.description } : {}),
          parameters: tool.parameters ?? { type: 'object', properties: {} },
        },
      })),
      toolChoice: chatToolChoice(plan.toolChoice),
      maxTokens: plan.maxOutputTokens === 'inf' ? undefined : plan.maxOutputTokens,
      includeUsage: true,
    });
  }

  /** Speaks the answer: audio deltas paced to playback, the words of each clause as it starts. */
  private async speak(answer: Answer, signal: AbortSignal): Promise<void> {
    const voice = await this.context.speech.voice();
    const sink = this.context.audioSink;
    let playing = false;
    const delta = outputAudioEncoder(this.plan.format);
    const output = new SocketAudioOutput(
      (pcm) => {
        const message = this.openMessage('audio');
        if (sink && !playing) this.context.send({ type: 'output_audio_buffer.started', response_id: this.plan.id });
        playing = true;
        message.audio = output;
        if (sink) sink.write(pcm);
        else this.context.send({ type: 'response.output_audio.delta', ...this.at(message), delta: delta(pcm) });
      },
      sink ? () => sink.clear() : undefined,
    );
    const speaker = new AgentSpeaker(this.context.tts, output, REALTIME_SAMPLE_RATE, this.context.logger);
    const spoken = await speaker.speak({
      text: answer.pieces,
      voice: voice.selection,
      signal,
      onProgress: (text) => {
        const message = this.openMessage('audio');
        message.audio = output;
        const delta = text.slice(message.said.length);
        if (!delta) return;
        message.segments.push({ text: delta.trim(), startMs: output.writtenMs, durationMs: 0 });
        message.said = text;
        this.context.send({ type: 'response.output_audio_transcript.delta', ...this.at(message), delta });
      },
    });
    this.context.speech.record(voice, spoken.audioSeconds);
    if (sink && playing) {
      await output.drained();
      this.context.send({ type: signal.aborted ? 'output_audio_buffer.cleared' : 'output_audio_buffer.stopped', response_id: this.plan.id });
    }
    if (this.message) this.message.said = spoken.interrupted ? spoken.text : this.message.said;
  }

  /** Writes the answer as text deltas. */
  private async write(answer: Answer, signal: AbortSignal): Promise<void> {
    for await (const piece of answer.pieces) {
      if (signal.aborted) break;
      const message = this.openMessage('text');
      message.said += piece;
      this.context.send({ type: 'response.output_text.delta', ...this.at(message), delta: piece });
    }
  }

  private at(message: { item: RealtimeItem; index: number }) {
    return { response_id: this.plan.id, item_id: message.item.id, output_index: message.index, content_index: 0 };
  }

  /** The assistant message of the answer, announced with its content part on first use. */
  private openMessage(kind: 'audio' | 'text'): NonNullable<RealtimeResponse['message']> {
    if (this.message) return this.message;
    const item: RealtimeItem = { id: realtimeId('item'), object: 'realtime.item', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    this.message = { item, index: this.output.length, segments: [], said: '' };
    this.addOutput(item);
    const part = kind === 'audio' ? { type: 'audio' as const, transcript: '' } : { type: 'text' as const, text: '' };
    this.context.send({ type: 'response.content_part.added', ...this.at(this.message), part });
    return this.message;
  }

  private addOutput(item: RealtimeItem): void {
    const previous = this.plan.conversation ? this.context.items.lastId : null;
    this.output.push(item);
    this.context.send({ type: 'response.output_item.added', response_id: this.plan.id, output_index: this.output.length - 1, item });
    if (!this.plan.conversation) return;
    this.context.items.add(item);
    this.context.send({ type: 'conversation.item.added', previous_item_id: previous, item });
  }

  private doneOutput(item: RealtimeItem, index: number): void {
    this.context.send({ type: 'response.output_item.done', response_id: this.plan.id, output_index: index, item });
    if (this.plan.conversation) this.context.send({ type: 'conversation.item.done', previous_item_id: this.previousOf(item.id), item });
  }

  private previousOf(id: string): string | null {
    const index = this.output.findIndex((item) => item.id === id);
    return index > 0 ? this.output[index - 1]!.id : null;
  }

  /** Closes the answer's message: its words (those heard, when cut short) and the `.done` events. */
  private finishMessage(incomplete: boolean): void {
    const message = this.message;
    if (!message || message.item.status !== 'in_progress') return;
    const said = message.said.trim();
    message.item.status = incomplete ? 'incomplete' : 'completed';
    const at = this.at(message);
    if (message.audio) {
      const segments = message.segments;
      segments.forEach((segment, index) => (segment.durationMs = (segments[index + 1]?.startMs ?? message.audio!.writtenMs) - segment.startMs));
      message.item.content = [{ type: 'output_audio', transcript: said }];
      if (this.plan.conversation) this.context.items.recordAudio(message.item.id, segments, message.audio.writtenMs);
      this.context.send({ type: 'response.output_audio.done', ...at });
      this.context.send({ type: 'response.output_audio_transcript.done', ...at, transcript: said });
      this.context.send({ type: 'response.content_part.done', ...at, part: { type: 'audio', transcript: said } });
    } else {
      message.item.content = [{ type: 'output_text', text: said }];
      this.context.send({ type: 'response.output_text.done', ...at, text: said });
      this.context.send({ type: 'response.content_part.done', ...at, part: { type: 'text', text: said } });
    }
    this.doneOutput(message.item, message.index);
  }

  /** The model's tool calls, each a `function_call` item with its arguments (the client runs it). */
  private callFunctions(result: AnswerResult): void {
    for (const call of result.toolCalls) {
      const item: RealtimeItem = {
        id: realtimeId('item'),
        object: 'realtime.item',
        type: 'function_call',
        status: 'in_progress',
        call_id: call.id || realtimeId('call'),
        name: call.function.name,
        arguments: '',
      };
      this.addOutput(item);
      const index = this.output.length - 1;
      const at = { response_id: this.plan.id, item_id: item.id, output_index: index, call_id: item.call_id! };
      this.context.send({ type: 'response.function_call_arguments.delta', ...at, delta: call.function.arguments });
      item.arguments = call.function.arguments;
      item.status = 'completed';
      this.context.send({ type: 'response.function_call_arguments.done', ...at, name: item.name!, arguments: item.arguments });
      this.doneOutput(item, index);
    }
  }

  private failed(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    const type = ApiError.isInstance(error) && error.status < 500 ? 'invalid_request_error' : 'server_error';
    const code = ApiError.isInstance(error) ? error.type : 'response_failed';
    if (type === 'server_error') this.context.logger.warn({ err: error, response: this.plan.id }, 'a realtime response failed');
    this.status = 'failed';
    this.details = { type: 'failed', error: { type, code, message } };
    this.context.send({ type: 'error', error: { type, code, message, param: null, event_id: null } });
  }

  private settle(signal: AbortSignal): void {
    if (this.status === 'failed') return;
    if (signal.aborted) {
      this.status = 'cancelled';
      this.details = { type: 'cancelled', reason: (signal.reason as CancelReason | undefined) ?? 'client_cancelled' };
    } else if (this.result?.finishReason === 'length') {
      this.status = 'incomplete';
      this.details = { type: 'incomplete', reason: 'max_output_tokens' };
    } else {
      this.status = 'completed';
    }
  }

  object(): RealtimeResponseObject {
    const usage = this.result?.usage;
    const { plan } = this;
    return {
      id: plan.id,
      object: 'realtime.response',
      status: this.status,
      status_details: this.details,
      output: this.output,
      conversation_id: plan.conversation ? `conv_${this.context.sessionId}` : null,
      output_modalities: plan.modalities,
      max_output_tokens: plan.maxOutputTokens,
      audio: { output: { format: plan.format, voice: plan.voice } },
      metadata: plan.metadata,
      usage: usage
        ? {
            total_tokens: usage.promptTokens + usage.completionTokens,
            input_tokens: usage.promptTokens,
            output_tokens: usage.completionTokens,
            input_token_details: { text_tokens: usage.promptTokens, audio_tokens: 0, cached_tokens: 0 },
            output_token_details: { text_tokens: usage.completionTokens, audio_tokens: 0 },
          }
        : null,
    };
  }
}

/** A new response id. */
export function responseId(): string {
  return realtimeId('resp');
}
