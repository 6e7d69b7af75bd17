import { AddTrackRequest, TrackSource, VideoLayer, VideoQuality } from '@livekit/protocol';
import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { PublishedVideoTrack } from './published-video-track.js';
import { VideoForwarder } from './video-forwarder.js';
import { announcedLayers, DEFAULT_LAYER_SETTINGS, selectLayer, subscribedQualityUpdate } from './video-layers.js';

const low = new VideoLayer({ quality: VideoQuality.LOW, width: 320, height: 180, rid: 'q' });
const medium = new VideoLayer({ quality: VideoQuality.MEDIUM, width: 640, height: 360, rid: 'h' });
const high = new VideoLayer({ quality: VideoQuality.HIGH, width: 1280, height: 720, rid: 'f' });

describe('selectLayer: the layer a subscriber gets, as LiveKit picks it', () => {
  it('the best layer by default, nothing when disabled, the best not above an asked quality', () => {
    expect(selectLayer([high, low, medium], DEFAULT_LAYER_SETTINGS)).toBe('f');
    expect(selectLayer([high, low, medium], { ...DEFAULT_LAYER_SETTINGS, disabled: true })).toBeUndefined();
    expect(selectLayer([high, low, medium], { ...DEFAULT_LAYER_SETTINGS, quality: VideoQuality.MEDIUM })).toBe('h');
    expect(selectLayer([high, medium], { ...DEFAULT_LAYER_SETTINGS, quality: VideoQuality.LOW })).toBe('h');
    expect(selectLayer([], DEFAULT_LAYER_SETTINGS)).toBeUndefined();
  });

  it('with a size: the smallest layer at least that large, else the largest', () => {
    expect(selectLayer([low, medium, high], { ...DEFAULT_LAYER_SETTINGS, width: 300, height: 170 })).toBe('q');
    expect(selectLayer([low, medium, high], { ...DEFAULT_LAYER_SETTINGS, width: 480, height: 270 })).toBe('h');
    expect(selectLayer([low, medium], { ...DEFAULT_LAYER_SETTINGS, width: 1920, height: 1080 })).toBe('h');
  });

  it('announced layers are sorted lowest first, named by rid, and one layer of the track size without simulcast', () => {
    const request = new AddTrackRequest({ width: 640, height: 360, layers: [new VideoLayer({ ...medium, rid: '' }), new VideoLayer({ ...low, rid: '' })] });
    expect(announcedLayers(request).map((layer) => [layer.rid, layer.width])).toEqual([
      ['q', 320],
      ['h', 640],
    ]);
    expect(announcedLayers(new AddTrackRequest({ width: 800, height: 600 })).map((layer) => [layer.rid, layer.width, layer.quality])).toEqual([
      ['', 800, VideoQuality.HIGH],
    ]);
  });
});

/** A VP8 packet: the first of a key frame, or of a delta frame. */
function vp8(sequenceNumber: number, keyFrame: boolean): RtpPacket {
  // Payload descriptor: S=1, PID=0; then the VP8 payload header, whose lowest bit is 0 on key frames.
  const payload = Buffer.from([0x10, keyFrame ? 0x00 : 0x01, 0x00, 0x00]);
  return new RtpPacket(new RtpHeader({ sequenceNumber, timestamp: sequenceNumber * 3000, payloadType: 96 }), payload);
}

function simulcastTrack(): { track: PublishedVideoTrack; keyFrameRequests: string[] } {
  const track = new PublishedVideoTrack(
    { sid: 'PA_1', identity: 'alice' },
    new AddTrackRequest({ name: 'camera', source: TrackSource.CAMERA, width: 640, height: 360, layers: [low, medium] }),
  );
  track.setCodec('video/VP8', '1');
  const keyFrameRequests: string[] = [];
  for (const rid of ['q', 'h']) track.addLayer(rid, () => keyFrameRequests.push(rid));
  return { track, keyFrameRequests };
}

describe('VideoForwarder: one layer to one subscriber', () => {
  it('starts at a key frame of the best layer, switches down at the low layer key frame, pauses and resumes', () => {
    const { track, keyFrameRequests } = simulcastTrack();
    const sent: string[] = [];
    const switches: number[] = [];
    const forwarder = new VideoForwarder(track, {
      send: (packet) => sent.push(`${packet.header.sequenceNumber}`),
      switched: (packet) => switches.push(packet.header.sequenceNumber),
    });
    let now = 1000;
    const both = (sequenceNumber: number, keyFrame: boolean) => {
      for (const rid of ['q', 'h']) {
        const packet = vp8(rid === 'q' ? sequenceNumber : sequenceNumber + 100, keyFrame);
        track.push(packet, rid, now);
        forwarder.handle(packet, rid, now);
      }
      now += 33;
    };
    both(1, false);
    expect(forwarder.forwarding).toBeUndefined();
    expect(keyFrameRequests).toEqual(['h']);
    both(2, false);
    both(3, true);
    expect(forwarder.forwarding).toBe('h');
    expect(sent).toEqual(['103']);
    expect(switches).toEqual([103]);

    forwarder.update({ ...DEFAULT_LAYER_SETTINGS, width: 320, height: 180 }, now);
    expect(keyFrameRequests.at(-1)).toBe('q');
    both(4, false);
    // Until the low layer's key frame the high layer flows.
    expect(sent.at(-1)).toBe('104');
    both(5, true);
    expect(forwarder.forwarding).toBe('q');
    expect(sent.slice(-1)).toEqual(['5']);
    expect(switches).toEqual([103, 5]);

    forwarder.update({ ...DEFAULT_LAYER_SETTINGS, disabled: true }, now);
    both(6, true);
    expect(forwarder.forwarding).toBeUndefined();
    expect(sent.at(-1)).toBe('5');

    forwarder.update({ ...DEFAULT_LAYER_SETTINGS, quality: VideoQuality.LOW }, now);
    both(7, false);
    expect(sent.at(-1)).toBe('5');
    both(8, true);
    expect(sent.at(-1)).toBe('8');
    expect(switches).toEqual([103, 5, 8]);
  });

  it('a subscriber picture loss asks the publisher for a key frame of the forwarded layer, at most every 250 ms', () => {
    const { track, keyFrameRequests } = simulcastTrack();
    const forwarder = new VideoForwarder(track, { send: () => undefined, switched: () => undefined });
    const packet = vp8(1, true);
    track.push(packet, 'h', 1000);
    forwarder.handle(packet, 'h', 1000);
    expect(forwarder.forwarding).toBe('h');
    keyFrameRequests.length = 0;
    forwarder.requestKeyFrame(1300);
    forwarder.requestKeyFrame(1400);
    forwarder.requestKeyFrame(1600);
    expect(keyFrameRequests).toEqual(['h', 'h']);
  });

  it('subscribed before any media: the first key frame is forwarded at once (no wait for the next look)', () => {
    const { track } = simulcastTrack();
    const sent: number[] = [];
    const forwarder = new VideoForwarder(track, { send: (packet) => sent.push(packet.header.sequenceNumber), switched: () => undefined });
    forwarder.update(DEFAULT_LAYER_SETTINGS, 1000);
    expect(forwarder.forwarding).toBeUndefined();
    const packet = vp8(7, true);
    track.push(packet, 'h', 1010);
    forwarder.handle(packet, 'h', 1010);
    expect(sent).toEqual([7]);
  });

  it('when the forwarded layer stops arriving the subscriber moves to a layer that still does', () => {
    const { track } = simulcastTrack();
    const sent: number[] = [];
    const forwarder = new VideoForwarder(track, { send: (packet) => sent.push(packet.header.sequenceNumber), switched: () => undefined });
    track.push(vp8(100, true), 'h', 1000);
    forwarder.handle(vp8(100, true), 'h', 1000);
    // Only the low layer from now on (the publisher dropped its high layer).
    for (let index = 1; index <= 60; index++) {
      const packet = vp8(index, index === 50);
      track.push(packet, 'q', 1000 + index * 33);
      forwarder.handle(packet, 'q', 1000 + index * 33);
    }
    expect(forwarder.forwarding).toBe('q');
    expect(sent).toEqual([100, ...Array.from({ length: 11 }, (_, index) => 50 + index)]);
  });
});

describe('dynacast: the publisher hears the best quality its subscribers get', () => {
  it('the best quality over the forwarders, lowered when the best one asks for less, none once they close', () => {
    const { track } = simulcastTrack();
    const heard: Array<VideoQuality | undefined> = [];
    track.onWantedQuality((best) => heard.push(best));
    const output = { send: () => undefined, switched: () => undefined };
    const first = new VideoForwarder(track, output);
    const second = new VideoForwarder(track, output);
    second.update({ ...DEFAULT_LAYER_SETTINGS, quality: VideoQuality.LOW });
    // The best layer announced is MEDIUM (`h`): that is what a default subscriber gets.
    expect(heard).toEqual([VideoQuality.MEDIUM]);
    first.update({ ...DEFAULT_LAYER_SETTINGS, width: 320, height: 180 });
    expect(heard).toEqual([VideoQuality.MEDIUM, VideoQuality.LOW]);
    first.update({ ...DEFAULT_LAYER_SETTINGS, disabled: true });
    second.close();
    expect(heard).toEqual([VideoQuality.MEDIUM, VideoQuality.LOW, undefined]);
  });

  it('the notice enables the qualities up to the best, per codec too, and keeps the lowest on with no subscriber', () => {
    const enabled = (update: ReturnType<typeof subscribedQualityUpdate>) => update.subscribedQualities.map((quality) => quality.enabled);
    const medium = subscribedQualityUpdate('TR_1', 'video/VP8', VideoQuality.MEDIUM);
    expect(enabled(medium)).toEqual([true, true, false]);
    expect(medium.subscribedCodecs.map((codec) => [codec.codec, codec.qualities.map((quality) => quality.enabled)])).toEqual([['vp8', [true, true, false]]]);
    expect(enabled(subscribedQualityUpdate('TR_1', 'video/H264', undefined))).toEqual([true, false, false]);
  });
});
