import type { AudioFrame, RemoteAudioTrack } from '../../engines/media/index.js';
import { AsyncQueue } from '../../kernel/async-queue.js';

/** The rate of the Realtime API's `audio/pcm` (24 kHz mono PCM16), in and out. */
export const REALTIME_SAMPLE_RATE = 24_000;

/** Frame readings kept for `audioMsAt` (a minute of 20 ms frames is plenty: turns end seconds after their speech). */
const MAX_READS = 4000;

/**
 * The human's microphone as the voice layer's listener reads a room track: the PCM a client appends
 * (`input_audio_buffer.append`) becomes the track's frames, so the listener's VAD, STT and adaptive end of turn
 * run on it unchanged. Logs when each frame is read, so the listener's speech times map onto the buffer's clock
 * (`audio_start_ms`, `audio_end_ms`).
 *
 * @example
 * const track = new PushedAudioTrack('rt_1');
 * track.push(pcm24k);
 * new HumanListener({ track, ... }).run();
 */
export class PushedAudioTrack implements RemoteAudioTrack {
  readonly trackSid: string;
  readonly name = 'input_audio_buffer';
  readonly participant;
  private readonly queue = new AsyncQueue<AudioFrame>();
  private readonly reads: Array<{ at: number; endMs: number }> = [];

  constructor(sessionId: string) {
    this.trackSid = `TR_${sessionId}`;
    this.participant = { identity: 'human', sid: `PA_${sessionId}`, name: 'human', kind: 'standard' as const, metadata: '', attributes: {} };
  }

  push(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    this.queue.push({ samples: pcm, sampleRate: REALTIME_SAMPLE_RATE, channels: 1 });
  }

  /** Milliseconds of audio the listener has read so far. */
  get readMs(): number {
    return this.reads.at(-1)?.endMs ?? 0;
  }

  /**
   * Where the buffer's clock was when the listener read a frame at `at` (`performance.now()`, as the listener dates
   * speech by the arrival of its frames): the end of the last frame read by then.
   */
  audioMsAt(at: number): number {
    for (let index = this.reads.length - 1; index >= 0; index -= 1) if (this.reads[index]!.at <= at) return this.reads[index]!.endMs;
    return 0;
  }

  /** The appended audio, each frame's reading logged (`audioMsAt`). */
  async *frames(): AsyncIterable<AudioFrame> {
    let samples = 0;
    for await (const frame of this.queue) {
      samples += frame.samples.length;
      this.reads.push({ at: performance.now(), endMs: Math.round((samples / REALTIME_SAMPLE_RATE) * 1000) });
      if (this.reads.length > MAX_READS) this.reads.splice(0, this.reads.length - MAX_READS / 2);
      yield frame;
    }
  }

  end(): void {
    this.queue.end();
  }
}
