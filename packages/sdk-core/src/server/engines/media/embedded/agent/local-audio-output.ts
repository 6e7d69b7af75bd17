import type { AudioOutput } from '../../agent-transport.js';
import type { AudioFrame } from '../../audio/audio-frame.js';
import { OPUS_SAMPLE_RATE, OpusFrameEncoder } from '../../audio/opus-codec.js';
import { OpusPacketizer } from '../../audio/opus-rtp.js';
import { PacedAudioQueue } from '../../audio/paced-audio-queue.js';
import type { PublishedAudioTrack } from '../published-audio-track.js';
import { dBovOfPcm } from '../audio-level.js';

/**
 * The agent's voice in the embedded endpoint: PCM paced at real time, Opus-encoded once, and the
 * RTP fanned out by the published track to every subscriber.
 *
 * @example
 * const output = new LocalAudioOutput(track, 24_000, async () => room.unpublishTrack(member, track.sid));
 * await output.write(ttsFrame);
 */
export class LocalAudioOutput implements AudioOutput {
  private readonly encoder = new OpusFrameEncoder();
  private readonly packetizer = new OpusPacketizer();
  private readonly queue: PacedAudioQueue;

  constructor(
    private readonly track: PublishedAudioTrack,
    sampleRate: number,
    private readonly onClose: () => Promise<void>,
  ) {
    this.queue = new PacedAudioQueue({
      sampleRate,
      onFrame: (samples) => {
        // The agent's voice has no RTP audio-level extension to read: its level comes from the PCM it sends.
        this.track.audioLevel.observe(dBovOfPcm(samples), (samples.length / OPUS_SAMPLE_RATE) * 1000, Date.now());
        this.track.push(this.packetizer.packetize(this.encoder.encode(samples)));
      },
      onGap: (frames) => this.packetizer.skip(frames),
    });
  }

  get trackSid(): string {
    return this.track.sid;
  }

  get queuedMs(): number {
    return this.queue.queuedMs;
  }

  write(frame: AudioFrame): Promise<void> {
    return this.queue.write(frame);
  }

  flush(): number {
    return this.queue.flush();
  }

  drained(): Promise<void> {
    return this.queue.drained();
  }

  async close(): Promise<void> {
    this.queue.close();
    await this.onClose();
  }
}
