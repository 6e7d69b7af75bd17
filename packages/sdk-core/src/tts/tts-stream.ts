import { EventEmitter } from 'eventemitter3';
import { AbortError, type ConnectionError } from '../errors/transport-errors.js';
import type { TtsStreamError } from './tts-stream-error.js';

/** A piece of synthesized speech: 16-bit mono PCM samples (24 kHz from the platform). */
export interface TtsAudioChunk {
  pcm: Int16Array;
  sampleRate: number;
  channels: number;
}

/** Why a stream failed: the service's `error` message, the socket dropping, or an abort. */
export type TtsStreamFailure = TtsStreamError | ConnectionError | AbortError;

export interface TtsStreamEvents {
  audio: (chunk: TtsAudioChunk) => void;
  /** Every audio chunk of the stream was delivered. */
  final: () => void;
  error: (error: TtsStreamFailure) => void;
}

/** What a stream needs from the shared socket. */
export interface TtsStreamChannel {
  sendText(session: string, text: string): void;
  sendEnd(session: string): void;
  /** The stream is finished (final, error or abort): forget it. */
  release(session: string): void;
  /** Called when the stream's unread audio crosses the buffering bounds (to pause or resume the socket). */
  backlogChanged(): void;
}

/** Unread chunks above which the socket is paused (Node), ~10 s of audio in 200 ms messages. */
export const STREAM_BACKLOG_HIGH_WATER = 50;

/**
 * One synthesis stream on a shared TTS socket. Push text as it arrives (LLM tokens are fine), `end()` when
 * done; audio comes back as an async iterable and as `audio` events, then `final`. Audio is buffered for
 * the iterator unless the stream has `audio` listeners and was never iterated (event-only use keeps no copy).
 *
 * @example
 * const stream = tts.stream({ voice: 'flite-slt' });
 * stream.push('Hello there. ').push('How are you?').end();
 * for await (const chunk of stream) player.write(chunk.pcm, chunk.sampleRate);
 */
export class TtsStream extends EventEmitter<TtsStreamEvents> implements AsyncIterable<TtsAudioChunk> {
  /** Resolves after `final`; rejects with the stream's failure. */
  readonly finished: Promise<void>;
  private readonly chunks: TtsAudioChunk[] = [];
  private waiting: { resolve: (result: IteratorResult<TtsAudioChunk>) => void; reject: (error: Error) => void } | undefined;
  private iterated = false;
  private ended = false;
  private outcome: { done: true } | { error: TtsStreamFailure } | undefined;
  private settle!: { resolve: () => void; reject: (error: Error) => void };

  constructor(
    readonly session: string,
    readonly voice: string,
    private readonly channel: TtsStreamChannel,
    signal?: AbortSignal,
  ) {
    super();
    this.finished = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
    // Rejections surface through iteration or events too; an unobserved `finished` must not crash Node.
    this.finished.catch(() => undefined);
    if (signal?.aborted) queueMicrotask(() => this.abort(signal.reason));
    else signal?.addEventListener('abort', () => this.abort(signal.reason), { once: true });
  }

  /** Unread chunks buffered for the iterator. */
  get backlog(): number {
    return this.chunks.length;
  }

  get isSettled(): boolean {
    return this.outcome !== undefined;
  }

  /** Sends more text; it is spoken as soon as a clause is complete. */
  push(text: string): this {
    if (this.ended) throw new Error('push() after end(): the stream takes no more text');
    if (this.outcome) return this;
    if (text !== '') this.channel.sendText(this.session, text);
    return this;
  }

  /** No more text: the rest is spoken, then `final`. */
  end(): this {
    if (this.ended || this.outcome) return this;
    this.ended = true;
    this.channel.sendEnd(this.session);
    return this;
  }

  /**
   * Stops listening: the stream fails with an {@link AbortError} and later audio is dropped. The protocol has
   * no cancel message, so the service is sent `eos` and stops once its queued text is spoken.
   */
  abort(reason?: unknown): void {
    if (this.outcome) return;
    if (!this.ended) {
      this.ended = true;
      this.channel.sendEnd(this.session);
    }
    const message = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'the TTS stream was aborted';
    this.fail(new AbortError(message, { cause: reason }));
  }

  /** @internal The socket delivered audio for this stream. */
  deliverAudio(chunk: TtsAudioChunk): void {
    if (this.outcome) return;
    this.emit('audio', chunk);
    if (this.iterated || this.listenerCount('audio') === 0) {
      if (this.waiting) {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting.resolve({ value: chunk, done: false });
      } else {
        this.chunks.push(chunk);
        if (this.chunks.length === STREAM_BACKLOG_HIGH_WATER) this.channel.backlogChanged();
      }
    }
  }

  /** @internal The service sent `final`. */
  deliverFinal(): void {
    if (this.outcome) return;
    this.outcome = { done: true };
    this.channel.release(this.session);
    this.emit('final');
    this.settle.resolve();
    if (this.waiting && this.chunks.length === 0) {
      this.waiting.resolve({ value: undefined, done: true });
      this.waiting = undefined;
    }
  }

  /** @internal The service sent `error`, the socket closed, or the caller aborted. */
  fail(error: TtsStreamFailure): void {
    if (this.outcome) return;
    this.outcome = { error };
    this.channel.release(this.session);
    // Audio that arrived before a service error stays readable; an abort drops it.
    if (AbortError.isInstance(error)) this.chunks.length = 0;
    this.emit('error', error);
    this.settle.reject(error);
    if (this.waiting) {
      this.waiting.reject(error);
      this.waiting = undefined;
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<TtsAudioChunk> {
    this.iterated = true;
    return {
      next: () => {
        const chunk = this.chunks.shift();
        if (chunk) {
          if (this.chunks.length === STREAM_BACKLOG_HIGH_WATER / 2) this.channel.backlogChanged();
          return Promise.resolve({ value: chunk, done: false });
        }
        if (this.outcome && 'error' in this.outcome) return Promise.reject(this.outcome.error);
        if (this.outcome) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
      return: () => {
        // Leaving the loop early abandons the stream.
        if (!this.outcome) this.abort('the consumer stopped reading');
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
