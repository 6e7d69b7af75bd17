import type { Logger } from 'pino';
import type { SDKSessionTranscription } from '../../../contract/sdk.js';
import type { AgentRoomConnection, RoomParticipant } from '../../engines/media/index.js';
import { newId } from '../../store/ids.js';
import {
  MESSAGE_TOPIC,
  SEGMENT_ID_ATTRIBUTE,
  TRANSCRIBED_TRACK_ATTRIBUTE,
  TRANSCRIPTION_FINAL_ATTRIBUTE,
  TRANSCRIPTION_STREAM_TOPIC,
} from '../../../contract/wire.js';

type SDKToolCall = NonNullable<SDKSessionTranscription['tool_calls']>[number];

/** Text stream attributes of the LiveKit transcription convention. */

export interface TranscriptOptions {
  /** true for the agent's own speech. */
  agent: boolean;
  /**
   * Whose words they are: the human's identity (their transcription is published as theirs, as LiveKit agents do,
   * so every client attributes it to them), or undefined for the agent's own.
   */
  speaker?: string | undefined;
  /** The audio track the words were (or are being) spoken on. */
  trackSid?: string | undefined;
  /**
   * Who gets the human's words as a legacy `Transcription` packet too (participant = the speaker, track = their
   * microphone: what `useTrackTranscription` reads): only clients known to take one (see {@link legacyTranscriptionReaders}).
   */
  legacyReaders?: string[] | undefined;
  /** When the utterance started (default now). */
  createdAt?: Date;
}

/**
 * One utterance's transcription as the room sees it: every `update` re-sends the whole text with the same
 * id on the `message` topic (the client upserts by id and `agent`), as a complete `lk.transcription`
 * text stream with the same `lk.segment_id` (LiveKit's non-delta mode, which its components merge by
 * segment) sent as the speaker's (the human's words as the human's), and as a legacy `Transcription` packet for
 * older LiveKit clients (the agent's own speech to all, the human's to the `legacyReaders`). `finish` marks it final, with `speaking_ended_at` (and
 * `interrupted: true` on `message` when the speech was cut). Sends happen in order, one at a time; updates after
 * `finish` are ignored.
 */
export class UtteranceTranscript {
  readonly id = newId('utterance');
  readonly createdAt: string;
  private text = '';
  private finished = false;
  private chain: Promise<void> = Promise.resolve();
  private sentAny = false;
  private toolCalls: SDKToolCall[] = [];

  constructor(
    private readonly connection: Pick<AgentRoomConnection, 'sendData' | 'sendText' | 'sendTranscription' | 'identity'>,
    private readonly options: TranscriptOptions,
    private readonly logger: Logger,
  ) {
    this.createdAt = (options.createdAt ?? new Date()).toISOString();
  }

  get currentText(): string {
    return this.text;
  }

  get isFinished(): boolean {
    return this.finished;
  }

  /** Whether tool calls were added. */
  get hasToolCalls(): boolean {
    return this.toolCalls.length > 0;
  }

  /** Whether anything was sent yet. */
  get started(): boolean {
    return this.sentAny;
  }

  /** Sends the text so far (unchanged text is not re-sent). */
  update(text: string): Promise<void> {
    if (this.finished || (text === this.text && this.sentAny)) return this.chain;
    this.text = text;
    return this.send({ final: false, endedAt: null });
  }

  /**
   * Adds tool calls the agent made in this utterance (`tool_calls` of the transcription); `send` re-sends
   * the transcription now, otherwise they go with the next update or the final one.
   */
  addToolCalls(calls: readonly SDKToolCall[], send = true): Promise<void> {
    if (this.finished || calls.length === 0) return this.chain;
    this.toolCalls = [...this.toolCalls, ...calls];
    return send ? this.send({ final: false, endedAt: null }) : this.chain;
  }

  /** Sends the final text with the time speaking ended; `interrupted` when the speech was cut before its end. */
  finish(text: string, endedAt: Date = new Date(), interrupted = false): Promise<void> {
    if (this.finished) return this.chain;
    this.finished = true;
    this.text = text;
    return this.send({ final: true, endedAt: endedAt.toISOString(), interrupted });
  }

  /** Resolves once every update so far was sent. */
  settled(): Promise<void> {
    return this.chain;
  }

  private send(state: { final: boolean; endedAt: string | null; interrupted?: boolean }): Promise<void> {
    this.sentAny = true;
    const transcription: SDKSessionTranscription = {
      id: this.id,
      agent: this.options.agent,
      final: state.final,
      created_at: this.createdAt,
      speaking_ended_at: state.endedAt,
      text: this.text,
      ...(this.toolCalls.length > 0 ? { tool_calls: this.toolCalls } : {}),
      ...(state.interrupted ? { interrupted: true } : {}),
    };
    const attributes: Record<string, string> = {
      [SEGMENT_ID_ATTRIBUTE]: this.id,
      [TRANSCRIPTION_FINAL_ATTRIBUTE]: String(state.final),
      ...(this.options.trackSid ? { [TRANSCRIBED_TRACK_ATTRIBUTE]: this.options.trackSid } : {}),
    };
    const text = this.text;
    const speaker = this.options.agent ? undefined : this.options.speaker;
    const legacy = {
      participantIdentity: speaker ?? this.connection.identity,
      trackSid: this.options.trackSid ?? '',
      segments: [
        {
          id: this.id,
          text,
          final: state.final,
          language: 'en',
          startTimeMs: Date.parse(this.createdAt),
          endTimeMs: state.endedAt ? Date.parse(state.endedAt) : Date.now(),
        },
      ],
    };
    this.chain = this.chain.then(async () => {
      try {
        await this.connection.sendData(JSON.stringify(transcription), { topic: MESSAGE_TOPIC, reliable: true });
        await this.connection.sendText(text, { topic: TRANSCRIPTION_STREAM_TOPIC, attributes, ...(speaker ? { senderIdentity: speaker } : {}) });
        // Legacy packets for the agent's own speech (what `agentTranscriptions` reads) to everyone, for the human's
        // only to the readers named: LiveKit's Rust SDK (rtc-node) panics on a legacy packet whose participant is
        // itself or whose track it cannot find.
        if (legacy.trackSid === '') return;
        if (this.options.agent) await this.connection.sendTranscription(legacy);
        else if (speaker && this.options.legacyReaders?.length) {
          await this.connection.sendTranscription({ ...legacy, destinationIdentities: this.options.legacyReaders });
        }
      } catch (error) {
        this.logger.debug({ err: error, utterance: this.id }, 'could not send a transcription');
      }
    });
    return this.chain;
  }
}

/**
 * Who may be sent a legacy `Transcription` packet of `speaker`'s words: the speaker themself when they joined with
 * livekit-client (`js`), which attributes a packet naming its own identity to its local track (`useTrackTranscription`
 * on the microphone). Nobody else: an rtc-node client panics on one naming itself, and an unknown SDK may be one.
 */
export function legacyTranscriptionReaders(speaker: Pick<RoomParticipant, 'identity' | 'clientSdk'>): string[] {
  return speaker.clientSdk === 'js' ? [speaker.identity] : [];
}
