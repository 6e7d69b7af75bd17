import type { AudioFrame, RemoteAudioTrack } from '../../engines/media/index.js';
import { AsyncQueue } from '../../kernel/async-queue.js';

/** The rate of the Realtime API's `audio/pcm` (24 kHz mono PCM16), in and out. */
export const REALTIME_SAMPLE_RATE = 24_000;

/**
 * The human's microphone as the voice layer's listener reads a room track: the PCM a client appends
 * (`input_audio_buffer.append`) becomes the track's frames, so the listener's VAD, STT and adaptive end of turn
 * run on it unchanged. Counts the milliseconds appended (the buffer's clock of `audio_start_ms`, `audio_end_ms`).
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
  private samples = 0;

  constructor(sessionId: string) {
    this.trackSid = `TR_${sessionId}`;
    this.participant = { identity: 'human', sid: `PA_${sessionId}`, name: 'human', kind: 'standard' as const, metadata: '', attributes: {} };
  }

  /** Milliseconds of audio appended so far. */
  get appendedMs(): number {
    return Math.round((this.samples / REALTIME_SAMPLE_RATE) * 1000);
  }

  push(pcm: Int16Array): void {
    if (pcm.length === 0) return;
    this.samples += pcm.length;
    this.queue.push({ samples: pcm, sampleRate: REALTIME_SAMPLE_RATE, channels: 1 });
  }

  frames(): AsyncIterable<AudioFrame> {
    return this.queue;
  }

  end(): void {
    this.queue.end();
  }
}
