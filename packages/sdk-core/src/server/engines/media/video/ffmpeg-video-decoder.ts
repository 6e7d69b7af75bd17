import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { setPriority } from 'node:os';
import { ivfFileHeader, ivfFrame, vp8KeyFrameSize } from './ivf.js';
import { ffmpegProgram } from '../ffmpeg/run-ffmpeg.js';
import { PamReader } from './pam-reader.js';
import type { VideoFrame } from './video-frame.js';

/** The codecs a camera or screen share arrives in. */
export type EncodedVideoCodec = 'vp8' | 'h264';

/** One compressed picture, as the depacketizer put it together (VP8 frame, or H.264 access unit in Annex-B). */
export interface EncodedVideoFrame {
  data: Uint8Array;
  keyFrame: boolean;
}

export interface VideoDecoderOptions {
  codec: EncodedVideoCodec;
  /** At most this many pictures per second come out (ffmpeg's `select` drops the others before the RGBA conversion). */
  maxFps?: number;
  onFrame: (frame: VideoFrame) => void;
  /** The decoder (re)started or lost input: the publisher should send a key frame. */
  onNeedKeyFrame: () => void;
  /** The decoder crashed too often and gave up. */
  onFailed?: (message: string) => void;
}

/** Restarts allowed in {@link RESTART_WINDOW_MS} before the decoder gives up. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
/** Input waiting in the pipe beyond this means ffmpeg cannot keep up: the decoder starts again at the next key frame. */
const MAX_PENDING_INPUT_BYTES = 4 * 1024 * 1024;
/** The child runs below the server's priority so decoding never starves the audio on the same cores. */
const DECODER_NICENESS = 10;

/**
 * A video decoder in Debian's ffmpeg, supervised: compressed pictures in on stdin (VP8 in IVF, H.264 in Annex-B),
 * RGBA pictures out on stdout (PAM images, each with its size). It starts at the first key frame, starts again at a
 * VP8 key frame of another size (ffmpeg would keep scaling to the first), restarts (and asks for a key frame) when
 * ffmpeg dies or falls behind, and is killed by {@link close}. ffmpeg runs one thread, at low
 * priority, probing nothing (`-probesize 32 -analyzeduration 0`), so a picture comes out as soon as it is decoded
 * (`-fflags nobuffer` would lose the first group of pictures).
 *
 * @example
 * const decoder = new FfmpegVideoDecoder({ codec: 'vp8', maxFps: 1, onFrame: (frame) => queue.push(frame), onNeedKeyFrame: () => track.requestKeyFrame() });
 * decoder.push({ data: vp8Frame, keyFrame: true });
 */
export class FfmpegVideoDecoder {
  private child: ChildProcessWithoutNullStreams | undefined;
  private restarts: number[] = [];
  private closed = false;
  private failed = false;
  private started = 0;
  /** The picture size the running ffmpeg was started with (VP8: its first key frame's). */
  private size: { width: number; height: number } | undefined;

  constructor(private readonly options: VideoDecoderOptions) {}

  /** How many times ffmpeg was started (the first start counts). */
  get starts(): number {
    return this.started;
  }

  push(frame: EncodedVideoFrame): void {
    if (this.closed || this.failed) return;
    // Another size (a camera switch): ffmpeg would scale every later picture to the first size, so it starts again.
    if (this.child && frame.keyFrame && this.resized(frame)) this.stop(this.child);
    if (!this.child) {
      if (!frame.keyFrame) {
        this.options.onNeedKeyFrame();
        return;
      }
      this.start(frame);
    }
    const child = this.child;
    if (!child) return;
    if (child.stdin.writableLength > MAX_PENDING_INPUT_BYTES) {
      this.stop(child);
      this.options.onNeedKeyFrame();
      return;
    }
    child.stdin.write(this.options.codec === 'vp8' ? ivfFrame(frame.data, Date.now()) : frame.data);
  }

  close(): void {
    this.closed = true;
    if (this.child) this.stop(this.child);
  }

  private start(first: EncodedVideoFrame): void {
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-threads', '1'];
    args.push('-probesize', '32', '-analyzeduration', '0', '-use_wallclock_as_timestamps', '1');
    args.push('-f', this.options.codec === 'vp8' ? 'ivf' : 'h264', '-i', 'pipe:0');
    const maxFps = this.options.maxFps;
    if (maxFps !== undefined && maxFps > 0) {
      args.push('-vf', `select='isnan(prev_selected_t)+gte(t-prev_selected_t\\,${(1 / maxFps).toFixed(4)})'`);
    }
    args.push('-fps_mode', 'passthrough', '-f', 'image2pipe', '-c:v', 'pam', '-pix_fmt', 'rgba', '-flush_packets', '1', 'pipe:1');
    const child = spawn(ffmpegProgram(), args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    this.started += 1;
    try {
      if (child.pid !== undefined) setPriority(child.pid, DECODER_NICENESS);
    } catch {
      // Not allowed to change priority here: decoding still works.
    }
    const reader = new PamReader((frame) => {
      if (this.child === child && !this.closed) this.options.onFrame(frame);
    });
    const errors: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => reader.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => void errors.push(chunk.toString()));
    child.stdin.on('error', () => undefined);
    child.once('error', (error: NodeJS.ErrnoException) => {
      this.giveUp(error.code === 'ENOENT' ? `ffmpeg is not installed (looked for '${ffmpegProgram()}')` : error.message);
    });
    child.once('close', (code) => {
      if (this.child !== child) return;
      this.child = undefined;
      if (this.closed) return;
      this.crashed(`ffmpeg exited (${code ?? 'killed'}): ${errors.join('').trim().slice(0, 300)}`);
    });
    if (this.options.codec === 'vp8') {
      this.size = vp8KeyFrameSize(first.data) ?? { width: 0, height: 0 };
      child.stdin.write(ivfFileHeader(this.size.width, this.size.height));
    }
  }

  /** Whether a VP8 key frame declares a size other than the running ffmpeg's (H.264 sizes are not looked at). */
  private resized(keyFrame: EncodedVideoFrame): boolean {
    if (this.options.codec !== 'vp8' || !this.size) return false;
    const size = vp8KeyFrameSize(keyFrame.data);
    return size !== undefined && (size.width !== this.size.width || size.height !== this.size.height);
  }

  private stop(child: ChildProcessWithoutNullStreams): void {
    if (this.child === child) this.child = undefined;
    child.stdin.destroy();
    child.kill('SIGKILL');
  }

  private crashed(message: string): void {
    const now = Date.now();
    this.restarts = this.restarts.filter((time) => now - time < RESTART_WINDOW_MS);
    this.restarts.push(now);
    if (this.restarts.length > MAX_RESTARTS) {
      this.giveUp(message);
      return;
    }
    // The next key frame starts a new ffmpeg.
    this.options.onNeedKeyFrame();
  }

  private giveUp(message: string): void {
    if (this.failed) return;
    this.failed = true;
    if (this.child) this.stop(this.child);
    this.options.onFailed?.(message);
  }
}
