import { H264RtpPayload, Vp8RtpPayload, type RtpPacket } from 'werift';

/** H.264 NAL unit types that start a decodable picture (a sequence parameter set precedes Chrome's IDR frames). */
const H264_SPS = 7;
const H264_STAP_A = 24;

/**
 * Whether an RTP packet is the first of a key frame, where a subscriber can start or switch layers: VP8's frame start
 * with the key-frame bit; H.264's SPS (alone or aggregated), or an IDR slice's start when no SPS precedes it.
 *
 * @example
 * if (startsKeyFrame(packet, 'video/vp8')) switchLayer();
 */
export function startsKeyFrame(packet: RtpPacket, mimeType: string): boolean {
  if (packet.payload.length === 0) return false;
  const codec = mimeType.toLowerCase();
  if (codec === 'video/vp8') return Vp8RtpPayload.deSerialize(packet.payload).isKeyframe;
  if (codec === 'video/h264') {
    const nal = H264RtpPayload.deSerialize(packet.payload);
    if (nal.nalUnitType === H264_SPS) return true;
    if (nal.nalUnitType === H264_STAP_A) return nal.aggregatedNalUnitTypes.includes(H264_SPS);
    return nal.isKeyframe && nal.isPartitionHead;
  }
  return false;
}
