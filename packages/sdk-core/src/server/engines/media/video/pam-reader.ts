import type { VideoFrame } from './video-frame.js';

const END_OF_HEADER = Buffer.from('ENDHDR\n');

/**
 * Reads RGBA pictures out of a stream of PAM images (what ffmpeg writes with `-f image2pipe -c:v pam -pix_fmt rgba`):
 * each picture carries its own size, so a publisher that changes resolution mid-stream needs nothing special.
 *
 * @example
 * const reader = new PamReader((frame) => queue.push(frame));
 * child.stdout.on('data', (chunk) => reader.push(chunk));
 */
export class PamReader {
  private buffer: Buffer = Buffer.alloc(0);
  private picture: { width: number; height: number; depth: number } | undefined;

  constructor(private readonly onFrame: (frame: VideoFrame) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (!this.picture) {
        const end = this.buffer.indexOf(END_OF_HEADER);
        if (end < 0) return;
        this.picture = parseHeader(this.buffer.subarray(0, end).toString('latin1'));
        this.buffer = this.buffer.subarray(end + END_OF_HEADER.length);
      }
      const { width, height, depth } = this.picture;
      const bytes = width * height * depth;
      if (this.buffer.length < bytes) return;
      const pixels = this.buffer.subarray(0, bytes);
      this.buffer = this.buffer.subarray(bytes);
      this.picture = undefined;
      if (depth === 4) this.onFrame({ width, height, rgba: new Uint8Array(pixels), timestampMs: Date.now() });
    }
  }
}

function parseHeader(text: string): { width: number; height: number; depth: number } {
  const field = (name: string): number => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
  return { width: field('WIDTH'), height: field('HEIGHT'), depth: field('DEPTH') };
}
