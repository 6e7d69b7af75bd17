import type { EventEmitter } from 'eventemitter3';
import type { EngineStatus } from '../../engine-status.js';
import type { TranscriptWord } from '../stt-engine.js';

/** A recognised word placed on the stream's audio timeline (seconds from the first sample pushed). */
export interface TimedWord extends TranscriptWord {
  start: number;
  end: number;
}

/** What the vendor hears so far in the current stretch of speech; replaced by the next interim or final. */
export interface StreamingInterim {
  text: string;
  words: TimedWord[];
  /** The audio this result covers, in seconds on the stream's timeline. */
  start: number;
  end: number;
}

/** A settled transcript of a stretch of audio; the words it covers do not change any more. */
export interface StreamingFinal extends StreamingInterim {
  /**
   * The vendor's endpointing hint: the speaker paused long enough for the vendor to call the utterance over
   * (Deepgram's `speech_final`; every OpenAI `completed` transcript, its server VAD having committed the turn).
   * False for a final that only settles a segment of ongoing speech, or that `finalize()` forced.
   */
  endOfSpeech: boolean;
  /** Forced by `finalize()` (Deepgram's `from_finalize`, an OpenAI manual commit). */
  fromFinalize: boolean;
}

/** Why a stream failed. `fatal` errors end the stream (`closed` follows); others are reported and the stream goes on. */
export type StreamingSttErrorCode = 'unauthorized' | 'rejected' | 'unreachable' | 'vendor' | 'protocol';

export class StreamingSttError extends Error {
  override name = 'StreamingSttError';
  constructor(
    message: string,
    readonly code: StreamingSttErrorCode,
    readonly fatal: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Why a stream ended and how much audio it sent (what the vendor bills). */
export interface StreamingSttClosed {
  /** Seconds of audio written to the vendor over every connection of the stream. */
  audioSeconds: number;
  /** Set when the stream ended on a fatal error rather than `close()`/`abort()`. */
  error?: StreamingSttError;
}

export interface StreamingSttEvents {
  interim: (result: StreamingInterim) => void;
  final: (result: StreamingFinal) => void;
  /** The vendor's VAD heard speech begin (`at`: seconds on the stream's timeline). */
  speech_started: (event: { at: number }) => void;
  /** The vendor saw a gap after the last word (Deepgram's `UtteranceEnd`, OpenAI's `speech_stopped`). */
  utterance_end: (event: { lastWordEnd?: number }) => void;
  /** The connection dropped; the stream buffers audio and connects again after `delayMs`. */
  reconnecting: (event: { attempt: number; delayMs: number; cause: Error }) => void;
  /** Connected again; buffered audio has been sent. */
  reconnected: (event: { attempt: number }) => void;
  error: (error: StreamingSttError) => void;
  closed: (event: StreamingSttClosed) => void;
}

/**
 * One long-lived recognition stream (a session of the speaker, not an utterance): both vendors keep one websocket
 * open and find the utterances themselves. Push PCM16 mono frames at `inputSampleRate` as they arrive (the stream
 * resamples to the vendor's rate); results come as events on the stream's audio timeline.
 *
 * @example
 * const stream = engine.open({ sampleRate: 16000 });
 * stream.on('final', (result) => result.endOfSpeech && answer(result.text));
 * for await (const frame of microphone) stream.push(frame);
 * await stream.close();
 */
export interface StreamingSttStream extends EventEmitter<StreamingSttEvents> {
  /** The rate of the frames `push` takes. */
  readonly inputSampleRate: number;
  /** The rate sent to the vendor. */
  readonly vendorSampleRate: number;
  /** Seconds of audio written to the vendor so far. */
  readonly audioSeconds: number;
  push(pcm: Int16Array): void;
  /** Asks the vendor to settle what it has heard now (a final with `fromFinalize`), without ending the stream. */
  finalize(): void;
  /** Flushes (the vendor's last finals arrive first, bounded by a timeout), closes, and reports `closed`. */
  close(): Promise<void>;
  /** Drops the connection at once; no further events but `closed`. */
  abort(): void;
}

export interface StreamingSttOptions {
  /** Rate of the PCM16 frames that will be pushed. */
  sampleRate: number;
  /** BCP 47 language hint. */
  language?: string;
  /** Aborts the stream (as `abort()`). */
  signal?: AbortSignal;
  /** Called once when the stream ends, with the audio it sent (per-stream metering, e.g. the session's principal). */
  meter?: StreamingSttMeter;
}

/** The audio one stream sent to a hosted vendor, reported once when the stream ends. */
export interface StreamingSttUsage {
  provider: string;
  model: string;
  audioSeconds: number;
}
export type StreamingSttMeter = (usage: StreamingSttUsage) => void;

/**
 * A hosted streaming speech-to-text service (`deepgram`, `openai-realtime`). Unlike {@link SttEngine}, whose
 * caller ends each utterance, the vendor finds the utterances: results carry its endpointing hint.
 *
 * @example
 * const engine = createStreamingStt({ provider: 'deepgram', apiKey, model: 'nova-3' });
 * const stream = engine.open({ sampleRate: 48000 });
 */
export interface StreamingSttEngine {
  /** `deepgram` or `openai-realtime`. */
  readonly provider: string;
  readonly model: string;
  status(): Promise<EngineStatus>;
  open(options: StreamingSttOptions): StreamingSttStream;
  /** Aborts the streams still open. */
  close(): Promise<void>;
}
