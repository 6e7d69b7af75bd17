import { pcmToBase64 } from '../../../codecs/pcm.js';
import type { EngineStatus } from '../../../engine-status.js';
import { estimateWordTimings, wordConfidences, type TokenLogprob } from '../estimated-word-timings.js';
import { StreamingSttError, type StreamingSttEngine, type StreamingSttOptions, type StreamingSttStream } from '../streaming-stt.js';
import { OpenVendorStreams, VendorSocketStream, vendorSocketSettings, type VendorSocketOptions, type VendorSocketSettings } from '../vendor-socket-stream.js';
import {
  REALTIME_INVALID_KEY_CLOSE,
  REALTIME_SAMPLE_RATE,
  type RealtimeClientEvent,
  type RealtimeServerEvent,
  type TranscriptionSessionConfig,
} from './openai-realtime-messages.js';

export const OPENAI_REALTIME_TRANSCRIPTION_URL = 'wss://api.openai.com/v1/realtime?intent=transcription';

export interface OpenAiRealtimeVad {
  threshold?: number | undefined;
  prefixPaddingMs?: number | undefined;
  silenceDurationMs?: number | undefined;
}

/** A websocket ping is the keepalive: it goes out after `keepAliveMs` (15 s) without audio. */
export interface OpenAiRealtimeTranscriptionOptions extends VendorSocketOptions {
  apiKey: string;
  /** `wss://api.openai.com/v1/realtime?intent=transcription` by default (ws:// for a local server). */
  url?: string | undefined;
  model?: string | undefined;
  language?: string | undefined;
  prompt?: string | undefined;
  /** The server VAD that cuts utterances; null leaves committing to `finalize()`. */
  turnDetection?: OpenAiRealtimeVad | null | undefined;
  noiseReduction?: 'near_field' | 'far_field' | null | undefined;
}

/**
 * OpenAI's realtime transcription (`/v1/realtime?intent=transcription`, `Authorization: Bearer`, beta protocol):
 * PCM16 at 24 kHz as base64 `input_audio_buffer.append` events, the server VAD committing utterances, transcripts
 * as `delta`s (interim) and `completed` (final, the end of speech). The protocol has no word times: words are
 * placed over the speech the server VAD reported, with confidences from the token log probabilities.
 *
 * @example
 * const engine = new OpenAiRealtimeTranscription({ apiKey: process.env.OPENAI_API_KEY!, model: 'gpt-4o-transcribe' });
 * const stream = engine.open({ sampleRate: 48000 }); // resampled to 24 kHz
 */
export class OpenAiRealtimeTranscription implements StreamingSttEngine {
  readonly provider = 'openai-realtime';
  readonly model: string;
  private readonly streams = new OpenVendorStreams();

  constructor(private readonly options: OpenAiRealtimeTranscriptionOptions) {
    this.model = options.model ?? 'gpt-4o-transcribe';
  }

  async status(): Promise<EngineStatus> {
    return this.options.apiKey ? { available: true } : { available: false, reason: 'OpenAI realtime transcription needs an API key' };
  }

  open(options: StreamingSttOptions): StreamingSttStream {
    const settings = vendorSocketSettings(
      {
        provider: this.provider,
        model: this.model,
        vendor: 'OpenAI realtime',
        vendorSampleRate: REALTIME_SAMPLE_RATE,
        keepAliveMs: 15_000,
        closeTimeoutMs: 5000,
      },
      this.options,
    );
    return this.streams.track(new OpenAiRealtimeStream(settings, options, this.options, this.model));
  }

  async close(): Promise<void> {
    this.streams.abortAll();
  }
}

/** An utterance the server knows as a conversation item, from speech start (or a commit) to its transcript. */
interface PendingItem {
  start: number;
  end?: number;
  text: string;
  logprobs: TokenLogprob[];
  fromFinalize: boolean;
}

class OpenAiRealtimeStream extends VendorSocketStream {
  private readonly items = new Map<string, PendingItem>();
  private commitsRequested = 0;
  private refusedKey: string | undefined;
  /** Stream position of the first audio not yet committed (manual commits cover the audio since). */
  private uncommittedFrom = 0;

  constructor(
    settings: VendorSocketSettings,
    options: StreamingSttOptions,
    private readonly openai: OpenAiRealtimeTranscriptionOptions,
    private readonly model: string,
  ) {
    super(settings, options);
  }

  private get vad(): Required<OpenAiRealtimeVad> | null {
    if (this.openai.turnDetection === null) return null;
    const vad = this.openai.turnDetection ?? {};
    return { threshold: vad.threshold ?? 0.5, prefixPaddingMs: vad.prefixPaddingMs ?? 300, silenceDurationMs: vad.silenceDurationMs ?? 500 };
  }

  protected url(): string {
    return this.openai.url ?? OPENAI_REALTIME_TRANSCRIPTION_URL;
  }

  protected headers(): Record<string, string> {
    return { authorization: `Bearer ${this.openai.apiKey}`, 'openai-beta': 'realtime=v1' };
  }

  protected resetConnection(): void {
    this.items.clear();
    this.commitsRequested = 0;
    this.refusedKey = undefined;
  }

  protected opened(): void {
    this.uncommittedFrom = this.timelineOffset;
    const vad = this.vad;
    const language = this.options.language ?? this.openai.language;
    const session: TranscriptionSessionConfig = {
      input_audio_format: 'pcm16',
      input_audio_transcription: {
        model: this.model,
        ...(language ? { language: language.split('-')[0]! } : {}),
        ...(this.openai.prompt ? { prompt: this.openai.prompt } : {}),
      },
      turn_detection: vad
        ? { type: 'server_vad', threshold: vad.threshold, prefix_padding_ms: vad.prefixPaddingMs, silence_duration_ms: vad.silenceDurationMs }
        : null,
      include: ['item.input_audio_transcription.logprobs'],
    };
    if (this.openai.noiseReduction !== undefined)
      session.input_audio_noise_reduction = this.openai.noiseReduction ? { type: this.openai.noiseReduction } : null;
    this.event({ type: 'transcription_session.update', session });
  }

  protected audioMessage(pcm: Int16Array): string {
    return JSON.stringify({ type: 'input_audio_buffer.append', audio: pcmToBase64(pcm) } satisfies RealtimeClientEvent);
  }

  protected sendKeepAlive(): void {
    this.ping();
  }

  protected requestFinalize(): void {
    this.commitsRequested += 1;
    this.event({ type: 'input_audio_buffer.commit' });
  }

  /** Commits speech still open so its transcript arrives, then closes once nothing is pending. */
  protected beginClose(): void {
    const open = [...this.items.values()].some((item) => item.end === undefined);
    const uncommittedAudio = this.vad === null && this.streamPosition > this.uncommittedFrom;
    if (open || uncommittedAudio) this.requestFinalize();
    this.closeWhenSettled();
  }

  protected fatalClose(code: number, reason: string): StreamingSttError | undefined {
    if (this.refusedKey !== undefined || (code === REALTIME_INVALID_KEY_CLOSE.code && reason.includes('invalid_api_key'))) {
      return new StreamingSttError(`OpenAI realtime refused the API key: ${this.refusedKey ?? reason} (check the API key)`, 'unauthorized', true);
    }
    if (code === REALTIME_INVALID_KEY_CLOSE.code && reason.startsWith('invalid_request_error')) {
      return new StreamingSttError(`OpenAI realtime rejected the session (${code} ${reason})`, 'rejected', true);
    }
    return undefined;
  }

  protected received(text: string): void {
    let event: RealtimeServerEvent;
    try {
      event = JSON.parse(text) as RealtimeServerEvent;
    } catch (error) {
      this.report(new StreamingSttError(`OpenAI realtime sent a message that is not JSON: ${text.slice(0, 80)}`, 'protocol', false, { cause: error }));
      return;
    }
    const offset = this.timelineOffset;
    const vad = this.vad;
    switch (event.type) {
      case 'input_audio_buffer.speech_started': {
        // audio_start_ms includes the prefix padding the server prepends to the item.
        const at = round(offset + (event.audio_start_ms + (vad?.prefixPaddingMs ?? 0)) / 1000);
        this.items.set(event.item_id, { start: at, text: '', logprobs: [], fromFinalize: false });
        this.emit('speech_started', { at });
        break;
      }
      case 'input_audio_buffer.speech_stopped': {
        // audio_end_ms includes the silence that ended the turn.
        const item = this.itemOf(event.item_id);
        item.end = round(Math.max(item.start, offset + (event.audio_end_ms - (vad?.silenceDurationMs ?? 0)) / 1000));
        this.emit('utterance_end', { lastWordEnd: item.end });
        break;
      }
      case 'input_audio_buffer.committed': {
        const item = this.itemOf(event.item_id);
        item.end ??= round(this.streamPosition);
        this.uncommittedFrom = this.streamPosition;
        if (this.commitsRequested > 0) {
          this.commitsRequested -= 1;
          item.fromFinalize = true;
        }
        break;
      }
      case 'conversation.item.input_audio_transcription.delta': {
        const item = this.itemOf(event.item_id);
        item.text += event.delta;
        if (event.logprobs) item.logprobs.push(...event.logprobs);
        const end = item.end ?? round(this.streamPosition);
        this.emit('interim', { text: item.text.trim(), words: this.words(item.text, item, end), start: item.start, end });
        break;
      }
      case 'conversation.item.input_audio_transcription.completed': {
        const item = this.itemOf(event.item_id);
        this.items.delete(event.item_id);
        if (event.logprobs) item.logprobs = event.logprobs;
        const end = item.end ?? round(this.streamPosition);
        this.emit('final', {
          text: event.transcript.trim(),
          words: this.words(event.transcript, item, end),
          start: item.start,
          end,
          endOfSpeech: !item.fromFinalize,
          fromFinalize: item.fromFinalize,
        });
        this.closeWhenSettled();
        break;
      }
      case 'conversation.item.input_audio_transcription.failed':
        this.items.delete(event.item_id);
        this.report(new StreamingSttError(`OpenAI realtime could not transcribe an utterance: ${event.error?.message ?? 'unknown error'}`, 'vendor', false));
        this.closeWhenSettled();
        break;
      case 'error': {
        const { code, message } = event.error;
        if (code === 'invalid_api_key') {
          this.refusedKey = message;
          break;
        }
        if (code === 'input_audio_buffer_commit_empty' && this.commitsRequested > 0) this.commitsRequested -= 1;
        this.report(new StreamingSttError(`OpenAI realtime: ${message}${code ? ` (${code})` : ''}`, 'vendor', false));
        this.closeWhenSettled();
        break;
      }
      default:
        break;
    }
  }

  private itemOf(itemId: string): PendingItem {
    let item = this.items.get(itemId);
    if (!item) {
      item = { start: round(this.uncommittedFrom), text: '', logprobs: [], fromFinalize: false };
      this.items.set(itemId, item);
    }
    return item;
  }

  /** `text` as the server spelled it (leading space included), so token offsets line up with its characters. */
  private words(text: string, item: PendingItem, end: number) {
    return estimateWordTimings(text, item.start, end, wordConfidences(text, item.logprobs));
  }

  private closeWhenSettled(): void {
    if (this.closing && this.items.size === 0 && this.commitsRequested === 0) this.closeSocket();
  }

  private event(event: RealtimeClientEvent): void {
    this.send(JSON.stringify(event));
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
