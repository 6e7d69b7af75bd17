import type { AudioFrame } from '../../engines/media/index.js';
import { AsyncQueue } from '../../kernel/async-queue.js';

/**
 * Values that never leave the runtime: audio on `audio` pads and text streams on `text_stream` pads. Each
 * carries a `kind` starting with `runtime:` so the client mapping skips it.
 */

/** One block of audio on an `audio` pad (48 kHz mono PCM unless the frame says otherwise). */
export interface AudioFramePacket {
  readonly kind: 'runtime:audio';
  readonly frame: AudioFrame;
  /** Identity of the participant it came from (Publish), or the producing node. */
  readonly origin: string;
}

/** Drop everything queued downstream now (barge-in): the producer cancelled what it was sending. */
export interface AudioFlushPacket {
  readonly kind: 'runtime:audio-flush';
  readonly origin: string;
}

export type AudioPacket = AudioFramePacket | AudioFlushPacket;

export function isAudioPacket(value: unknown): value is AudioPacket {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'runtime:audio' || kind === 'runtime:audio-flush';
}

/**
 * A text produced piece by piece (an LLM's answer) on a `text_stream` pad. Every reader sees every piece
 * from the start, however late it begins reading; `cancel` ends it early for everyone.
 *
 * @example
 * const stream = new TextStream();
 * pad.push(stream);
 * stream.write('Hello'); stream.end();
 * for await (const piece of stream) tts(piece);
 */
export class TextStream implements AsyncIterable<string> {
  readonly kind = 'runtime:text_stream' as const;
  private readonly pieces: string[] = [];
  private readonly readers = new Set<AsyncQueue<string>>();
  private finished = false;
  private cancelled = false;

  write(piece: string): void {
    if (this.finished || piece.length === 0) return;
    this.pieces.push(piece);
    for (const reader of this.readers) reader.push(piece);
  }

  end(): void {
    if (this.finished) return;
    this.finished = true;
    for (const reader of this.readers) reader.end();
  }

  /** Stops the stream where it is (the producer was cancelled). */
  cancel(): void {
    this.cancelled = true;
    this.end();
  }

  get wasCancelled(): boolean {
    return this.cancelled;
  }

  get ended(): boolean {
    return this.finished;
  }

  /** The text so far. */
  text(): string {
    return this.pieces.join('');
  }

  /** The whole text once the stream ends. */
  async readAll(): Promise<string> {
    for await (const _ of this);
    return this.text();
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    const reader = new AsyncQueue<string>();
    for (const piece of this.pieces) reader.push(piece);
    if (this.finished) reader.end();
    else this.readers.add(reader);
    const iterator = reader[Symbol.asyncIterator]();
    return {
      next: () => iterator.next(),
      return: async () => {
        this.readers.delete(reader);
        return iterator.return ? iterator.return() : { value: undefined, done: true };
      },
    };
  }
}

export function isTextStream(value: unknown): value is TextStream {
  return value instanceof TextStream;
}

/**
 * An utterance cut out of an audio stream (`audio_clip` pads), with its transcription when known. Only
 * `transcription` and `duration` reach clients.
 */
export class AudioClip {
  readonly type = 'audio_clip' as const;
  constructor(
    readonly samples: Int16Array,
    readonly sampleRate: number,
    readonly transcription: string | null,
  ) {}

  get duration(): number {
    return this.samples.length / this.sampleRate;
  }

  toJSON(): { type: 'audio_clip'; transcription: string | null; duration: number } {
    return { type: 'audio_clip', transcription: this.transcription, duration: this.duration };
  }
}
