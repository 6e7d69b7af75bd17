import { SubscribedCodec, SubscribedQuality, SubscribedQualityUpdate, VideoLayer, VideoQuality, type AddTrackRequest } from '@livekit/protocol';

/** What a subscriber asked of one video track (`UpdateTrackSettings`); zero width/height means "no size given". */
export interface VideoLayerSettings {
  disabled: boolean;
  quality: VideoQuality;
  width: number;
  height: number;
}

/** LiveKit's default for a new subscription: enabled, the best layer. */
export const DEFAULT_LAYER_SETTINGS: VideoLayerSettings = Object.freeze({ disabled: false, quality: VideoQuality.HIGH, width: 0, height: 0 });

/** The simulcast encodings' rids as LiveKit's clients name them: `q` quarter, `h` half, `f` full; '' without simulcast. */
export function qualityOfRid(rid: string): VideoQuality {
  if (rid === 'q') return VideoQuality.LOW;
  if (rid === 'h') return VideoQuality.MEDIUM;
  return VideoQuality.HIGH;
}

/**
 * The layers a publisher announced in its `AddTrackRequest` (livekit-client and the Rust SDK list one per simulcast
 * encoding), lowest quality first, with their rid; one layer of the track's own size when it announced none.
 */
export function announcedLayers(request: Pick<AddTrackRequest, 'layers' | 'simulcastCodecs' | 'width' | 'height'>): VideoLayer[] {
  const listed = request.layers.length > 0 ? request.layers : (request.simulcastCodecs[0]?.layers ?? []);
  if (listed.length === 0) return [new VideoLayer({ quality: VideoQuality.HIGH, width: request.width, height: request.height, rid: '' })];
  const rids = ['q', 'h', 'f'];
  // Lowest quality first, as LiveKit lists them (the Rust SDK announces its best layer first).
  return listed
    .slice(0, 3)
    .map(
      (layer) =>
        new VideoLayer({
          quality: layer.quality,
          width: layer.width,
          height: layer.height,
          bitrate: layer.bitrate,
          rid: layer.rid || (listed.length === 1 ? '' : (rids[layer.quality] ?? '')),
        }),
    )
    .sort((a, b) => a.quality - b.quality);
}

/** The announced layer a received rid carries (by rid, then by quality), or one made up from the rid. */
export function layerOfRid(layers: readonly VideoLayer[], rid: string): VideoLayer {
  const quality = qualityOfRid(rid);
  return (
    layers.find((layer) => layer.rid === rid) ??
    layers.find((layer) => layer.quality === quality) ??
    new VideoLayer({ quality, rid, width: layers.at(-1)?.width ?? 0, height: layers.at(-1)?.height ?? 0 })
  );
}

/**
 * Which of the layers being received a subscriber gets, as LiveKit's SFU picks it: nothing when disabled; with a size,
 * the smallest layer at least that large (else the largest); otherwise the best layer not above the asked quality
 * (else the lowest there is).
 *
 * @example
 * selectLayer([low, high], { disabled: false, quality: VideoQuality.HIGH, width: 320, height: 180 }); // low's rid
 */
export function selectLayer(receiving: readonly VideoLayer[], settings: VideoLayerSettings): string | undefined {
  if (settings.disabled || receiving.length === 0) return undefined;
  const ordered = [...receiving].sort((a, b) => a.quality - b.quality || a.width * a.height - b.width * b.height);
  if (settings.width > 0 || settings.height > 0) {
    const fits = ordered.find((layer) => layer.width >= settings.width && layer.height >= settings.height);
    return (fits ?? ordered.at(-1)!).rid;
  }
  const allowed = ordered.filter((layer) => layer.quality <= settings.quality);
  return (allowed.at(-1) ?? ordered[0]!).rid;
}

/** The quality of the layer a subscriber with these settings is to get of the announced layers; undefined: none. */
export function wantedQuality(layers: readonly VideoLayer[], settings: VideoLayerSettings): VideoQuality | undefined {
  const rid = selectLayer(layers, settings);
  return rid === undefined ? undefined : layerOfRid(layers, rid).quality;
}

/**
 * LiveKit's dynacast notice to a publisher: the qualities up to the best one any subscriber gets stay enabled, the
 * others may pause. With no subscriber the lowest stays on, so the next subscriber's first picture comes at once.
 *
 * @example
 * send({ case: 'subscribedQualityUpdate', value: subscribedQualityUpdate(track.sid, 'video/VP8', VideoQuality.LOW) });
 */
export function subscribedQualityUpdate(trackSid: string, mimeType: string, best: VideoQuality | undefined): SubscribedQualityUpdate {
  const limit = best ?? VideoQuality.LOW;
  const qualities = () =>
    [VideoQuality.LOW, VideoQuality.MEDIUM, VideoQuality.HIGH].map((quality) => new SubscribedQuality({ quality, enabled: quality <= limit }));
  const codec = (mimeType.split('/')[1] ?? mimeType).toLowerCase();
  return new SubscribedQualityUpdate({
    trackSid,
    subscribedQualities: qualities(),
    subscribedCodecs: [new SubscribedCodec({ codec, qualities: qualities() })],
  });
}
