import type { Logger } from 'pino';
import type { RealtimeClientEvent, RealtimeResponseCreateParams, RealtimeServerEventBody } from '../../../contract/openai-realtime-events.js';
import type { RealtimeItem, RealtimeItemInput, RealtimeSessionObject, RealtimeSessionUpdate } from '../../../contract/openai-realtime-session.js';
import { ConversationTime } from '../../agent/conversation-time.js';
import type { Speech } from '../../engines/speech/index.js';
import type { ConversationMeter } from '../../kernel/ports/conversation-meter.js';
import type { Principal } from '../../kernel/principal.js';
import { SessionSpeech, type AgentChat, type AgentVoices, type TurnDetectionOptions } from '../../voice/index.js';
import { clientPcm, sessionAudioFormat } from './realtime-audio-format.js';
import { RealtimeInput } from './realtime-input.js';
import { RealtimeRequestError } from './realtime-errors.js';
import { RealtimeItems, storedItem } from './realtime-items.js';
import { RealtimeResponse, responseId, type CancelReason, type RealtimeAudioSink } from './realtime-response.js';
import { initialSession, listenerTurnDetection, updatedSession } from './realtime-session-config.js';

/** How often the human's `conversational_seconds` limit is checked while the socket is open. */
const LIMIT_CHECK_MS = 2000;
/** A session lasts at most an hour, as OpenAI's. */
export const SESSION_LIFETIME_MS = 60 * 60 * 1000;

export interface RealtimeConversationOptions {
  sessionId: string;
  principal: Principal;
  model: string;
  /** The voice the session starts with (the platform's default voice id). */
  voice: string;
  chat: AgentChat;
  speech: Pick<Speech, 'tts' | 'stt' | 'vad'>;
  voices: AgentVoices;
  meter: ConversationMeter | undefined;
  /** The server's turn detection, under the session's. */
  turnDetection: TurnDetectionOptions;
  /** Throws when `model` is not an LLM the caller may use. */
  checkModel(model: string): Promise<void>;
  send(event: RealtimeServerEventBody): void;
  /** WebRTC: the agent's audio track (speech goes there, not into `response.output_audio.delta` events). */
  audioSink?: RealtimeAudioSink;
  /** Ends the connection (a used-up limit, the session's end of life). */
  end(reason: string): void;
  logger: Logger;
}

/**
 * One Realtime API session (one websocket) on the voice layer: `session.update` configures it, the input audio buffer
 * is listened to (server VAD with the platform's adaptive end of turn) or committed by the client, conversation items
 * are created, deleted and truncated, and responses run one at a time (`RealtimeResponse`), cancelled by the client or
 * by the human's speech. The human's time on the socket is metered as `conversational_seconds`, like a realtime
 * session's. Client events are handled in order; a bad one is an `error` event, never the end of the session.
 *
 * @example
 * const conversation = new RealtimeConversation(options);
 * await conversation.start();
 * conversation.receive(event);
 */
export class RealtimeConversation {
  private session: RealtimeSessionObject;
  private readonly items = new RealtimeItems();
  private readonly input: RealtimeInput;
  private readonly speech: SessionSpeech;
  private readonly time: ConversationTime;
  private active: { response: RealtimeResponse; controller: AbortController } | undefined;
  private chain: Promise<void> = Promise.resolve();
  private readonly expiry: NodeJS.Timeout;
  private closed = false;

  constructor(private readonly options: RealtimeConversationOptions) {
    this.session = initialSession(options.sessionId, options.model, options.voice, Math.floor((Date.now() + SESSION_LIFETIME_MS) / 1000));
    this.input = new RealtimeInput(options.sessionId, options.speech, options.logger, {
      speechStarted: (itemId, audioStartMs) => this.speechStarted(itemId, audioStartMs),
      speechLikely: () => this.bargeIn(),
      heard: (itemId, text, audioEndMs) => this.heard(itemId, text, audioEndMs),
      failed: (error) => this.fail(new RealtimeRequestError(`Speech recognition failed: ${error.message}`, null, 'transcription_failed')),
    });
    this.speech = new SessionSpeech({
      tts: options.speech.tts,
      voices: options.voices,
      principal: options.principal,
      choice: () => {
        const id = this.session.audio.output.voice;
        return { key: id, resolve: async () => ({ id, selection: await options.voices.resolveVoice(options.principal, id) }) };
      },
      usage: { source: 'openai_realtime', session: options.sessionId },
      logger: options.logger,
    });
    this.time = new ConversationTime(options.meter, options.principal, options.sessionId, {
      checkMs: LIMIT_CHECK_MS,
      exceeded: (message) => this.limitReached(message),
      logger: options.logger,
    });
    this.expiry = setTimeout(() => this.expired(), SESSION_LIFETIME_MS);
    this.expiry.unref();
  }

  /** Announces the session (`session.created`), starts listening and counting the human's time. */
  async start(): Promise<void> {
    this.time.start();
    this.time.joined();
    this.options.send({ type: 'session.created', session: this.session });
    void this.speech.warmUp();
    await this.input.start(this.turnDetection());
  }

  /** Handles a client event after those before it. */
  receive(event: RealtimeClientEvent): Promise<void> {
    this.chain = this.chain.then(() => this.handle(event)).catch((error: unknown) => this.fail(error, event.event_id));
    return this.chain;
  }

  /** The human's audio from a WebRTC track (24 kHz PCM), as `input_audio_buffer.append` would give it. */
  appendAudio(pcm: Int16Array): void {
    if (!this.closed) this.input.append(pcm);
  }

  /** The event of a client that could not be read (not JSON, an unknown event or field). */
  refuse(error: RealtimeRequestError, eventId?: string): void {
    this.fail(error, eventId);
  }

  /** Ends the session: the response running is cancelled, the human's time recorded. */
  async close(reason: string): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.expiry);
    this.active?.controller.abort('client_cancelled' satisfies CancelReason);
    this.input.close();
    await this.time.finish(reason);
  }

  private async handle(event: RealtimeClientEvent): Promise<void> {
    if (this.closed) return;
    switch (event.type) {
      case 'session.update':
        return this.update(event.session);
      case 'input_audio_buffer.append':
        return this.append(event.audio);
      case 'input_audio_buffer.commit':
        return this.commit();
      case 'input_audio_buffer.clear':
        this.input.clear();
        return this.options.send({ type: 'input_audio_buffer.cleared' });
      case 'conversation.item.create':
        return this.addItem(await this.heardItem(event.item), event.previous_item_id);
      case 'conversation.item.retrieve':
        return this.options.send({ type: 'conversation.item.retrieved', item: this.item(event.item_id) });
      case 'conversation.item.delete':
        this.items.delete(event.item_id);
        return this.options.send({ type: 'conversation.item.deleted', item_id: event.item_id });
      case 'conversation.item.truncate':
        this.items.truncate(event.item_id, event.content_index, event.audio_end_ms);
        return this.options.send({
          type: 'conversation.item.truncated',
          item_id: event.item_id,
          content_index: event.content_index,
          audio_end_ms: event.audio_end_ms,
        });
      case 'response.create':
        return this.respond(event.response ?? {});
      case 'response.cancel':
        return this.cancel(event.response_id);
      case 'output_audio_buffer.clear':
        return this.clearOutput();
    }
  }

  /** WebRTC: the agent stops talking at once (the response is cancelled, what its track still held dropped). */
  private clearOutput(): void {
    if (!this.options.audioSink)
      throw new RealtimeRequestError(
        'output_audio_buffer.clear is for WebRTC connections; a websocket client drops the audio it has not played.',
        null,
        'not_supported',
      );
    this.options.audioSink.clear();
    this.active?.controller.abort('client_cancelled' satisfies CancelReason);
  }

  private async update(update: RealtimeSessionUpdate): Promise<void> {
    if (update.model !== undefined && update.model !== this.session.model) {
      await this.options.checkModel(update.model).catch((error: unknown) => {
        throw new RealtimeRequestError(error instanceof Error ? error.message : String(error), 'session.model', 'model_not_found');
      });
    }
    const voice = update.audio?.output?.voice;
    if (voice !== undefined && voice !== this.session.audio.output.voice) {
      await this.options.voices.resolveVoice(this.options.principal, voice).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new RealtimeRequestError(
          `Voice '${voice}' cannot be used: ${reason} (the platform's voice ids: GET /v1/voice/list).`,
          'session.audio.output.voice',
        );
      });
    }
    const detectionChanged = update.audio?.input?.turn_detection !== undefined;
    this.session = updatedSession(this.session, update);
    if (detectionChanged) await this.input.start(this.turnDetection());
    this.options.send({ type: 'session.updated', session: this.session });
  }

  private turnDetection(): TurnDetectionOptions | undefined {
    const detection = this.session.audio.input.turn_detection;
    return detection ? listenerTurnDetection(this.options.turnDetection, detection) : undefined;
  }

  private append(audio: string): void {
    this.input.append(clientPcm(audio, this.session.audio.input.format));
  }

  private async commit(): Promise<void> {
    const { itemId, transcript } = await this.input.commit();
    this.committed(itemId, transcript);
  }

  /** The human's audio became a user item (its words for the model), announced with its transcription. */
  private committed(itemId: string, transcript: string): void {
    const previous = this.items.lastId;
    this.options.send({ type: 'input_audio_buffer.committed', previous_item_id: previous, item_id: itemId });
    const item: RealtimeItem = {
      id: itemId,
      object: 'realtime.item',
      type: 'message',
      status: 'completed',
      role: 'user',
      content: [{ type: 'input_audio', transcript: this.session.audio.input.transcription ? transcript : null }],
    };
    this.items.add(item);
    this.options.send({ type: 'conversation.item.added', previous_item_id: previous, item });
    this.options.send({ type: 'conversation.item.done', previous_item_id: previous, item });
    // The model hears the words whether or not the client asked to see them.
    item.content = [{ type: 'input_audio', transcript }];
    if (this.session.audio.input.transcription) {
      this.options.send({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: itemId,
        content_index: 0,
        transcript,
        usage: { type: 'duration', seconds: 0 },
      });
    }
  }

  /** A client's item, the audio of its `input_audio` parts transcribed where it came without a transcript. */
  private async heardItem(input: RealtimeItemInput): Promise<RealtimeItem> {
    const item = storedItem(input);
    if (input.type !== 'message' || input.role !== 'user') return item;
    for (const [index, part] of input.content.entries()) {
      if (part.type !== 'input_audio' || !part.audio || part.transcript) continue;
      item.content![index]!.transcript = await this.input.transcribe([clientPcm(part.audio, this.session.audio.input.format)]);
    }
    return item;
  }

  private addItem(item: RealtimeItem, previousId: string | null | undefined): void {
    const previous = this.items.add(item, previousId);
    this.options.send({ type: 'conversation.item.added', previous_item_id: previous, item });
    this.options.send({ type: 'conversation.item.done', previous_item_id: previous, item });
  }

  private item(id: string): RealtimeItem {
    const item = this.items.get(id);
    if (!item) throw new RealtimeRequestError(`Item with item_id '${id}' not found.`, 'item_id', 'item_not_found');
    return item;
  }

  private respond(params: RealtimeResponseCreateParams): void {
    const conversation = (params.conversation ?? 'auto') === 'auto';
    if (conversation && this.active) {
      throw new RealtimeRequestError(
        `Conversation already has an active response in progress: ${this.active.response.id}. Wait until the response is finished before creating a new one.`,
        null,
        'conversation_already_has_active_response',
      );
    }
    const voice = params.audio?.output?.voice;
    if (voice !== undefined && voice !== this.session.audio.output.voice) {
      throw new RealtimeRequestError(
        'A response speaks with the session voice; change it with session.update.',
        'response.audio.output.voice',
        'not_supported',
      );
    }
    const instructions = params.instructions ?? this.session.instructions;
    let source = this.items;
    if (params.input) {
      source = new RealtimeItems();
      for (const input of params.input) source.add(storedItem(input));
    }
    const response = new RealtimeResponse(
      { ...this.options, tts: this.options.speech.tts, speech: this.speech, items: this.items },
      {
        id: responseId(),
        model: this.session.model,
        messages: source.messages(instructions),
        modalities: params.output_modalities ? [...params.output_modalities] : this.session.output_modalities,
        voice: this.session.audio.output.voice,
        format: params.audio?.output?.format ? sessionAudioFormat(params.audio.output.format) : this.session.audio.output.format,
        tools: params.tools ?? this.session.tools,
        toolChoice: params.tool_choice ?? this.session.tool_choice,
        maxOutputTokens: params.max_output_tokens ?? this.session.max_output_tokens,
        metadata: params.metadata ?? null,
        conversation,
      },
    );
    this.run(response, conversation);
  }

  private run(response: RealtimeResponse, conversation: boolean): void {
    const controller = new AbortController();
    if (conversation) this.active = { response, controller };
    void response
      .run(controller.signal)
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'a realtime response crashed'))
      .finally(() => {
        if (this.active?.response === response) this.active = undefined;
      });
  }

  private cancel(id: string | undefined): void {
    if (!this.active || (id !== undefined && id !== this.active.response.id)) {
      throw new RealtimeRequestError('Cancellation failed: no active response found.', null, 'response_cancel_not_active');
    }
    this.active.controller.abort('client_cancelled' satisfies CancelReason);
  }

  private speechStarted(itemId: string, audioStartMs: number): void {
    this.options.send({ type: 'input_audio_buffer.speech_started', audio_start_ms: audioStartMs, item_id: itemId });
    this.bargeIn();
  }

  /** The human speaks over the answer: it stops (unless the session says not to interrupt). */
  private bargeIn(): void {
    const detection = this.session.audio.input.turn_detection;
    if (this.active && detection && detection.interrupt_response !== false) this.active.controller.abort('turn_detected' satisfies CancelReason);
  }

  private heard(itemId: string, text: string, audioEndMs: number): void {
    if (this.closed) return;
    this.options.send({ type: 'input_audio_buffer.speech_stopped', audio_end_ms: audioEndMs, item_id: itemId });
    if (!text) return;
    this.committed(itemId, text);
    const detection = this.session.audio.input.turn_detection;
    if (detection?.create_response === false || this.active) return;
    try {
      this.respond({});
    } catch (error) {
      this.fail(error);
    }
  }

  private fail(error: unknown, eventId?: string): void {
    if (error instanceof RealtimeRequestError) return this.options.send({ type: 'error', error: error.detail(eventId) });
    this.options.logger.error({ err: error }, 'a realtime event failed');
    const message = error instanceof Error ? error.message : String(error);
    this.options.send({ type: 'error', error: { type: 'server_error', code: null, message, param: null, event_id: eventId ?? null } });
  }

  private limitReached(message: string): void {
    this.options.send({ type: 'error', error: { type: 'invalid_request_error', code: 'usage_limit_exceeded', message, param: null, event_id: null } });
    this.options.end('usage_limit_exceeded');
  }

  private expired(): void {
    const message = `Your session hit the maximum duration of ${SESSION_LIFETIME_MS / 60_000} minutes.`;
    this.options.send({ type: 'error', error: { type: 'invalid_request_error', code: 'session_expired', message, param: null, event_id: null } });
    this.options.end('session_expired');
  }
}
