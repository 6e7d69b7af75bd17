import { Mp3Encoder } from '@breezystack/lamejs';
import { joinArrays } from './join-arrays.js';
import { mixToMono } from './mix-to-mono.js';
import { float32ToInt16 } from './pcm.js';

/** Samples lamejs takes per call; a multiple of its 1152-sample frame keeps its buffers small. */
const ENCODE_BLOCK = 1152 * 10;

/**
 * Encodes PCM16 mono as MP3 (CBR) with lamejs (`@breezystack/lamejs`: the `lamejs` 1.2.1 release is
 * broken). lamejs accepts the MPEG sample rates only (8-48 kHz family).
 *
 * @example
 * const mp3 = encodeMp3(pcm, 16000, { bitrateKbps: 64 });
 */
export function encodeMp3(pcm: Int16Array, sampleRate: number, options: { bitrateKbps?: number } = {}): Uint8Array {
  const encoder = new Mp3Encoder(1, sampleRate, options.bitrateKbps ?? 64);
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < pcm.length; offset += ENCODE_BLOCK) {
    const part = encoder.encodeBuffer(pcm.subarray(offset, offset + ENCODE_BLOCK));
    if (part.length > 0) parts.push(part);
  }
  parts.push(encoder.flush());
  return joinArrays(parts, (length) => new Uint8Array(length));
}

/** Decoded MP3: mono PCM16 (channels are averaged). */
export interface DecodedMp3 {
  pcm: Int16Array;
  sampleRate: number;
  /** Frames mpg123 could not decode. */
  errorCount: number;
}

/**
 * Decodes an MP3 file with mpg123 (wasm). Rejects input with no decodable frame, which is how a
 * non-MP3 upload is recognised.
 *
 * @example
 * const { pcm, sampleRate } = await decodeMp3(await readFile('voice.mp3'));
 */
export async function decodeMp3(file: Uint8Array): Promise<DecodedMp3> {
  // Loaded on first use: the wasm decoder is ~40 ms of a cold start that most servers never need.
  const { MPEGDecoder } = await import('mpg123-decoder');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const decoded = decoder.decode(file);
    if (decoded.samplesDecoded === 0 || decoded.channelData.length === 0) {
      throw new Error('no MP3 audio frames found');
    }
    const mono = mixToMono(decoded.channelData, decoded.samplesDecoded);
    return { pcm: float32ToInt16(mono), sampleRate: decoded.sampleRate, errorCount: decoded.errors.length };
  } finally {
    decoder.free();
  }
}

/**
 * Cheap sniffing of MP3 data (an ID3 tag or an MPEG audio frame sync) before decoding it.
 *
 * @example
 * looksLikeMp3(new TextEncoder().encode('ID3...')); // true
 */
export function looksLikeMp3(file: Uint8Array): boolean {
  if (file.length >= 3 && file[0] === 0x49 && file[1] === 0x44 && file[2] === 0x33) return true;
  return file.length >= 2 && file[0] === 0xff && (file[1]! & 0xe0) === 0xe0;
}
