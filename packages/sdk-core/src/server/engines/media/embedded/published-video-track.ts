import { SimulcastCodecInfo, TrackInfo, TrackSource, TrackType, type AddTrackRequest, type VideoLayer, type VideoQuality } from '@livekit/protocol';
import type { RtpPacket } from 'werift';
import { newSid } from './published-audio-track.js';
import { TrackFanOut } from './track-fan-out.js';
import { announcedLayers, layerOfRid } from './video-layers.js';

/** A video packet with the simulcast layer (rid, '' without simulcast) it came on. */
export type VideoSink = (packet: RtpPacket, rid: string) => void;

/** A layer counts as received while its packets are at most this old (a publisher may stop sending a layer). */
const LAYER_STALE_MS = 1000;
/** Key-frame requests to the publisher, at most one per layer in this time (subscribers' PLIs come in bursts). */
const KEY_FRAME_INTERVAL_MS = 250;

interface ReceivedLayer {
  layer: VideoLayer;
  lastPacketMs: number;
  lastKeyFrameRequestMs: number;
  requestKeyFrame: () => void;
}

/**
 * A camera or screen-share track published into a room: the publisher's RTP for each simulcast layer it sends
 * (keyed by rid), fanned out to every subscriber's {@link VideoForwarder}, which picks one layer. Key-frame requests
 * go back to the publisher per layer, throttled.
 *
 * @example
 * const track = new PublishedVideoTrack(state, addTrackRequest);
 * track.addLayer('h', () => receiver.sendRtcpPLI(ssrc));
 * mediaTrack.onReceiveRtp.subscribe((packet) => track.push(packet, 'h'));
 */
export class PublishedVideoTrack extends TrackFanOut<VideoSink> {
  readonly kind = 'video';
  readonly sid: string;
  readonly info: TrackInfo;
  /** The codec the publisher asked for (`video/H264`; its `simulcastCodecs`), undefined when it named none. */
  readonly requestedCodec: string | undefined;
  private readonly layers = new Map<string, ReceivedLayer>();
  /** Dynacast: the quality each subscriber's forwarder is to get, and who hears of the best one's changes. */
  private readonly wanted = new Map<object, VideoQuality>();
  private bestWanted: VideoQuality | undefined;
  private wantedListener: ((best: VideoQuality | undefined) => void) | undefined;
  /** RTP packets and payload bytes received from the publisher, all layers together. */
  receivedPackets = 0;
  receivedBytes = 0;

  constructor(
    publisher: { sid: string; identity: string },
    request: Pick<AddTrackRequest, 'name' | 'source' | 'muted' | 'width' | 'height' | 'layers' | 'simulcastCodecs' | 'stream'>,
  ) {
    super(publisher);
    this.sid = newSid('TR');
    const layers = announcedLayers(request);
    const codec = request.simulcastCodecs[0]?.codec;
    this.requestedCodec = codec ? (codec.includes('/') ? codec : `video/${codec}`) : undefined;
    const source = request.source === TrackSource.SCREEN_SHARE ? TrackSource.SCREEN_SHARE : TrackSource.CAMERA;
    this.info = new TrackInfo({
      sid: this.sid,
      type: TrackType.VIDEO,
      name: request.name,
      source,
      muted: request.muted,
      width: request.width,
      height: request.height,
      simulcast: layers.length > 1,
      layers,
      stream: request.stream || (source === TrackSource.SCREEN_SHARE ? 'screen' : 'camera'),
    });
  }

  /** The codec the publisher sends (`video/VP8`, `video/H264`), known once its media arrives. */
  get mimeType(): string {
    return this.info.mimeType;
  }

  /** Records the negotiated codec and the section it came on (TrackInfo's `mimeType`, `codecs`, `mid`). */
  setCodec(mimeType: string, mid: string | undefined): void {
    if (this.info.mimeType) return;
    this.info.mimeType = mimeType;
    if (mid) this.info.mid = mid;
    this.info.codecs = [new SimulcastCodecInfo({ mimeType, mid: mid ?? '', layers: this.info.layers.map((layer) => layer.clone()) })];
  }

  /** A layer's media started arriving; `requestKeyFrame` asks the publisher for a key frame on it (PLI). */
  addLayer(rid: string, requestKeyFrame: () => void): void {
    this.layers.set(rid, { layer: layerOfRid(this.info.layers, rid), lastPacketMs: 0, lastKeyFrameRequestMs: 0, requestKeyFrame });
  }

  push(packet: RtpPacket, rid: string, nowMs = Date.now()): void {
    const layer = this.layers.get(rid);
    if (layer) layer.lastPacketMs = nowMs;
    this.receivedPackets += 1;
    this.receivedBytes += packet.payload.length;
    this.deliver(packet, rid);
  }

  /** The layers whose packets are arriving now (each with its rid). */
  receivingLayers(nowMs = Date.now()): VideoLayer[] {
    const receiving: VideoLayer[] = [];
    for (const entry of this.layers.values()) if (nowMs - entry.lastPacketMs <= LAYER_STALE_MS) receiving.push(entry.layer);
    return receiving;
  }

  /** Asks the publisher for a key frame on a layer (at most one request per layer every {@link KEY_FRAME_INTERVAL_MS}). */
  requestKeyFrame(rid: string, nowMs = Date.now()): void {
    const layer = this.layers.get(rid);
    if (!layer || nowMs - layer.lastKeyFrameRequestMs < KEY_FRAME_INTERVAL_MS) return;
    layer.lastKeyFrameRequestMs = nowMs;
    layer.requestKeyFrame();
  }

  /** Dynacast: the quality one subscriber is to get (undefined: none, or it left); the listener hears the best's changes. */
  want(subscriber: object, quality: VideoQuality | undefined): void {
    if (quality === undefined) this.wanted.delete(subscriber);
    else this.wanted.set(subscriber, quality);
    const best = this.wanted.size > 0 ? Math.max(...this.wanted.values()) : undefined;
    if (best === this.bestWanted) return;
    this.bestWanted = best;
    this.wantedListener?.(best);
  }

  /** Calls `listener` with the best quality any subscriber is to get, whenever it changes. */
  onWantedQuality(listener: (best: VideoQuality | undefined) => void): void {
    this.wantedListener = listener;
  }
}
