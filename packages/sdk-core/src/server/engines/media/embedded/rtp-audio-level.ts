import type { RtpPacket } from 'werift';
import type { PublishedAudioTrack } from './published-audio-track.js';

/** werift's `RTP_EXTENSION_URI.audioLevelIndication`, spelled out: WebRTC loads on first use (decision 0076). */
const AUDIO_LEVEL_URI = 'urn:ietf:params:rtp-hdrext:ssrc-audio-level';

/** Opus RTP runs on a 48 kHz clock; a packet usually carries 20 ms. */
const CLOCK_PER_MS = 48;
const USUAL_PACKET_MS = 20;

const lastTimestamps = new WeakMap<PublishedAudioTrack, number>();

/** A packet's duration from the RTP timestamps (10..120 ms, Opus's range; 20 ms when unknown). */
function packetMs(track: PublishedAudioTrack, packet: RtpPacket): number {
  const previous = lastTimestamps.get(track);
  lastTimestamps.set(track, packet.header.timestamp);
  if (previous === undefined) return USUAL_PACKET_MS;
  const ms = ((packet.header.timestamp - previous) >>> 0) / CLOCK_PER_MS;
  return ms >= 10 && ms <= 120 ? ms : USUAL_PACKET_MS;
}

/**
 * Feeds a received packet's `ssrc-audio-level` header extension (RFC 6464, negotiated in `peerConfiguration`) to the
 * track's level meter, then drops the packet's header extensions: their ids are the publisher's, and each
 * subscriber's sender writes its own.
 *
 * @example
 * mediaTrack.onReceiveRtp.subscribe((packet, extensions) => { observeAudioLevel(track, packet, extensions); track.push(packet); });
 */
export function observeAudioLevel(track: PublishedAudioTrack, packet: RtpPacket, extensions: Record<string, unknown> | undefined): void {
  const indication = extensions?.[AUDIO_LEVEL_URI] as { level?: unknown } | undefined;
  const durationMs = packetMs(track, packet);
  if (typeof indication?.level === 'number') track.audioLevel.observe(indication.level, durationMs, Date.now());
  packet.header.extensions = [];
}
