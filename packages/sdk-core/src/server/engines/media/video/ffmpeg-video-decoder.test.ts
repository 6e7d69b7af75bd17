import { execFileSync, spawnSync } from 'node:child_process';
import { H264Packetizer } from 'werift';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../../../../tests/support/components.js';
import { eventually } from '../../../../testing/media-test-support.js';
import { RtpVideoFrames } from '../embedded/agent/rtp-video-frames.js';
import { FfmpegVideoDecoder, type EncodedVideoFrame } from './ffmpeg-video-decoder.js';
import { FfmpegVp8Encoder } from './ffmpeg-vp8-encoder.js';
import { meanColour, solidFrame, type VideoFrame } from './video-frame.js';

const hasFfmpeg = spawnSync('ffmpeg', ['-version']).status === 0;
const TEAL = [20, 150, 160] as const;
const ORANGE = [230, 130, 40] as const;

const near = (colour: readonly number[], expected: readonly number[]) => colour.every((value, index) => Math.abs(value - expected[index]!) < 20);

/** VP8 pictures of one colour, made by the platform's own encoder, written ~30 a second (a key frame each second). */
async function vp8Pictures(count: number, width = 320, height = 180, colour: readonly [number, number, number] = TEAL): Promise<EncodedVideoFrame[]> {
  const pictures: EncodedVideoFrame[] = [];
  const encoder = new FfmpegVp8Encoder({ width, height, onFrame: (data, keyFrame) => pictures.push({ data, keyFrame }) });
  for (let index = 0; index < count; index++) {
    await encoder.write(solidFrame(width, height, colour, index * 33));
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await eventually(() => expect(pictures.length).toBe(count), 20_000);
  encoder.close();
  return pictures;
}

/** H.264 access units (Annex-B) of one colour, as a browser sends them: SPS/PPS before each key frame. */
function h264AccessUnits(count: number): Buffer[] {
  const colour = TEAL.map((value) => value.toString(16).padStart(2, '0')).join('');
  const stream = execFileSync('ffmpeg', [
    ...['-loglevel', 'error', '-f', 'lavfi', '-i', `color=c=0x${colour}:size=320x180:rate=30`, '-frames:v', String(count)],
    ...['-c:v', 'libx264', '-profile:v', 'baseline', '-pix_fmt', 'yuv420p', '-x264-params', 'keyint=15:repeat-headers=1'],
    ...['-bsf:v', 'h264_metadata=aud=insert', '-f', 'h264', 'pipe:1'],
  ]);
  const delimiter = Buffer.from([0, 0, 0, 1, 9]);
  const units: Buffer[] = [];
  let start = stream.indexOf(delimiter);
  while (start >= 0) {
    const next = stream.indexOf(delimiter, start + delimiter.length);
    units.push(stream.subarray(start, next < 0 ? stream.length : next));
    start = next;
  }
  return units;
}

describe('FfmpegVideoDecoder (Debian ffmpeg as a supervised child)', () => {
  it('decodes VP8 to RGBA of the colour sent, and starts again at the next key frame when ffmpeg dies', async (context) => {
    if (!requireComponent('ffmpeg', hasFfmpeg, 'video is decoded by Debian ffmpeg')) return context.skip();
    const pictures = await vp8Pictures(50);
    expect(pictures[0]!.keyFrame).toBe(true);
    const frames: VideoFrame[] = [];
    let keyFrameRequests = 0;
    const decoder = new FfmpegVideoDecoder({ codec: 'vp8', onFrame: (frame) => frames.push(frame), onNeedKeyFrame: () => (keyFrameRequests += 1) });
    try {
      // A delta picture first: nothing to start from, a key frame is asked for.
      decoder.push(pictures[1]!);
      expect(keyFrameRequests).toBe(1);
      for (const picture of pictures.slice(0, 10)) decoder.push(picture);
      await eventually(() => expect(frames.length).toBe(10), 20_000);
      expect(frames[9]).toMatchObject({ width: 320, height: 180 });
      expect(frames[9]!.rgba.length).toBe(320 * 180 * 4);
      expect(meanColour(frames[9]!)).toSatisfy((colour: number[]) => near(colour, TEAL));

      (decoder as unknown as { child: { kill(signal: string): void } }).child.kill('SIGKILL');
      await eventually(() => expect(keyFrameRequests).toBe(2), 10_000);
      const before = frames.length;
      const nextKey = pictures.findIndex((picture, index) => index > 10 && picture.keyFrame);
      expect(nextKey).toBeGreaterThan(10);
      for (const picture of pictures.slice(nextKey, nextKey + 5)) decoder.push(picture);
      await eventually(() => expect(frames.length).toBe(before + 5), 20_000);
      expect(decoder.starts).toBe(2);
      expect(meanColour(frames.at(-1)!)).toSatisfy((colour: number[]) => near(colour, TEAL));
    } finally {
      decoder.close();
    }
  });

  it('keeps decoding across a camera switch: a key frame of another size and colour starts ffmpeg again, pictures of the new size', async (context) => {
    if (!requireComponent('ffmpeg', hasFfmpeg, 'video is decoded by Debian ffmpeg')) return context.skip();
    const [first, second] = await Promise.all([vp8Pictures(10), vp8Pictures(10, 640, 360, ORANGE)]);
    expect(second[0]!.keyFrame).toBe(true);
    const frames: VideoFrame[] = [];
    let keyFrameRequests = 0;
    const decoder = new FfmpegVideoDecoder({ codec: 'vp8', onFrame: (frame) => frames.push(frame), onNeedKeyFrame: () => (keyFrameRequests += 1) });
    try {
      for (const picture of first) decoder.push(picture);
      await eventually(() => expect(frames.length).toBe(10), 20_000);
      // Left to one ffmpeg, the new camera's pictures would come out scaled to 320x180.
      for (const picture of second) decoder.push(picture);
      await eventually(() => expect(frames.at(-1)).toMatchObject({ width: 640, height: 360 }), 20_000);
      await eventually(() => expect(frames.filter((frame) => frame.width === 640)).toHaveLength(10), 20_000);
      expect(frames.at(-1)!.rgba.length).toBe(640 * 360 * 4);
      expect(meanColour(frames.at(-1)!)).toSatisfy((colour: number[]) => near(colour, ORANGE));
      expect(decoder.starts).toBe(2);
      expect(keyFrameRequests).toBe(0);
    } finally {
      decoder.close();
    }
  });

  it('decodes H.264 put back together from RTP (werift packetizer -> RtpVideoFrames) to the colour sent', async (context) => {
    if (!requireComponent('ffmpeg', hasFfmpeg, 'video is decoded by Debian ffmpeg')) return context.skip();
    const units = h264AccessUnits(20);
    expect(units.length).toBe(20);
    const frames: VideoFrame[] = [];
    const decoder = new FfmpegVideoDecoder({ codec: 'h264', onFrame: (frame) => frames.push(frame), onNeedKeyFrame: () => undefined });
    const assembler = new RtpVideoFrames(
      'h264',
      (picture) => decoder.push(picture),
      () => undefined,
    );
    const packetizer = new H264Packetizer({ payloadType: 102, ssrc: 1234, sequenceNumber: 100 });
    try {
      units.forEach((unit, index) => {
        for (const packet of packetizer.packetize(unit, index * 3000)) assembler.push(packet);
      });
      // ffmpeg's H.264 decoder holds a picture or two back until the next arrives: most come out.
      await eventually(() => expect(frames.length).toBeGreaterThanOrEqual(15), 20_000);
      expect(frames.at(-1)).toMatchObject({ width: 320, height: 180 });
      expect(meanColour(frames.at(-1)!)).toSatisfy((colour: number[]) => near(colour, TEAL));
    } finally {
      decoder.close();
    }
  });
});
