import { OpusFrameEncoder } from './opus.js';

/** Ogg's CRC-32 (polynomial 0x04c11db7, no reflection, initial 0), one table for all pages. */
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, index) => {
  let value = index << 24;
  for (let bit = 0; bit < 8; bit += 1) value = value & 0x80000000 ? (value << 1) ^ 0x04c11db7 : value << 1;
  return value >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

/** Opus runs its granule clock at 48 kHz whatever the input rate. */
const GRANULE_RATE = 48_000;
/** Samples the decoder drops at the start (libopus' usual look-ahead at 48 kHz). */
const PRE_SKIP = 312;
/** The rate the encoder takes (OpenAI's speech audio rate). */
export const OGG_OPUS_INPUT_RATE = 24_000;
/** 20 ms frames. */
const FRAME_SAMPLES = OGG_OPUS_INPUT_RATE / 50;

/**
 * Ogg Opus (RFC 7845), written as the audio arrives: `OpusHead` and `OpusTags` pages first, then one page per 20 ms
 * packet, the last one marked end of stream with its granule position trimming the padding of the final frame. Mono,
 * 24 kHz input.
 *
 * @example
 * const writer = new OggOpusWriter();
 * const pages = [...writer.push(pcm24k), ...writer.end()];
 */
export class OggOpusWriter {
  private readonly encoder = new OpusFrameEncoder(OGG_OPUS_INPUT_RATE, 'audio');
  private readonly serial = Math.floor(Math.random() * 0xffffffff) >>> 0;
  private sequence = 0;
  private encodedSamples = 0;
  private pending = new Int16Array(0);
  private started = false;

  /** Pages for `pcm` (24 kHz mono); the first call also returns the header pages. */
  push(pcm: Int16Array): Uint8Array[] {
    const pages = this.headers();
    const joined = new Int16Array(this.pending.length + pcm.length);
    joined.set(this.pending);
    joined.set(pcm, this.pending.length);
    let offset = 0;
    for (; offset + FRAME_SAMPLES <= joined.length; offset += FRAME_SAMPLES) pages.push(this.packet(joined.subarray(offset, offset + FRAME_SAMPLES), false));
    this.pending = joined.slice(offset);
    return pages;
  }

  /** The last pages: the rest padded to a frame, marked end of stream. */
  end(): Uint8Array[] {
    const pages = this.headers();
    const last = new Int16Array(FRAME_SAMPLES);
    last.set(this.pending);
    const realSamples = this.pending.length;
    this.pending = new Int16Array(0);
    pages.push(this.packet(last, true, realSamples));
    return pages;
  }

  private headers(): Uint8Array[] {
    if (this.started) return [];
    this.started = true;
    const head = new Uint8Array(19);
    const view = new DataView(head.buffer);
    head.set(new TextEncoder().encode('OpusHead'));
    head[8] = 1;
    head[9] = 1;
    view.setUint16(10, PRE_SKIP, true);
    view.setUint32(12, OGG_OPUS_INPUT_RATE, true);
    const vendor = new TextEncoder().encode('palaver');
    const tags = new Uint8Array(8 + 4 + vendor.length + 4);
    tags.set(new TextEncoder().encode('OpusTags'));
    new DataView(tags.buffer).setUint32(8, vendor.length, true);
    tags.set(vendor, 12);
    return [this.page(head, 0, 0x02), this.page(tags, 0, 0)];
  }

  private packet(frame: Int16Array, last: boolean, realSamples = FRAME_SAMPLES): Uint8Array {
    const packet = this.encoder.encode(frame);
    this.encodedSamples += realSamples;
    const granule = PRE_SKIP + Math.round((this.encodedSamples * GRANULE_RATE) / OGG_OPUS_INPUT_RATE);
    return this.page(packet, granule, last ? 0x04 : 0);
  }

  private page(packet: Uint8Array, granule: number, flags: number): Uint8Array {
    const lacing: number[] = [];
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(left, 255));
      if (left < 255) break;
    }
    const page = new Uint8Array(27 + lacing.length + packet.length);
    const view = new DataView(page.buffer);
    page.set(new TextEncoder().encode('OggS'));
    page[5] = flags;
    view.setBigUint64(6, BigInt(granule), true);
    view.setUint32(14, this.serial, true);
    view.setUint32(18, this.sequence++, true);
    page[26] = lacing.length;
    page.set(lacing, 27);
    page.set(packet, 27 + lacing.length);
    view.setUint32(22, crc32(page), true);
    return page;
  }
}
