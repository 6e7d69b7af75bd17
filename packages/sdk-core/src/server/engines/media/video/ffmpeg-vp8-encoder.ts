import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { setPriority } from 'node:os';
import { isVp8KeyFrame, IvfReader } from './ivf.js';
import { ffmpegProgram } from '../ffmpeg/run-ffmpeg.js';
import type { VideoFrame } from './video-frame.js';

export interface Vp8EncoderOptions {
  /** The size of the pictures sent; frames of another size are scaled to it. */
  width: number;
  height: number;
  /** Target bitrate in kbit/s (default 800). */
  bitrateKbps?: number;
  /** Each encoded picture, in the order written. */
  onFrame: (data: Buffer, keyFrame: boolean) => void;
  onFailed?: (message: string) => void;
}

/** A key frame at least this often, so a subscriber that joins (or lost a picture) waits at most this long. */
const KEY_FRAME_SECONDS = 1;
const ENCODER_NICENESS = 10;

/**
 * RGBA pictures to VP8 with Debian's ffmpeg (libvpx, realtime settings: `-deadline realtime -cpu-used 8
 * -lag-in-frames 0`, error resilient, a key frame every second), as a child process fed raw RGBA on stdin whose IVF
 * output is read frame by frame. Pictures are stamped with the wall clock as they are written, so a writer may send
 * at any rate. A frame of another size than the last restarts ffmpeg (the output keeps the track's size).
 *
 * @example
 * const encoder = new FfmpegVp8Encoder({ width: 640, height: 360, onFrame: (data, key) => packetize(data, key) });
 * await encoder.write(frame);
 */
export class FfmpegVp8Encoder {
  private child: ChildProcessWithoutNullStreams | undefined;
  private inputSize = '';
  private closed = false;

  constructor(private readonly options: Vp8EncoderOptions) {}

  async write(frame: VideoFrame): Promise<void> {
    if (this.closed) return;
    const size = `${frame.width}x${frame.height}`;
    if (this.child && this.inputSize !== size) this.stop();
    const child = this.child ?? this.start(size);
    if (child.stdin.destroyed) return;
    if (!child.stdin.write(frame.rgba)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          child.stdin.off('drain', done).off('close', done);
          resolve();
        };
        child.stdin.on('drain', done).on('close', done);
      });
    }
  }

  close(): void {
    this.closed = true;
    this.stop();
  }

  private start(inputSize: string): ChildProcessWithoutNullStreams {
    const { width, height } = this.options;
    const even = (value: number): number => Math.max(2, value - (value % 2));
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-use_wallclock_as_timestamps', '1'];
    args.push('-f', 'rawvideo', '-pix_fmt', 'rgba', '-s', inputSize, '-i', 'pipe:0', '-vf', `scale=${even(width)}:${even(height)}`);
    args.push('-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-lag-in-frames', '0', '-error-resilient', '1', '-threads', '1');
    args.push('-b:v', `${this.options.bitrateKbps ?? 800}k`, '-force_key_frames', `expr:gte(t,n_forced*${KEY_FRAME_SECONDS})`, '-pix_fmt', 'yuv420p');
    args.push('-fps_mode', 'passthrough', '-flush_packets', '1', '-f', 'ivf', 'pipe:1');
    const child = spawn(ffmpegProgram(), args, { stdio: ['pipe', 'pipe', 'pipe'] });
    try {
      if (child.pid !== undefined) setPriority(child.pid, ENCODER_NICENESS);
    } catch {
      // Not allowed to change priority here: encoding still works.
    }
    this.child = child;
    this.inputSize = inputSize;
    const reader = new IvfReader((data) => this.options.onFrame(data, isVp8KeyFrame(data)));
    const errors: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => void errors.push(chunk.toString()));
    child.stdin.on('error', () => undefined);
    child.once('error', (error: NodeJS.ErrnoException) =>
      this.options.onFailed?.(error.code === 'ENOENT' ? `ffmpeg is not installed (looked for '${ffmpegProgram()}')` : error.message),
    );
    child.once('close', (code) => {
      if (this.child !== child) return;
      // ffmpeg died: the next write starts a new one.
      this.child = undefined;
      if (!this.closed) this.options.onFailed?.(`ffmpeg exited (${code ?? 'killed'}): ${errors.join('').trim().slice(0, 300)}`);
    });
    return child;
  }

  private stop(): void {
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    child.stdin.end();
    // Whatever it still has is not wanted once closed; a size change lets it finish its last pictures.
    if (this.closed) child.kill('SIGKILL');
    else setTimeout(() => child.kill('SIGKILL'), 2000).unref();
  }
}
