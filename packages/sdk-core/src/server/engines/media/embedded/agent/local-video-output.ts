import { randomInt } from 'node:crypto';
import { Vp8Packetizer } from 'werift';
import type { VideoOutput } from '../../agent-transport.js';
import { FfmpegVp8Encoder } from '../../video/ffmpeg-vp8-encoder.js';
import type { VideoFrame } from '../../video/video-frame.js';
import type { PublishedVideoTrack } from '../published-video-track.js';

/** RTP's video clock. */
const VIDEO_CLOCK_RATE = 90_000;
/** The dynamic payload type the packets carry (each subscriber's sender writes the one it negotiated for VP8). */
const VP8_PAYLOAD_TYPE = 96;

/**
 * The agent's camera in the embedded endpoint: RGBA pictures encoded to VP8 by ffmpeg ({@link FfmpegVp8Encoder}),
 * packetized (werift's VP8 packetizer) with a 90 kHz timestamp from the wall clock, and fanned out by the published
 * track to every subscriber's forwarder, as a client's camera is. A subscriber's key-frame request waits for the
 * encoder's next key frame (one a second).
 *
 * @example
 * const output = new LocalVideoOutput(track, { width: 640, height: 360 }, async () => room.unpublishTrack(member, track.sid));
 * await output.write(frame);
 */
export class LocalVideoOutput implements VideoOutput {
  private readonly encoder: FfmpegVp8Encoder;
  private readonly packetizer = new Vp8Packetizer({ payloadType: VP8_PAYLOAD_TYPE, ssrc: randomInt(1, 2 ** 31) });
  private readonly startedMs = Date.now();
  private closed = false;

  constructor(
    private readonly track: PublishedVideoTrack,
    size: { width: number; height: number },
    private readonly onClose: () => Promise<void>,
    onError: (message: string) => void = () => undefined,
  ) {
    track.setCodec('video/VP8', undefined);
    track.addLayer('', () => undefined);
    this.encoder = new FfmpegVp8Encoder({
      ...size,
      onFrame: (data) => {
        const timestamp = Math.round(((Date.now() - this.startedMs) * VIDEO_CLOCK_RATE) / 1000) >>> 0;
        for (const packet of this.packetizer.packetize(data, timestamp)) this.track.push(packet, '');
      },
      onFailed: onError,
    });
  }

  get trackSid(): string {
    return this.track.sid;
  }

  write(frame: VideoFrame): Promise<void> {
    if (this.closed) return Promise.resolve();
    return this.encoder.write(frame);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.encoder.close();
    await this.onClose();
  }
}
