import { randomBytes } from 'node:crypto';
import { TrackInfo, TrackSource, TrackType, type AudioTrackFeature } from '@livekit/protocol';
import type { RtpPacket } from 'werift';
import { AudioLevelMeter } from './audio-level.js';
import { TrackFanOut } from './track-fan-out.js';

/** A new LiveKit-style id: `TR_` / `PA_` / `RM_` + 12 random characters. */
export function newSid(prefix: 'TR' | 'PA' | 'RM' | 'AW' | 'AJ' | 'AD'): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

export type RtpSink = (packet: RtpPacket) => void;

/**
 * An audio track published into a room (a client's microphone or screen-share audio, or the agent's voice): Opus
 * RTP packets fanned out to every subscriber. Sinks must not throw; a throwing sink is dropped.
 *
 * @example
 * const track = new PublishedAudioTrack({ publisherSid, publisherIdentity, name: 'microphone' });
 * const unsubscribe = track.subscribe((packet) => sender.sendRtp(packet));
 */
export class PublishedAudioTrack extends TrackFanOut<RtpSink> {
  readonly kind = 'audio';
  readonly sid: string;
  readonly info: TrackInfo;
  /** How loud the track is (fed by its publisher: RTP audio-level extension, or the agent's PCM). */
  readonly audioLevel = new AudioLevelMeter();

  constructor(
    publisher: { sid: string; identity: string },
    options: {
      name?: string;
      source?: TrackSource;
      muted?: boolean;
      stereo?: boolean;
      disableDtx?: boolean;
      sid?: string;
      /** The publisher's stream name (`camera`, `screen`: groups screen-share audio with its video). */
      stream?: string;
      /** The publisher's audio features, echoed as LiveKit does (livekit-client sends its pre-connect buffer only when `TF_PRECONNECT_BUFFER` comes back). */
      audioFeatures?: AudioTrackFeature[];
    } = {},
  ) {
    super(publisher);
    this.sid = options.sid ?? newSid('TR');
    this.info = new TrackInfo({
      sid: this.sid,
      type: TrackType.AUDIO,
      name: options.name ?? '',
      source: options.source ?? TrackSource.MICROPHONE,
      muted: options.muted ?? false,
      mimeType: 'audio/opus',
      stereo: options.stereo ?? false,
      disableDtx: options.disableDtx ?? false,
      stream: options.stream || 'camera',
      audioFeatures: options.audioFeatures ?? [],
    });
  }

  push(packet: RtpPacket): void {
    this.deliver(packet);
  }
}
