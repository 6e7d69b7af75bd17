/** IVF, the simple container ffmpeg reads and writes VP8 in: a 32-byte file header, then a 12-byte header per frame. */
const FILE_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 12;

/** An IVF file header for VP8 (time base 1/1000: frame timestamps are milliseconds). */
export function ivfFileHeader(width: number, height: number): Buffer {
  const header = Buffer.alloc(FILE_HEADER_BYTES);
  header.write('DKIF', 0, 'ascii');
  header.writeUInt16LE(0, 4);
  header.writeUInt16LE(FILE_HEADER_BYTES, 6);
  header.write('VP80', 8, 'ascii');
  header.writeUInt16LE(width, 12);
  header.writeUInt16LE(height, 14);
  header.writeUInt32LE(1000, 16);
  header.writeUInt32LE(1, 20);
  return header;
}

/** One frame as IVF carries it: its header (size, timestamp) and its bytes. */
export function ivfFrame(data: Uint8Array, timestamp: number): Buffer {
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt32LE(data.length, 0);
  header.writeBigUInt64LE(BigInt(Math.max(0, Math.round(timestamp))), 4);
  return Buffer.concat([header, data]);
}

/**
 * Reads the frames out of an IVF byte stream as it arrives in chunks (ffmpeg's encoder output on a pipe).
 *
 * @example
 * const reader = new IvfReader((frame) => packetize(frame));
 * child.stdout.on('data', (chunk) => reader.push(chunk));
 */
export class IvfReader {
  private buffer: Buffer = Buffer.alloc(0);
  private headerRead = false;

  constructor(private readonly onFrame: (frame: Buffer, timestamp: number) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    if (!this.headerRead) {
      if (this.buffer.length < FILE_HEADER_BYTES) return;
      const headerBytes = this.buffer.readUInt16LE(6) || FILE_HEADER_BYTES;
      this.buffer = this.buffer.subarray(headerBytes);
      this.headerRead = true;
    }
    while (this.buffer.length >= FRAME_HEADER_BYTES) {
      const size = this.buffer.readUInt32LE(0);
      if (this.buffer.length < FRAME_HEADER_BYTES + size) return;
      const timestamp = Number(this.buffer.readBigUInt64LE(4));
      this.onFrame(Buffer.from(this.buffer.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + size)), timestamp);
      this.buffer = this.buffer.subarray(FRAME_HEADER_BYTES + size);
    }
  }
}

/** Whether a VP8 frame is a key frame (RFC 6386 9.1: bit 0 of the first byte is 0). */
export function isVp8KeyFrame(frame: Uint8Array): boolean {
  return frame.length > 0 && (frame[0]! & 0x01) === 0;
}

/** The picture size a VP8 key frame declares (after its 3-byte tag and start code `9d 01 2a`), undefined otherwise. */
export function vp8KeyFrameSize(frame: Uint8Array): { width: number; height: number } | undefined {
  if (!isVp8KeyFrame(frame) || frame.length < 10) return undefined;
  if (frame[3] !== 0x9d || frame[4] !== 0x01 || frame[5] !== 0x2a) return undefined;
  const width = (frame[6]! | (frame[7]! << 8)) & 0x3fff;
  const height = (frame[8]! | (frame[9]! << 8)) & 0x3fff;
  return { width, height };
}
