import type { RTCRtpCodecParameters, RTCRtpSender, RtpPacket } from 'werift';
import type { PublishedVideoTrack } from './published-video-track.js';
import { VideoForwarder } from './video-forwarder.js';
import type { VideoLayerSettings } from './video-layers.js';

/** RTCP payload-specific feedback (RFC 4585) and its Full Intra Request format (RFC 5104). */
const RTCP_PSFB = 206;
const FIR_FORMAT = 4;
/** The timestamp step put between the last packet of one layer and the first of the next (one frame at 30 fps, 90 kHz). */
const SWITCH_TIMESTAMP_STEP = 3000;

/** The parts of werift's sender this uses beyond its typed surface (all plain fields of `RTCRtpSender`). */
interface SenderInternals {
  codec?: RTCRtpCodecParameters;
  sendPrimaryCodec?: RTCRtpCodecParameters;
  negotiatedCodecs: RTCRtpCodecParameters[];
}

export interface VideoSending {
  readonly forwarding: string | undefined;
  update(settings: VideoLayerSettings): void;
  handle(packet: RtpPacket, rid: string): void;
  close(): void;
}

/**
 * Puts a {@link VideoForwarder} on one subscriber's werift sender: the sender sends with the payload type the subscriber
 * negotiated for the publisher's codec (VP8 or H.264), keeps sequence numbers and timestamps continuous across layer
 * switches (`replaceRTP`), answers the subscriber's NACKs from its own history (werift's sender keeps the packets it
 * sent), and the subscriber's PLI and FIR become key-frame requests to the publisher.
 *
 * @example
 * const video = sendVideo(track, transceiver.sender);
 * const unsubscribe = track.subscribe((packet, rid) => video.handle(packet, rid));
 */
export function sendVideo(track: PublishedVideoTrack, sender: RTCRtpSender): VideoSending {
  const internals = sender as unknown as SenderInternals;
  // A renegotiation resets the sender's codec to the first negotiated one: checked on every packet.
  const useCodecOf = (mimeType: string): boolean => {
    const wanted = mimeType.toLowerCase();
    if (internals.codec?.mimeType.toLowerCase() === wanted) return true;
    const codec = internals.negotiatedCodecs.find((candidate) => candidate.mimeType.toLowerCase() === wanted);
    if (!codec) return false;
    internals.codec = codec;
    internals.sendPrimaryCodec = codec;
    return true;
  };
  const forwarder = new VideoForwarder(track, {
    send: (packet) => {
      if (!useCodecOf(track.mimeType)) return;
      void sender.sendRtp(packet).catch(() => undefined);
    },
    switched: (packet) => sender.replaceRTP(packet.header, false, SWITCH_TIMESTAMP_STEP),
  });
  const pli = sender.onPictureLossIndication.subscribe(() => forwarder.requestKeyFrame());
  const fir = sender.onRtcp.subscribe((rtcp) => {
    const feedback = (rtcp as { type: number; feedback?: { count?: number } }).feedback;
    if (rtcp.type === RTCP_PSFB && feedback?.count === FIR_FORMAT) forwarder.requestKeyFrame();
  });
  return {
    get forwarding() {
      return forwarder.forwarding;
    },
    update: (settings) => forwarder.update(settings),
    handle: (packet, rid) => forwarder.handle(packet, rid),
    close: () => {
      forwarder.close();
      pli.unSubscribe();
      fir.unSubscribe();
    },
  };
}
