/**
 * Child process of video-forward.bench.ts: for each room, one `@livekit/rtc-node` publisher and one subscriber. In
 * `video` mode the publisher sends a 640x360 camera at 30 fps (no simulcast: one forwarded stream per room), each frame
 * stamped with its index (`paintFrame`); the subscriber decodes it, and in the first room reads each frame's stamp to
 * time publisher frame -> subscriber frame. In `audio` mode (the baseline) the publisher sends a 48 kHz tone instead.
 * Input: VIDEO_LOAD_URL, VIDEO_LOAD_MODE (`video` | `audio`), VIDEO_LOAD_TOKENS (JSON array of [publisher, subscriber]).
 * Prints `ready` once every subscriber receives media, then on SIGTERM `result <json>`: frames received per room and
 * the first room's latencies in ms.
 */
import {
  AudioFrame,
  AudioSource,
  AudioStream,
  LocalAudioTrack,
  LocalVideoTrack,
  Room,
  RoomEvent,
  TrackKind,
  TrackPublishOptions,
  TrackSource,
  VideoBufferType,
  VideoFrame,
  VideoSource,
  VideoStream,
  type RemoteTrack,
} from '@livekit/rtc-node';
import { paintFrame, readFrameStamp, sineTone } from '@palaver/sdk-core/testing';

const WIDTH = 640;
const HEIGHT = 360;
const FPS = 30;
const url = process.env.VIDEO_LOAD_URL!;
const mode = process.env.VIDEO_LOAD_MODE === 'audio' ? 'audio' : 'video';
const pairs = JSON.parse(process.env.VIDEO_LOAD_TOKENS ?? '[]') as Array<[string, string]>;
const rooms: Room[] = [];
const received: number[] = pairs.map(() => 0);
const latencies: number[] = [];
/** When each stamped frame of the first room was captured (performance.now()), by stamp. */
const sentAt = new Map<number, number>();
let stopping = false;

/**
 * Pre-painted frames (painting 640x360 RGBA in JS each frame would load this process): stamps cycle through them. Below
 * the stamp band each frame carries fresh noise, so the encoder spends a camera's bitrate instead of coding a still.
 */
const STAMPS = 256;
const painted = mode === 'video' ? Array.from({ length: STAMPS }, (_, stamp) => withNoise(paintFrame(WIDTH, HEIGHT, [230, 120, 30], stamp), stamp)) : [];

function withNoise(frame: Uint8Array, stamp: number): Uint8Array {
  let seed = (stamp + 1) * 2_654_435_761;
  for (let offset = WIDTH * 4 * Math.round(HEIGHT / 6); offset < frame.length; offset += 4) {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    const delta = (seed >>> 24) - 128;
    for (let channel = 0; channel < 3; channel++) frame[offset + channel] = Math.max(0, Math.min(255, frame[offset + channel]! + (delta >> 1)));
  }
  return frame;
}

async function publishVideo(room: Room, timed: boolean): Promise<void> {
  const source = new VideoSource(WIDTH, HEIGHT);
  await room.localParticipant!.publishTrack(
    LocalVideoTrack.createVideoTrack('camera', source),
    new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, simulcast: false }),
  );
  let index = 0;
  const started = performance.now();
  const next = () => {
    if (stopping) return;
    const stamp = index % STAMPS;
    if (timed) sentAt.set(stamp, performance.now());
    source.captureFrame(new VideoFrame(painted[stamp]!, WIDTH, HEIGHT, VideoBufferType.RGBA), BigInt(Math.round(performance.now() * 1000)));
    index += 1;
    setTimeout(next, Math.max(0, started + (index * 1000) / FPS - performance.now()));
  };
  next();
}

async function publishAudio(room: Room): Promise<void> {
  const tone = sineTone(440, 48_000, 1000, 0.4);
  const source = new AudioSource(48_000, 1);
  await room.localParticipant!.publishTrack(
    LocalAudioTrack.createAudioTrack('mic', source),
    new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }),
  );
  void (async () => {
    for (let index = 0; !stopping; index = (index + 1) % 100) {
      await source.captureFrame(new AudioFrame(tone.slice(index * 480, index * 480 + 480), 48_000, 1, 480));
    }
  })();
}

async function consume(track: RemoteTrack, roomIndex: number, timed: boolean): Promise<void> {
  if (track.kind === TrackKind.KIND_AUDIO) {
    const reader = new AudioStream(track, { sampleRate: 48_000, numChannels: 1 }).getReader();
    while (!stopping) {
      const { done } = await reader.read();
      if (done) return;
      received[roomIndex]! += 1;
    }
    return;
  }
  const reader = new VideoStream(track).getReader();
  while (!stopping) {
    const { value, done } = await reader.read();
    if (done) return;
    received[roomIndex]! += 1;
    if (!timed) continue;
    const now = performance.now();
    const rgba = value.frame.convert(VideoBufferType.RGBA);
    const sent = sentAt.get(readFrameStamp(rgba.data, rgba.width, rgba.height));
    // A stamp comes round again every 256 frames (8.5 s): only a recent capture time is this frame's.
    if (sent !== undefined && now - sent < 2000) latencies.push(now - sent);
  }
}

async function pair([publisherToken, subscriberToken]: [string, string], roomIndex: number): Promise<void> {
  const publisher = new Room();
  const subscriber = new Room();
  rooms.push(publisher, subscriber);
  const timed = roomIndex === 0 && mode === 'video';
  subscriber.on(RoomEvent.TrackSubscribed, (track) => void consume(track, roomIndex, timed));
  await subscriber.connect(url, subscriberToken, { autoSubscribe: true, dynacast: false });
  await publisher.connect(url, publisherToken, { autoSubscribe: false, dynacast: false });
  if (mode === 'video') await publishVideo(publisher, timed);
  else await publishAudio(publisher);
}

await Promise.all(pairs.map((tokens, index) => pair(tokens, index)));
const deadline = Date.now() + 30_000;
while (received.some((count) => count === 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
console.log(received.some((count) => count === 0) ? 'failed' : 'ready');
let markReceived = [...received];
process.on('SIGUSR2', () => {
  // Start of the measured window: counts and latencies from here on.
  markReceived = [...received];
  latencies.length = 0;
});
process.on('SIGTERM', () => {
  stopping = true;
  console.log(`result ${JSON.stringify({ frames: received.map((count, index) => count - markReceived[index]!), latencies })}`);
  void Promise.all(rooms.map((room) => room.disconnect())).finally(() => process.exit(0));
  setTimeout(() => process.exit(0), 3000).unref();
});
