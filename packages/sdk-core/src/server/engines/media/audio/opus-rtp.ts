import { randomInt } from 'node:crypto';
import { RtpHeader, RtpPacket } from 'werift';
import { OPUS_FRAME_SAMPLES } from './opus-codec.js';

/** Payload type the packets carry before a sender rewrites it to the negotiated one. */
const OPUS_PAYLOAD_TYPE = 111;

/**
 * Wraps consecutive Opus packets into RTP (sequence and timestamp advance per 20 ms frame). The SSRC
 * and payload type are rewritten by each werift sender, so one packetizer can feed many receivers.
 *
 * @example
 * const packetizer = new OpusPacketizer();
 * sender.sendRtp(packetizer.packetize(opusPacket));
 */
export class OpusPacketizer {
  private sequenceNumber = randomInt(0, 0xffff);
  private timestamp = randomInt(0, 0x7fffffff);
  private readonly ssrc = randomInt(1, 0x7fffffff);
  private pendingMarker = true;

  packetize(payload: Uint8Array): RtpPacket {
    const header = new RtpHeader({
      payloadType: OPUS_PAYLOAD_TYPE,
      sequenceNumber: this.sequenceNumber,
      timestamp: this.timestamp,
      ssrc: this.ssrc,
      marker: this.pendingMarker,
    });
    this.pendingMarker = false;
    this.sequenceNumber = (this.sequenceNumber + 1) & 0xffff;
    this.timestamp = (this.timestamp + OPUS_FRAME_SAMPLES) >>> 0;
    return new RtpPacket(header, Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
  }

  /** Skips timestamps for a silent gap (no packets sent), so receivers keep their clock right. */
  skip(frames: number): void {
    this.timestamp = (this.timestamp + OPUS_FRAME_SAMPLES * frames) >>> 0;
    this.pendingMarker = true;
  }
}
