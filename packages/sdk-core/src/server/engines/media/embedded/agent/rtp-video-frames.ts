import { dePacketizeRtpPackets, type RtpPacket } from 'werift';
import type { EncodedVideoCodec, EncodedVideoFrame } from '../../video/ffmpeg-video-decoder.js';

/** Packets of one picture kept at most (a picture larger than this is broken input). */
const MAX_PACKETS_PER_FRAME = 2000;

/**
 * Puts RTP packets of one video layer back together into pictures (werift's depacketizers: VP8 payload descriptors,
 * H.264 FU-A/STAP-A to Annex-B): a picture ends at the marker bit. A lost packet breaks the picture and everything
 * after it until the next key frame, which {@link needKeyFrame} asks for.
 *
 * @example
 * const frames = new RtpVideoFrames('vp8', (frame) => decoder.push(frame), () => track.requestKeyFrame(rid));
 * forwarder.send = (packet) => frames.push(packet);
 */
export class RtpVideoFrames {
  private packets: RtpPacket[] = [];
  private lastSequence: number | undefined;
  private broken = true;

  constructor(
    private readonly codec: EncodedVideoCodec,
    private readonly onFrame: (frame: EncodedVideoFrame) => void,
    private readonly needKeyFrame: () => void,
  ) {}

  /** The next packet continues another stream (a layer switch): what was half put together is dropped. */
  restart(): void {
    this.packets = [];
    this.lastSequence = undefined;
  }

  push(packet: RtpPacket): void {
    const sequence = packet.header.sequenceNumber;
    if (this.lastSequence !== undefined) {
      const step = (sequence - this.lastSequence) & 0xffff;
      // A duplicate or a late packet (retransmission): already accounted for.
      if (step === 0 || step > 0x8000) return;
      if (step > 1) this.lose();
    }
    this.lastSequence = sequence;
    const first = this.packets[0];
    if (first && first.header.timestamp !== packet.header.timestamp) this.lose();
    this.packets.push(packet);
    if (this.packets.length > MAX_PACKETS_PER_FRAME) this.lose();
    if (packet.header.marker) this.complete();
  }

  private lose(): void {
    this.packets = [];
    if (!this.broken) this.needKeyFrame();
    this.broken = true;
  }

  private complete(): void {
    const packets = this.packets;
    this.packets = [];
    if (packets.length === 0) return;
    let picture: { data: Buffer; isKeyframe: boolean };
    try {
      picture = dePacketizeRtpPackets(this.codec === 'vp8' ? 'VP8' : 'MPEG4/ISO/AVC', packets);
    } catch {
      this.lose();
      return;
    }
    if (picture.data.length === 0) return;
    if (this.broken && !picture.isKeyframe) {
      this.needKeyFrame();
      return;
    }
    this.broken = false;
    this.onFrame({ data: picture.data, keyFrame: picture.isKeyframe });
  }
}
