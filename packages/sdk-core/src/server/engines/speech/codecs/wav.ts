import { bytesToPcm, pcmToBytes } from './pcm.js';

/** Decoded WAV audio: mono PCM16 (multi-channel input is mixed down). */
export interface WavAudio {
  pcm: Int16Array;
  sampleRate: number;
}

const HEADER_BYTES = 44;

/**
 * Wraps PCM16 samples (mono, or `channels` interleaved) in a canonical 44-byte-header WAV file.
 *
 * @example
 * const file = encodeWav(new Int16Array(16000), 16000); // one second of silence, 32 044 bytes
 * const stereo = encodeWav(new Int16Array(32000), 16000, 2); // one second of stereo silence
 */
export function encodeWav(pcm: Int16Array, sampleRate: number, channels = 1): Uint8Array<ArrayBuffer> {
  const dataBytes = pcm.byteLength;
  const result = new Uint8Array(HEADER_BYTES + dataBytes);
  const view = new DataView(result.buffer);
  const ascii = (offset: number, text: string) => {
    for (let index = 0; index < text.length; index++) result[offset + index] = text.charCodeAt(index);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2 * channels, true);
  view.setUint16(32, 2 * channels, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  result.set(pcmToBytes(pcm), HEADER_BYTES);
  return result;
}

/**
 * Reads a PCM16 WAV file. Walks the chunk list instead of assuming 44 bytes, because encoders add
 * `LIST`/`fact` chunks; only 16-bit integer PCM is accepted. Streamed WAVs with a 0 or oversized data
 * length (written before the length was known) are read to the end of the file.
 *
 * @example
 * const { pcm, sampleRate } = decodeWav(encodeWav(new Int16Array([1, 2]), 8000));
 */
export function decodeWav(file: Uint8Array): WavAudio {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const text = (offset: number) => String.fromCharCode(...file.subarray(offset, offset + 4));
  if (file.byteLength < 12 || text(0) !== 'RIFF' || text(8) !== 'WAVE') throw new Error('not a WAV file');
  let offset = 12;
  let format: { channels: number; sampleRate: number; bits: number; code: number } | undefined;
  while (offset + 8 <= file.byteLength) {
    const id = text(offset);
    const size = view.getUint32(offset + 4, true);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = {
        code: view.getUint16(body, true),
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      if (!format) throw new Error('WAV data chunk before fmt chunk');
      if ((format.code !== 1 && format.code !== 0xfffe) || format.bits !== 16) {
        throw new Error(`unsupported WAV encoding (format ${format.code}, ${format.bits} bits); expected PCM16`);
      }
      const end = size === 0 || body + size > file.byteLength ? file.byteLength : body + size;
      const interleaved = bytesToPcm(file.subarray(body, end));
      return { pcm: mixDown(interleaved, format.channels), sampleRate: format.sampleRate };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

function mixDown(interleaved: Int16Array, channels: number): Int16Array {
  if (channels <= 1) return interleaved;
  const frames = Math.floor(interleaved.length / channels);
  const result = new Int16Array(frames);
  for (let frame = 0; frame < frames; frame++) {
    let sum = 0;
    for (let channel = 0; channel < channels; channel++) sum += interleaved[frame * channels + channel]!;
    result[frame] = Math.round(sum / channels);
  }
  return result;
}
