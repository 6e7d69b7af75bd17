import { EventEmitter } from 'eventemitter3';
import { AsyncQueue } from '../../../kernel/async-queue.js';
import type { EngineStatus } from '../engine-status.js';

/** A word of a final transcript and how sure the recogniser is of it. */
export interface TranscriptWord {
  word: string;
  /** The recogniser's posterior probability of the word, 0..1. */
  confidence: number;
}

/** A transcript of the current utterance: `interim` while audio arrives, `final` once it ends. */
export interface TranscriptEvent {
  type: 'interim' | 'final';
  text: string;
  /** For `final`, from engines that can tell: its words with their confidence. */
  words?: TranscriptWord[];
  /** 0-based index of the utterance within the session. */
  utterance: number;
  /** For `final`: milliseconds from `finish()` to the final text. */
  latencyMs?: number;
}

export interface SttSessionOptions {
  /** Rate of the PCM16 frames that will be pushed (resampled as the engine needs). */
  sampleRate: number;
  /** BCP 47 language hint; engines with a single model ignore it. */
  language?: string;
  /**
   * The speech came through a telephone channel (G.711, 300-3400 Hz: a SIP caller): engines with a model adapted to
   * it use it (pocketsphinx with `phoneAdaptation`: `PHONE_MLLR_MATRIX`, decision 0124), the others ignore it.
   */
  narrowband?: boolean;
  signal?: AbortSignal;
}

export interface SttSessionEvents {
  transcript: (event: TranscriptEvent) => void;
  error: (error: Error) => void;
}

/**
 * A stream of speech for one speaker. Push PCM frames as they arrive; call `finish()` at the end of
 * an utterance (e.g. when the VAD reports end of speech) to get its final text; pushing again starts
 * the next utterance. Transcripts are also emitted as `transcript` events and through `events()`.
 *
 * @example
 * const session = stt.createSession({ sampleRate: 16000 });
 * session.on('transcript', (event) => console.log(event.type, event.text));
 * for (const frame of frames) session.push(frame);
 * const text = await session.finish();
 */
export interface SttSession extends EventEmitter<SttSessionEvents> {
  push(pcm: Int16Array): void;
  /**
   * The hypothesis of the current utterance now, without ending it (engines that stream); undefined when the
   * engine cannot tell before the final.
   */
  peek?(): Promise<string>;
  finish(): Promise<string>;
  /** Abandons the current utterance and releases the engine. */
  close(): void;
  events(): AsyncIterable<TranscriptEvent>;
}

/**
 * A speech-to-text engine.
 *
 * @example
 * if ((await stt.status()).available) session = stt.createSession({ sampleRate: 48000 });
 */
export interface SttEngine {
  /** `pocketsphinx`, `openai` or `none`. */
  readonly provider: string;
  status(): Promise<EngineStatus>;
  createSession(options: SttSessionOptions): SttSession;
  /** Loads what the first utterance needs (`narrowband`: what a phone caller's do). */
  warmUp?(options?: { narrowband?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** Event plumbing shared by the STT sessions. */
export abstract class BaseSttSession extends EventEmitter<SttSessionEvents> implements SttSession {
  protected utterance = 0;
  protected closed = false;

  abstract push(pcm: Int16Array): void;
  abstract finish(): Promise<string>;
  abstract close(): void;

  events(): AsyncIterable<TranscriptEvent> {
    const queue = new AsyncQueue<TranscriptEvent>();
    const onTranscript = (event: TranscriptEvent) => queue.push(event);
    const onError = (error: Error) => queue.fail(error);
    this.on('transcript', onTranscript);
    this.on('error', onError);
    const detach = () => {
      this.off('transcript', onTranscript);
      this.off('error', onError);
    };
    return {
      [Symbol.asyncIterator]: () => {
        const iterator = queue[Symbol.asyncIterator]();
        return {
          next: () => (this.closed && queue.size === 0 ? (detach(), iterator.return!()) : iterator.next()),
          return: () => (detach(), iterator.return!()),
        };
      },
    };
  }
}
