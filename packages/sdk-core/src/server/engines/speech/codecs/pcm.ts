/**
 * PCM sample helpers. The speech stack passes audio around as 16-bit signed little-endian mono samples
 * (`Int16Array`) because every engine and transport here speaks it natively; Float32 in [-1, 1] is used
 * only where a library or an analysis wants it.
 */

import { joinArrays } from './join-arrays.js';

/**
 * Converts 16-bit samples to floats in [-1, 1).
 *
 * @example
 * const floats = int16ToFloat32(new Int16Array([0, 16384, -32768])); // [0, 0.5, -1]
 */
export function int16ToFloat32(samples: Int16Array): Float32Array {
  const result = new Float32Array(samples.length);
  for (let index = 0; index < samples.length; index++) result[index] = samples[index]! / 32768;
  return result;
}

/**
 * Converts floats to 16-bit samples, clipping values outside [-1, 1].
 *
 * @example
 * const pcm = float32ToInt16(new Float32Array([0, 0.5, -2])); // [0, 16384, -32768]
 */
export function float32ToInt16(samples: Float32Array): Int16Array {
  const result = new Int16Array(samples.length);
  for (let index = 0; index < samples.length; index++) {
    const value = samples[index]!;
    const clipped = value > 1 ? 1 : value < -1 ? -1 : value;
    result[index] = clipped < 0 ? Math.round(clipped * 32768) : Math.round(clipped * 32767);
  }
  return result;
}

/**
 * Joins PCM chunks into one array.
 *
 * @example
 * const all = concatPcm([new Int16Array([1, 2]), new Int16Array([3])]); // [1, 2, 3]
 */
export function concatPcm(chunks: readonly Int16Array[]): Int16Array {
  return joinArrays(chunks, (length) => new Int16Array(length));
}

/**
 * Views 16-bit samples as little-endian bytes (a copy on big-endian hosts is never needed: Node runs on
 * little-endian CPUs only in practice, and the WAV/wire formats are little-endian).
 *
 * @example
 * const bytes = pcmToBytes(new Int16Array([1])); // Uint8Array [1, 0]
 */
export function pcmToBytes(samples: Int16Array): Uint8Array {
  return new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength);
}

/**
 * Reads little-endian 16-bit samples from bytes; copies when the bytes are not 2-byte aligned.
 * A trailing odd byte is ignored.
 *
 * @example
 * const pcm = bytesToPcm(new Uint8Array([1, 0, 255, 255])); // Int16Array [1, -1]
 */
export function bytesToPcm(bytes: Uint8Array): Int16Array {
  const sampleCount = bytes.byteLength >> 1;
  if (bytes.byteOffset % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset, sampleCount);
  const copy = new Uint8Array(sampleCount * 2);
  copy.set(bytes.subarray(0, sampleCount * 2));
  return new Int16Array(copy.buffer);
}

/**
 * Encodes PCM16LE samples as base64 (the TTS socket's `audio` payload).
 *
 * @example
 * const text = pcmToBase64(new Int16Array([1, 2])); // "AQACAA=="
 */
export function pcmToBase64(samples: Int16Array): string {
  return Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength).toString('base64');
}

/**
 * Decodes base64 PCM16LE into samples.
 *
 * @example
 * const pcm = base64ToPcm('AQACAA=='); // Int16Array [1, 2]
 */
export function base64ToPcm(text: string): Int16Array {
  return bytesToPcm(new Uint8Array(Buffer.from(text, 'base64')));
}

/**
 * Duration of a chunk in seconds.
 *
 * @example
 * pcmDurationSeconds(new Int16Array(16000), 16000); // 1
 */
export function pcmDurationSeconds(samples: { length: number }, sampleRate: number): number {
  return samples.length / sampleRate;
}

/**
 * Root-mean-square level in dBFS (full scale = 0 dB; digital silence = -Infinity).
 *
 * @example
 * rmsDecibels(new Int16Array([32767, -32767])); // ≈ 0
 */
export function rmsDecibels(samples: Int16Array | Float32Array): number {
  if (samples.length === 0) return -Infinity;
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  let sum = 0;
  for (let index = 0; index < samples.length; index++) {
    const value = samples[index]! * scale;
    sum += value * value;
  }
  return 10 * Math.log10(sum / samples.length);
}
