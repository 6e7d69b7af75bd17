import { TrackSource as ProtocolTrackSource, TrackType } from '@livekit/protocol';
import {
  AudioFrame,
  AudioSource,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoCodec,
  VideoFrame,
  VideoSource,
  VideoStream,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { RoomServiceClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../../tests/support/test-server.js';
import { frameColour, paintFrame, readFrameStamp, type Rgb } from '../../../../testing/video-frames.js';
import { DEVELOPMENT_API_SECRET } from '../media-service.js';
import type { ClientSession } from './client-session.js';

const WIDTH = 640;
const HEIGHT = 360;
const ORANGE: Rgb = [230, 120, 30];

/** Paints and captures frames at ~30 fps until stopped; each frame's stamp is its index. */
function camera(source: VideoSource, colour: Rgb): { stop: () => void; sent: () => number } {
  let index = 0;
  const timer = setInterval(() => {
    const frame = new VideoFrame(paintFrame(WIDTH, HEIGHT, colour, index & 0xffff), WIDTH, HEIGHT, VideoBufferType.RGBA);
    source.captureFrame(frame, BigInt(Date.now()) * 1000n);
    index += 1;
  }, 33);
  return { stop: () => clearInterval(timer), sent: () => index };
}

/** Reads decoded frames of a remote video track: size, colour and stamp of each. */
async function receiveFrames(track: RemoteTrack, count: number): Promise<Array<{ width: number; height: number; colour: Rgb; stamp: number }>> {
  const reader = new VideoStream(track).getReader();
  const frames: Array<{ width: number; height: number; colour: Rgb; stamp: number }> = [];
  try {
    while (frames.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      const rgba = value.frame.convert(VideoBufferType.RGBA);
      frames.push({
        width: rgba.width,
        height: rgba.height,
        colour: frameColour(rgba.data, rgba.width, rgba.height),
        stamp: readFrameStamp(rgba.data, rgba.width, rgba.height),
      });
    }
  } finally {
    reader.releaseLock();
  }
  return frames;
}

function nextVideoTrack(room: Room): Promise<RemoteTrack> {
  return new Promise((resolve) => {
    const listener = (track: RemoteTrack) => {
      if (track.kind !== TrackKind.KIND_VIDEO) return;
      room.off(RoomEvent.TrackSubscribed, listener);
      resolve(track);
    };
    room.on(RoomEvent.TrackSubscribed, listener);
  });
}

/**
 * Camera and screen-share video between two unmodified `@livekit/rtc-node` clients through the embedded endpoint:
 * published, announced as LiveKit does (TrackInfo of type VIDEO with its size and layers), forwarded as RTP and decoded
 * on the other side with the colour and frame stamps sent, listed by RoomService, and gone when unpublished.
 */
describe('embedded media endpoint: video forwarding between rtc-node clients', () => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  it('a camera published by one client is decoded by the other at its size and colour, and RoomService lists the track', async () => {
    const media = test.server.services.media;
    const roomName = 'video_camera';
    media.endpoint!.rooms.ensure({ name: roomName });
    const publisher = new Room();
    const subscriber = new Room();
    const source = new VideoSource(WIDTH, HEIGHT);
    let capture: ReturnType<typeof camera> | undefined;
    try {
      await publisher.connect(media.clientUrl(), await media.createJoinToken({ room: roomName, identity: 'alice', name: 'Alice' }), {
        autoSubscribe: true,
        dynacast: false,
      });
      await subscriber.connect(media.clientUrl(), await media.createJoinToken({ room: roomName, identity: 'bob', name: 'Bob' }), {
        autoSubscribe: true,
        dynacast: false,
      });
      const subscribed = nextVideoTrack(subscriber);
      capture = camera(source, ORANGE);
      const publication = await publisher.localParticipant!.publishTrack(
        LocalVideoTrack.createVideoTrack('camera', source),
        new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, simulcast: true }),
      );
      const track = await subscribed;
      const frames = await receiveFrames(track, 20);
      expect(frames.at(-1)).toMatchObject({ width: WIDTH, height: HEIGHT });
      const [red, green, blue] = frames.at(-1)!.colour;
      expect(Math.abs(red - ORANGE[0])).toBeLessThan(30);
      expect(Math.abs(green - ORANGE[1])).toBeLessThan(30);
      expect(Math.abs(blue - ORANGE[2])).toBeLessThan(30);
      // Stamps are frame indexes the publisher sent: they grow and are not made up.
      const stamps = frames.map((frame) => frame.stamp);
      expect(stamps.at(-1)!).toBeGreaterThan(stamps[0]!);
      expect(stamps.at(-1)!).toBeLessThan(capture.sent());

      const rooms = new RoomServiceClient(media.clientUrl().replace(/^ws/, 'http'), 'devkey', DEVELOPMENT_API_SECRET);
      const alice = (await rooms.listParticipants(roomName)).find((participant) => participant.identity === 'alice')!;
      const video = alice.tracks.find((info) => info.sid === publication.sid)!;
      expect(video).toMatchObject({ type: TrackType.VIDEO, source: ProtocolTrackSource.CAMERA, width: WIDTH, height: HEIGHT, mimeType: 'video/VP8' });
      expect(video.simulcast).toBe(video.layers.length > 1);
      expect(video.layers.at(-1)).toMatchObject({ width: WIDTH, height: HEIGHT });

      // The subscriber is sent the publisher's best layer.
      const session = media.endpoint!.rooms.get(roomName)!.member('bob') as ClientSession;
      expect(session.forwardedLayer(publication.sid!)).toBe(video.layers.at(-1)!.rid);

      const unpublished = new Promise<void>((resolve) => subscriber.on(RoomEvent.TrackUnpublished, () => resolve()));
      await publisher.localParticipant!.unpublishTrack(publication.sid!);
      await unpublished;
      expect((await rooms.listParticipants(roomName)).find((participant) => participant.identity === 'alice')!.tracks).toEqual([]);
    } finally {
      capture?.stop();
      await Promise.all([publisher.disconnect(), subscriber.disconnect()]);
      await source.close();
    }
  });

  it('a screen share (H.264, no simulcast) arrives as SCREEN_SHARE with its size, and its audio as SCREEN_SHARE_AUDIO', async () => {
    const media = test.server.services.media;
    const roomName = 'video_screen';
    media.endpoint!.rooms.ensure({ name: roomName });
    const publisher = new Room();
    const subscriber = new Room();
    const source = new VideoSource(WIDTH, HEIGHT);
    const audio = new AudioSource(48_000, 1);
    let capture: ReturnType<typeof camera> | undefined;
    try {
      await publisher.connect(media.clientUrl(), await media.createJoinToken({ room: roomName, identity: 'carol' }), { autoSubscribe: true, dynacast: false });
      await subscriber.connect(media.clientUrl(), await media.createJoinToken({ room: roomName, identity: 'dan' }), { autoSubscribe: true, dynacast: false });
      const subscribedSources: TrackSource[] = [];
      subscriber.on(RoomEvent.TrackSubscribed, (_track, publication) => subscribedSources.push(publication.source!));
      const subscribed = nextVideoTrack(subscriber);
      capture = camera(source, [40, 60, 200]);
      const publication = await publisher.localParticipant!.publishTrack(
        LocalVideoTrack.createVideoTrack('screen', source),
        new TrackPublishOptions({ source: TrackSource.SOURCE_SCREENSHARE, simulcast: false, videoCodec: VideoCodec.H264 }),
      );
      const audioPublication = await publisher.localParticipant!.publishTrack(
        LocalAudioTrack.createAudioTrack('screen_audio', audio),
        new TrackPublishOptions({ source: TrackSource.SOURCE_SCREENSHARE_AUDIO }),
      );
      await audio.captureFrame(new AudioFrame(new Int16Array(480), 48_000, 1, 480));
      const track = await subscribed;
      const frames = await receiveFrames(track, 10);
      expect(frames.at(-1)).toMatchObject({ width: WIDTH, height: HEIGHT });
      expect(frames.at(-1)!.colour[2]).toBeGreaterThan(150);
      const tracks = media.endpoint!.rooms.get(roomName)!.member('carol')!.state.tracks;
      expect(tracks.get(publication.sid!)!.info.toJson()).toMatchObject({ type: 'VIDEO', source: 'SCREEN_SHARE', mimeType: 'video/H264' });
      expect(tracks.get(publication.sid!)!.info.simulcast).toBe(false);
      await expect.poll(() => tracks.get(audioPublication.sid!)?.info).toMatchObject({ type: TrackType.AUDIO, source: ProtocolTrackSource.SCREEN_SHARE_AUDIO });
      await expect.poll(() => subscribedSources.sort()).toEqual([TrackSource.SOURCE_SCREENSHARE, TrackSource.SOURCE_SCREENSHARE_AUDIO].sort());
      const session = media.endpoint!.rooms.get(roomName)!.member('dan') as ClientSession;
      expect(session.forwardedLayer(publication.sid!)).toBe('');
    } finally {
      capture?.stop();
      await Promise.all([publisher.disconnect(), subscriber.disconnect()]);
      await Promise.all([source.close(), audio.close()]);
    }
  });
});
