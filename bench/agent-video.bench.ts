/**
 * Video to the agent on the embedded endpoint (`pnpm bench agent-video`, decision 0117): an `@livekit/rtc-node` camera
 * (640x360, 30 fps, no simulcast, each frame stamped with its index) read by the in-process agent's
 * `RemoteVideoTrack.frames()`, which the platform decodes with a supervised ffmpeg child:
 *  - publisher frame -> agent RGBA frame latency p50/p95 (includes rtc-node's VP8 encoding and the forwarding);
 *  - the decoder's CPU (the ffmpeg child's, from /proc) in % of a core per stream, reading every frame and at
 *    `maxFps: 0.5` (what a vision graph's FPS node asks for);
 *  - the encoder's CPU (ffmpeg, VP8) when the agent publishes 640x360 frames at 30 fps (`publishVideo`).
 * The publisher encodes in this process, so the process's own CPU is not the platform's: only the child's is printed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { LocalVideoTrack, Room, TrackPublishOptions, TrackSource, VideoBufferType, VideoFrame, VideoSource } from '@livekit/rtc-node';
import { createServer } from '@palaver/sdk-core/server';
import { paintFrame, readFrameStamp } from '@palaver/sdk-core/testing';
import { fixed, median, percentile } from './statistics.js';

const WIDTH = 640;
const HEIGHT = 360;
const MEASURE_MS = Number(process.env.AGENT_VIDEO_BENCH_MS ?? 8000);
const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by this process's ffmpeg children (utime + stime from /proc). */
function ffmpegChildrenCpuSeconds(): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== process.pid || !stat.includes('(ffmpeg)')) continue;
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / TICKS_PER_SECOND;
}

const server = await createServer({ env: {}, config: { logLevel: 'silent' } });
await server.listen(0, '127.0.0.1');
const media = server.services.media;
const load = () =>
  loadavg()
    .map((value) => fixed(value, 2))
    .join(' ');

async function measure(maxFps: number | undefined): Promise<{ latencies: number[]; frames: number; cpuPercent: number }> {
  const room = `agent_video_bench_${maxFps ?? 'all'}`;
  await media.transport.ensureRoom({ room });
  const agent = await media.transport.join({ room });
  const human = new Room();
  await human.connect(media.clientUrl(), await media.createJoinToken({ room, identity: 'camera' }), { autoSubscribe: false, dynacast: false });
  const source = new VideoSource(WIDTH, HEIGHT);
  const sentAt = new Map<number, number>();
  let index = 0;
  const camera = setInterval(() => {
    const stamp = index++ & 0xffff;
    sentAt.set(stamp, performance.now());
    source.captureFrame(new VideoFrame(paintFrame(WIDTH, HEIGHT, [200, 120, 40], stamp), WIDTH, HEIGHT, VideoBufferType.RGBA));
  }, 1000 / 30);
  const offered = new Promise<Parameters<Parameters<typeof agent.on<'videoTrack'>>[1]>[0]>((resolve) => agent.on('videoTrack', resolve));
  await human.localParticipant!.publishTrack(
    LocalVideoTrack.createVideoTrack('camera', source),
    new TrackPublishOptions({ source: TrackSource.SOURCE_CAMERA, simulcast: false }),
  );
  const track = await offered;
  const latencies: number[] = [];
  let frames = 0;
  let measuring = false;
  let cpuAtStart = 0;
  const reading = (async () => {
    for await (const frame of track.frames(maxFps === undefined ? {} : { maxFps })) {
      const sent = sentAt.get(readFrameStamp(frame.rgba, frame.width, frame.height));
      if (!measuring) continue;
      frames += 1;
      if (sent !== undefined) latencies.push(performance.now() - sent);
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  measuring = true;
  cpuAtStart = ffmpegChildrenCpuSeconds();
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
  const cpuPercent = ((ffmpegChildrenCpuSeconds() - cpuAtStart) / ((performance.now() - started) / 1000)) * 100;
  measuring = false;
  clearInterval(camera);
  await human.disconnect();
  await agent.leave();
  await reading;
  await media.transport.deleteRoom(room);
  return { latencies, frames: (frames * 1000) / MEASURE_MS, cpuPercent };
}

for (const maxFps of [undefined, 0.5]) {
  const { latencies, frames, cpuPercent } = await measure(maxFps);
  console.log(
    `agent video 640x360 30 fps, frames(${maxFps === undefined ? '' : `{ maxFps: ${maxFps} }`}): ${fixed(frames)} frames/s to the agent, ` +
      `latency p50 ${fixed(median(latencies))} ms p95 ${fixed(percentile(latencies, 95))} ms (${latencies.length} frames), ` +
      `ffmpeg decoder ${fixed(cpuPercent)} % of a core; load average ${load()}`,
  );
}
{
  const room = 'agent_video_bench_publish';
  await media.transport.ensureRoom({ room });
  const agent = await media.transport.join({ room });
  const output = await agent.publishVideo({ width: WIDTH, height: HEIGHT });
  let index = 0;
  let writing = true;
  const writer = (async () => {
    const started = performance.now();
    while (writing) {
      await output.write({ width: WIDTH, height: HEIGHT, rgba: paintFrame(WIDTH, HEIGHT, [40, 90, 200], index & 0xffff), timestampMs: Date.now() });
      index += 1;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + (index * 1000) / 30 - performance.now())));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const cpuAtStart = ffmpegChildrenCpuSeconds();
  const framesAtStart = index;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, MEASURE_MS));
  const seconds = (performance.now() - started) / 1000;
  const cpuPercent = ((ffmpegChildrenCpuSeconds() - cpuAtStart) / seconds) * 100;
  console.log(
    `agent video out 640x360, ${fixed((index - framesAtStart) / seconds)} frames/s written: ffmpeg VP8 encoder ${fixed(cpuPercent)} % of a core; load average ${load()}`,
  );
  writing = false;
  await writer;
  await output.close();
  await agent.leave();
}
await server.close();
process.exit(0);
