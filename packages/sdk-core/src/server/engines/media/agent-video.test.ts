import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import {
  LocalVideoTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame as LivekitVideoFrame,
  VideoSource,
  VideoStream,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../tests/support/test-server.js';
import { requireComponent } from '../../../../tests/support/components.js';
import { createLogger } from '../../kernel/logger.js';
import { frameColour, paintFrame, type Rgb } from '../../../testing/video-frames.js';
import type { AgentTransport, RemoteVideoTrack } from './agent-transport.js';
import { LivekitAgentTransport } from './livekit/livekit-agent-transport.js';
import { DEVELOPMENT_API_SECRET } from './media-service.js';
import { solidFrame, type VideoFrame } from './video/video-frame.js';

const WIDTH = 640;
const HEIGHT = 360;
const GREEN: Rgb = [40, 200, 60];
const PURPLE: Rgb = [150, 40, 190];
const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;

function near(colour: Rgb, expected: Rgb): boolean {
  return colour.every((value, channel) => Math.abs(value - expected[channel]!) < 30);
}

/** A human's camera on rtc-node: ~30 fps of one colour until stopped. */
function camera(source: VideoSource, colour: Rgb): () => void {
  let index = 0;
  const timer = setInterval(() => {
    source.captureFrame(new LivekitVideoFrame(paintFrame(WIDTH, HEIGHT, colour, index++ & 0xffff), WIDTH, HEIGHT, VideoBufferType.RGBA));
  }, 33);
  return () => clearInterval(timer);
}

/** The first `count` frames the agent reads off a remote video track. */
async function readFrames(track: RemoteVideoTrack, count: number, maxFps?: number): Promise<VideoFrame[]> {
  const frames: VideoFrame[] = [];
  for await (const frame of track.frames(maxFps === undefined ? {} : { maxFps })) {
    frames.push(frame);
    if (frames.length >= count) break;
  }
  return frames;
}

/**
 * Video to and from the agent through both agent transports, the human on `@livekit/rtc-node`: the embedded endpoint's
 * in-process agent (VP8 depacketized and decoded by ffmpeg, its own pictures encoded by ffmpeg and forwarded) and a
 * LiveKit deployment's agent (rtc-node's VideoStream/VideoSource; here against the embedded endpoint, which speaks
 * LiveKit's protocol). The same code reads and writes frames on both.
 */
describe.each(['embedded', 'livekit'] as const)('%s agent transport: video', (kind) => {
  let test: TestServer;
  let transport: AgentTransport;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const media = test.server.services.media;
    transport =
      kind === 'embedded'
        ? media.transport
        : new LivekitAgentTransport({ url: media.clientUrl(), apiKey: media.apiKey, apiSecret: DEVELOPMENT_API_SECRET, logger: createLogger('silent') });
  });

  afterAll(async () => {
    await transport?.close();
    await test?.close();
  });

  async function humanJoins(room: string): Promise<Room> {
    const human = new Room();
    const media = test.server.services.media;
    await human.connect(media.clientUrl(), await media.createJoinToken({ room, identity: 'human', name: 'Human' }), { autoSubscribe: true, dynacast: false });
    return human;
  }

  it('the agent gets the human camera as RGBA frames of its colour, with participant, name and source', async (context) => {
    if (kind === 'embedded' && !requireComponent('ffmpeg', hasFfmpeg, 'the embedded endpoint decodes video with Debian ffmpeg')) return context.skip();
    const room = `video_in_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const human = await humanJoins(room);
    const source = new VideoSource(WIDTH, HEIGHT);
    const stop = camera(source, GREEN);
    try {
      const offered = new Promise<RemoteVideoTrack>((resolve) => agent.on('videoTrack', resolve));
      await human.localParticipant!.publishTrack(
        LocalVideoTrack.createVideoTrack('agent-1:video', source),
        new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, simulcast: true }),
      );
      const track = await offered;
      expect(track).toMatchObject({ name: 'agent-1:video', source: 'camera', participant: { identity: 'human' } });
      expect(agent.videoTracks().map((listed) => listed.trackSid)).toEqual([track.trackSid]);
      const frames = await readFrames(track, 10);
      const last = frames.at(-1)!;
      expect(last.rgba.length).toBe(last.width * last.height * 4);
      expect(last.width).toBeGreaterThan(0);
      expect(frameColour(last.rgba, last.width, last.height)).toSatisfy((colour: Rgb) => near(colour, GREEN));
      // A reader that wants one frame a second still gets frames (the others are dropped before conversion).
      const slow = await readFrames(track, 2, 1);
      expect(frameColour(slow[1]!.rgba, slow[1]!.width, slow[1]!.height)).toSatisfy((colour: Rgb) => near(colour, GREEN));
      expect(slow[1]!.timestampMs - slow[0]!.timestampMs).toBeGreaterThan(500);
    } finally {
      stop();
      await human.disconnect();
      await agent.leave();
    }
  });

  it('frames the agent publishes reach an rtc-node subscriber as its video track', async (context) => {
    if (kind === 'embedded' && !requireComponent('ffmpeg', hasFfmpeg, 'the embedded endpoint encodes video with Debian ffmpeg')) return context.skip();
    const room = `video_out_${randomUUID().slice(0, 8)}`;
    await transport.ensureRoom({ room });
    const agent = await transport.join({ room });
    const human = await humanJoins(room);
    const subscribed = new Promise<RemoteTrack>((resolve) =>
      human.on(RoomEvent.TrackSubscribed, (track: RemoteTrack) => {
        if (track.kind === TrackKind.KIND_VIDEO) resolve(track);
      }),
    );
    const output = await agent.publishVideo({ name: 'agent_video', width: 320, height: 240 });
    const picture = solidFrame(320, 240, PURPLE);
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await output.write({ ...picture, timestampMs: Date.now() });
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();
    try {
      const track = await subscribed;
      expect(track.sid).toBe(output.trackSid);
      const reader = new VideoStream(track).getReader();
      let colour: Rgb = [0, 0, 0];
      let size = { width: 0, height: 0 };
      for (let index = 0; index < 5; index++) {
        const { value } = await reader.read();
        const rgba = value!.frame.convert(VideoBufferType.RGBA);
        colour = frameColour(rgba.data, rgba.width, rgba.height);
        size = { width: rgba.width, height: rgba.height };
      }
      reader.releaseLock();
      expect(size).toEqual({ width: 320, height: 240 });
      expect(near(colour, PURPLE)).toBe(true);
    } finally {
      writing = false;
      await writer;
      await output.close();
      await human.disconnect();
      await agent.leave();
    }
  });
});
