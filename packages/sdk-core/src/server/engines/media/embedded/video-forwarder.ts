import type { RtpPacket } from 'werift';
import type { PublishedVideoTrack } from './published-video-track.js';
import { startsKeyFrame } from './video-keyframe.js';
import { DEFAULT_LAYER_SETTINGS, selectLayer, wantedQuality, type VideoLayerSettings } from './video-layers.js';

/** How often the layer choice is looked at again while packets flow (a layer may stop or come back). */
const RESELECT_MS = 500;

export interface VideoForwarderOutput {
  /** Sends a packet on the subscriber's section. */
  send(packet: RtpPacket): void;
  /** The next packet starts another layer (or resumes): sequence numbers and timestamps must continue from the last sent. */
  switched(packet: RtpPacket): void;
}

/**
 * One subscriber's view of a video track, as LiveKit's down track: forwards one simulcast layer, chosen from the
 * subscriber's settings ({@link selectLayer}); pauses when the subscriber disables the track; switches layers (and
 * resumes) only at a key frame of the new layer, which it asks the publisher for. Stateless about the subscriber's
 * connection: the output does the sending and the sequence/timestamp continuity.
 *
 * @example
 * const forwarder = new VideoForwarder(track, { send: (packet) => sender.sendRtp(packet), switched: (packet) => sender.replaceRTP(packet.header) });
 * const unsubscribe = track.subscribe((packet, rid) => forwarder.handle(packet, rid));
 * forwarder.update({ disabled: false, quality: VideoQuality.LOW, width: 0, height: 0 });
 */
export class VideoForwarder {
  private settings: VideoLayerSettings = DEFAULT_LAYER_SETTINGS;
  /** The layer being forwarded (undefined: nothing goes out). */
  private current: string | undefined;
  /** The layer wanted; differs from `current` until its next key frame. */
  private target: string | undefined;
  private lastSelectMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly track: PublishedVideoTrack,
    private readonly output: VideoForwarderOutput,
  ) {
    track.want(this, wantedQuality(track.info.layers, this.settings));
  }

  /** The rid being forwarded ('' without simulcast), undefined while paused or waiting for the first key frame. */
  get forwarding(): string | undefined {
    return this.current;
  }

  /** The subscriber's new settings (`UpdateTrackSettings`). */
  update(settings: VideoLayerSettings, nowMs = Date.now()): void {
    this.settings = { ...settings };
    this.track.want(this, wantedQuality(this.track.info.layers, this.settings));
    this.select(nowMs);
  }

  /** The subscriber is gone: it no longer keeps any layer of the publisher's on (dynacast). */
  close(): void {
    this.track.want(this, undefined);
  }

  /** The subscriber lost a picture (PLI or FIR): the publisher is asked for a key frame of the layer it gets. */
  requestKeyFrame(nowMs = Date.now()): void {
    const rid = this.target ?? this.current;
    if (rid !== undefined) this.track.requestKeyFrame(rid, nowMs);
  }

  handle(packet: RtpPacket, rid: string, nowMs = Date.now()): void {
    // Waiting for any layer (subscribed before media came, or the publisher paused): look at once, not on the next round.
    const waiting = this.target === undefined && !this.settings.disabled;
    if (waiting || nowMs - this.lastSelectMs >= RESELECT_MS) this.select(nowMs);
    if (rid === this.target && this.target !== this.current) {
      if (!startsKeyFrame(packet, this.track.mimeType)) {
        this.track.requestKeyFrame(rid, nowMs);
        return;
      }
      this.current = this.target;
      this.output.switched(packet);
    }
    if (rid === this.current) this.output.send(packet);
  }

  private select(nowMs: number): void {
    this.lastSelectMs = nowMs;
    const next = selectLayer(this.track.receivingLayers(nowMs), this.settings);
    if (next === this.target) return;
    this.target = next;
    // Paused: nothing more goes out. Otherwise the current layer flows until the new one's key frame.
    if (next === undefined) this.current = undefined;
    else this.track.requestKeyFrame(next, nowMs);
  }
}
