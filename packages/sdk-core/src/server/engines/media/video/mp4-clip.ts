import { FfmpegError, runFfmpeg } from '../ffmpeg/run-ffmpeg.js';
import type { VideoFrame } from './video-frame.js';

/** Raised when a clip cannot be encoded: no ffmpeg, or ffmpeg failed (its message says why). */
export class ClipEncodingError extends Error {
  override readonly name = 'ClipEncodingError';
}

const ENCODE_TIMEOUT_MS = 30_000;

/** Frames per second of a clip, from its frames' timestamps (1 when they do not say). */
export function clipFramesPerSecond(frames: readonly VideoFrame[]): number {
  if (frames.length < 2) return 1;
  const span = frames.at(-1)!.timestampMs - frames[0]!.timestampMs;
  if (!(span > 0)) return 1;
  return Math.min(60, Math.max(0.1, ((frames.length - 1) * 1000) / span));
}

/**
 * A clip of frames as an MP4 file (H.264, yuv420p, fragmented so it can be written to a pipe), for models that
 * take `video_url` parts. ffmpeg runs as a child process fed raw RGBA on stdin, killed when the signal aborts or
 * after 30 s. Frames of another size than the first are left out (a camera that switched resolution mid-clip).
 */
export async function encodeMp4Clip(frames: readonly VideoFrame[], signal?: AbortSignal): Promise<Buffer> {
  const first = frames[0];
  if (!first) throw new ClipEncodingError('A clip without frames cannot be encoded');
  const sameSize = frames.filter((frame) => frame.width === first.width && frame.height === first.height);
  const fps = clipFramesPerSecond(sameSize).toFixed(3);
  const size = `${first.width - (first.width % 2)}x${first.height - (first.height % 2)}`;
  const args = ['-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', `${first.width}x${first.height}`, '-r', fps, '-i', 'pipe:0'];
  args.push('-vf', `crop=${size.replace('x', ':')}:0:0`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  args.push('-movflags', 'frag_keyframe+empty_moov', '-f', 'mp4', 'pipe:1');
  try {
    return await runFfmpeg({ args, input: sameSize.map((frame) => frame.rgba), ...(signal ? { signal } : {}), timeoutMs: ENCODE_TIMEOUT_MS });
  } catch (error) {
    if (!(error instanceof FfmpegError)) throw error;
    throw new ClipEncodingError(error.missing ? error.message : `ffmpeg could not encode the clip: ${error.message}`, { cause: error });
  }
}
