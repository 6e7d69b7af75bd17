import { pcmToBytes } from '../../../codecs/pcm.js';
import type { EngineStatus } from '../../../engine-status.js';
import { StreamingSttError, type StreamingSttEngine, type StreamingSttOptions, type StreamingSttStream, type TimedWord } from '../streaming-stt.js';
import { OpenVendorStreams, VendorSocketStream, vendorSocketSettings, type VendorSocketOptions, type VendorSocketSettings } from '../vendor-socket-stream.js';
import { DEEPGRAM_CLOSE, type DeepgramControlMessage, type DeepgramResults, type DeepgramServerMessage } from './deepgram-messages.js';

export const DEEPGRAM_LIVE_URL = 'wss://api.deepgram.com/v1/listen';

/** Deepgram closes a stream after 10 s without data: its `KeepAlive` goes out after `keepAliveMs` (4 s) without audio. */
export interface DeepgramLiveOptions extends VendorSocketOptions {
  apiKey: string;
  /** `wss://api.deepgram.com/v1/listen` by default (ws:// for a local server). */
  url?: string | undefined;
  model?: string | undefined;
  /** Silence (ms) after which Deepgram marks a final `speech_final`; false turns endpointing off. Default 300. */
  endpointingMs?: number | false | undefined;
  /** Gap (ms, >= 1000) after the last word for an `UtteranceEnd`; off when unset. */
  utteranceEndMs?: number | undefined;
  smartFormat?: boolean | undefined;
  language?: string | undefined;
}

/**
 * Deepgram's live transcription (`/v1/listen` websocket, `Authorization: Token <key>`): linear16 audio at the
 * caller's rate, interim results, endpointing (`speech_final`), VAD events and `Finalize`/`CloseStream`.
 *
 * @example
 * const engine = new DeepgramLiveStt({ apiKey: process.env.DEEPGRAM_API_KEY!, model: 'nova-3' });
 * const stream = engine.open({ sampleRate: 16000 });
 */
export class DeepgramLiveStt implements StreamingSttEngine {
  readonly provider = 'deepgram';
  readonly model: string;
  private readonly streams = new OpenVendorStreams();

  constructor(private readonly options: DeepgramLiveOptions) {
    this.model = options.model ?? 'nova-3';
  }

  async status(): Promise<EngineStatus> {
    return this.options.apiKey ? { available: true } : { available: false, reason: 'Deepgram needs an API key' };
  }

  open(options: StreamingSttOptions): StreamingSttStream {
    const settings = vendorSocketSettings(
      { provider: this.provider, model: this.model, vendor: 'Deepgram', vendorSampleRate: options.sampleRate, keepAliveMs: 4000, closeTimeoutMs: 3000 },
      this.options,
    );
    return this.streams.track(new DeepgramLiveStream(settings, options, this.options, this.model));
  }

  async close(): Promise<void> {
    this.streams.abortAll();
  }
}

class DeepgramLiveStream extends VendorSocketStream {
  constructor(
    settings: VendorSocketSettings,
    options: StreamingSttOptions,
    private readonly deepgram: DeepgramLiveOptions,
    private readonly model: string,
  ) {
    super(settings, options);
  }

  protected url(): string {
    const url = new URL(this.deepgram.url ?? DEEPGRAM_LIVE_URL);
    const endpointing = this.deepgram.endpointingMs ?? 300;
    const query: Record<string, string> = {
      model: this.model,
      encoding: 'linear16',
      sample_rate: String(this.vendorSampleRate),
      channels: '1',
      interim_results: 'true',
      endpointing: endpointing === false ? 'false' : String(endpointing),
      vad_events: 'true',
      smart_format: String(this.deepgram.smartFormat ?? true),
    };
    if (this.deepgram.utteranceEndMs !== undefined) query.utterance_end_ms = String(this.deepgram.utteranceEndMs);
    const language = this.options.language ?? this.deepgram.language;
    if (language) query.language = language;
    for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
    return url.toString();
  }

  protected headers(): Record<string, string> {
    return { authorization: `Token ${this.deepgram.apiKey}` };
  }

  protected opened(): void {}

  protected resetConnection(): void {}

  protected audioMessage(pcm: Int16Array): Uint8Array {
    return pcmToBytes(pcm);
  }

  protected sendKeepAlive(): void {
    this.control({ type: 'KeepAlive' });
  }

  protected requestFinalize(): void {
    this.control({ type: 'Finalize' });
  }

  /** Deepgram sends what is pending and its `Metadata`, then closes the socket itself. */
  protected beginClose(): void {
    this.control({ type: 'CloseStream' });
  }

  protected fatalClose(code: number, reason: string): StreamingSttError | undefined {
    if (code === DEEPGRAM_CLOSE.dataError || code === DEEPGRAM_CLOSE.legacyDataError) {
      return new StreamingSttError(`Deepgram could not decode the audio (${code} ${reason})`, 'rejected', true);
    }
    return undefined;
  }

  protected received(text: string): void {
    let message: DeepgramServerMessage;
    try {
      message = JSON.parse(text) as DeepgramServerMessage;
    } catch (error) {
      this.report(new StreamingSttError(`Deepgram sent a message that is not JSON: ${text.slice(0, 80)}`, 'protocol', false, { cause: error }));
      return;
    }
    const offset = this.timelineOffset;
    switch (message.type) {
      case 'Results':
        this.results(message);
        break;
      case 'SpeechStarted':
        this.emit('speech_started', { at: round(message.timestamp + offset) });
        break;
      case 'UtteranceEnd':
        this.emit('utterance_end', { lastWordEnd: round(message.last_word_end + offset) });
        break;
      case 'Metadata':
        break;
      case 'Error':
        this.report(new StreamingSttError(`Deepgram: ${message.description ?? message.message ?? 'error'}`, 'vendor', false));
        break;
      default:
        break;
    }
  }

  private results(message: DeepgramResults): void {
    const alternative = message.channel?.alternatives?.[0];
    if (!alternative) return;
    const offset = this.timelineOffset;
    const words: TimedWord[] = (alternative.words ?? []).map((word) => ({
      word: word.word,
      start: round(word.start + offset),
      end: round(word.end + offset),
      confidence: word.confidence,
    }));
    const result = { text: alternative.transcript, words, start: round(message.start + offset), end: round(message.start + message.duration + offset) };
    if (message.is_final) this.emit('final', { ...result, endOfSpeech: message.speech_final === true, fromFinalize: message.from_finalize === true });
    else this.emit('interim', result);
  }

  private control(message: DeepgramControlMessage): void {
    this.send(JSON.stringify(message));
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
