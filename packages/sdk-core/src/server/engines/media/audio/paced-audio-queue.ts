import type { AudioFrame } from './audio-frame.js';
import { createLinearResampler } from './audio-frame.js';
import { OPUS_FRAME_SAMPLES, OPUS_SAMPLE_RATE } from './opus-codec.js';

const FRAME_MS = 20;
/** `write` resolves once the queue holds less than this: enough to ride out timer jitter. */
const HIGH_WATER_MS = 200;

export interface PacedAudioQueueOptions {
  /** Sample rate of the PCM given to `write`. */
  sampleRate: number;
  /** Called every 20 ms with one 48 kHz mono frame while audio is queued. */
  onFrame: (samples: Int16Array) => void;
  /** Called with the number of 20 ms frames that passed without audio, before audio resumes. */
  onGap?: (frames: number) => void;
}

/**
 * Real-time pacing for outgoing PCM: callers write as fast as they produce, frames leave every
 * 20 ms, and `flush` drops what is queued at once (barge-in).
 *
 * @example
 * const queue = new PacedAudioQueue({ sampleRate: 24_000, onFrame: (pcm) => track.sendPcm(pcm) });
 * await queue.write({ samples, sampleRate: 24_000, channels: 1 });
 */
export class PacedAudioQueue {
  private readonly frames: Int16Array[] = [];
  private partial: number[] = [];
  private readonly resample: (input: Int16Array) => Int16Array;
  private timer: NodeJS.Timeout | undefined;
  private clockStart = 0;
  private framesSent = 0;
  private idleSince: number | undefined = performance.now();
  private writers: Array<() => void> = [];
  private drainWaiters: Array<() => void> = [];
  private closed = false;

  constructor(private readonly options: PacedAudioQueueOptions) {
    this.resample = createLinearResampler(options.sampleRate, OPUS_SAMPLE_RATE);
  }

  get queuedMs(): number {
    return this.frames.length * FRAME_MS + (this.partial.length / OPUS_SAMPLE_RATE) * 1000;
  }

  async write(frame: AudioFrame): Promise<void> {
    if (this.closed) throw new Error('Audio output is closed');
    if (frame.sampleRate !== this.options.sampleRate) {
      throw new RangeError(`Expected ${this.options.sampleRate} Hz audio, got ${frame.sampleRate} Hz`);
    }
    const mono = frame.channels === 1 ? frame.samples : downmix(frame.samples, frame.channels);
    const resampled = this.resample(mono);
    for (const sample of resampled) {
      this.partial.push(sample);
      if (this.partial.length === OPUS_FRAME_SAMPLES) {
        this.frames.push(Int16Array.from(this.partial));
        this.partial = [];
      }
    }
    this.start();
    if (this.queuedMs < HIGH_WATER_MS) return;
    await new Promise<void>((resolve) => this.writers.push(resolve));
  }

  /** Drops all queued audio; returns how many milliseconds were dropped. */
  flush(): number {
    const dropped = this.queuedMs;
    this.frames.length = 0;
    this.partial = [];
    this.release();
    return dropped;
  }

  /** Resolves when the queue is empty (a trailing partial frame is padded and sent). */
  drained(): Promise<void> {
    if (this.partial.length > 0) {
      const padded = new Int16Array(OPUS_FRAME_SAMPLES);
      padded.set(this.partial);
      this.frames.push(padded);
      this.partial = [];
      this.start();
    }
    if (this.frames.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  close(): void {
    this.closed = true;
    this.flush();
    this.stop();
  }

  private start(): void {
    if (this.timer || this.frames.length === 0 || this.closed) return;
    const now = performance.now();
    if (this.idleSince !== undefined) {
      const gap = Math.floor((now - this.idleSince) / FRAME_MS);
      if (gap > 0) this.options.onGap?.(gap);
      this.idleSince = undefined;
    }
    this.clockStart = now;
    this.framesSent = 0;
    this.tick();
    this.timer = setInterval(() => this.tick(), 10);
  }

  private stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.idleSince = performance.now();
  }

  private tick(): void {
    // Send as many frames as wall time says are due (timers drift; catch up at most 5 frames).
    const due = Math.floor((performance.now() - this.clockStart) / FRAME_MS) + 1;
    let budget = Math.min(due - this.framesSent, 5);
    if (due - this.framesSent > 5) this.framesSent = due - 5;
    while (budget > 0 && this.frames.length > 0) {
      this.options.onFrame(this.frames.shift()!);
      this.framesSent += 1;
      budget -= 1;
    }
    if (this.queuedMs < HIGH_WATER_MS) this.releaseWriters();
    if (this.frames.length === 0) {
      this.stop();
      this.release();
    }
  }

  private releaseWriters(): void {
    const writers = this.writers;
    this.writers = [];
    for (const resolve of writers) resolve();
  }

  private release(): void {
    this.releaseWriters();
    if (this.frames.length === 0) {
      const waiters = this.drainWaiters;
      this.drainWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }
}

function downmix(samples: Int16Array, channels: number): Int16Array {
  const output = new Int16Array(Math.floor(samples.length / channels));
  for (let index = 0; index < output.length; index += 1) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel += 1) sum += samples[index * channels + channel]!;
    output[index] = Math.round(sum / channels);
  }
  return output;
}
