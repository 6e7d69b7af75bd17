import { randomBytes } from 'node:crypto';
import { TrackInfo, TrackSource, TrackType, type AudioTrackFeature } from '@livekit/protocol';
import type { RtpPacket } from 'werift';
import { AudioLevelMeter } from './audio-level.js';

/** A new LiveKit-style id: `TR_` / `PA_` / `RM_` + 12 random characters. */
export function newSid(prefix: 'TR' | 'PA' | 'RM' | 'AW' | 'AJ' | 'AD'): string {
  return `${prefix}_${randomBytes(9).toString('base64url')}`;
}

export type RtpSink = (packet: RtpPacket) => void;

/**
 * An audio track published into a room (a client's microphone or the agent's voice): Opus RTP
 * packets fanned out to every subscriber. Sinks must not throw; a throwing sink is dropped.
 *
 * @example
 * const track = new PublishedAudioTrack({ publisherSid, publisherIdentity, name: 'microphone' });
 * const unsubscribe = track.subscribe((packet) => sender.sendRtp(packet));
 */
export class PublishedAudioTrack {
  readonly sid: string;
  readonly info: TrackInfo;
  /** How loud the track is (fed by its publisher: RTP audio-level extension, or the agent's PCM). */
  readonly audioLevel = new AudioLevelMeter();
  private readonly sinks = new Set<RtpSink>();
  private endListeners: Array<() => void> = [];
  private firstSubscriber: (() => void) | undefined;
  private endedFlag = false;

  constructor(
    readonly publisher: { sid: string; identity: string },
    options: {
      name?: string;
      source?: TrackSource;
      muted?: boolean;
      stereo?: boolean;
      disableDtx?: boolean;
      sid?: string;
      /** The publisher's audio features, echoed as LiveKit does (livekit-client sends its pre-connect buffer only when `TF_PRECONNECT_BUFFER` comes back). */
      audioFeatures?: AudioTrackFeature[];
    } = {},
  ) {
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
      stream: 'camera',
      audioFeatures: options.audioFeatures ?? [],
    });
  }

  get ended(): boolean {
    return this.endedFlag;
  }

  get subscriberCount(): number {
    return this.sinks.size;
  }

  /** Called once, when the first subscriber comes (the publisher is told `TrackSubscribed`, as LiveKit does). */
  onFirstSubscriber(listener: () => void): void {
    if (this.sinks.size > 0) listener();
    else this.firstSubscriber = listener;
  }

  subscribe(sink: RtpSink): () => void {
    this.sinks.add(sink);
    const first = this.firstSubscriber;
    this.firstSubscriber = undefined;
    first?.();
    return () => this.sinks.delete(sink);
  }

  push(packet: RtpPacket): void {
    for (const sink of this.sinks) {
      try {
        sink(packet);
      } catch {
        this.sinks.delete(sink);
      }
    }
  }

  onEnded(listener: () => void): void {
    if (this.endedFlag) listener();
    else this.endListeners.push(listener);
  }

  end(): void {
    if (this.endedFlag) return;
    this.endedFlag = true;
    this.sinks.clear();
    const listeners = this.endListeners;
    this.endListeners = [];
    for (const listener of listeners) listener();
  }
}
