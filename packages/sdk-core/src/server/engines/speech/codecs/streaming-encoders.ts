import { Mp3Encoder } from '@breezystack/lamejs';
import { OGG_OPUS_INPUT_RATE, OggOpusWriter } from './ogg-opus-writer.js';
import { concatPcm, pcmToBytes } from './pcm.js';
import { LinearResampler } from './resample.js';
import { encodeWav } from './wav.js';

/** The formats speech is streamed in (OpenAI's `response_format` values the platform makes). */
export type StreamedAudioFormat = 'mp3' | 'wav' | 'opus' | 'pcm';

/** Rate of `pcm` answers: raw 16-bit little-endian mono at 24 kHz, as OpenAI sends them. */
export const RAW_PCM_RATE = 24_000;

export const STREAMED_AUDIO_CONTENT_TYPES: Record<StreamedAudioFormat, string> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  opus: 'audio/ogg; codecs=opus',
  pcm: 'audio/pcm',
};

/** Turns PCM chunks, as an engine produces them, into the bytes of one audio file or stream. */
export interface StreamingEncoder {
  /** Bytes ready to send for this chunk (possibly none yet). */
  push(pcm: Int16Array): Uint8Array[];
  /** The remaining bytes. */
  end(): Uint8Array[];
}

function nonEmpty(parts: Uint8Array[]): Uint8Array[] {
  return parts.filter((part) => part.length > 0);
}

/** lamejs answers Int8Arrays: the same bytes as a Uint8Array of their own (the encoder reuses its buffer). */
function bytesOf(part: Int8Array | Uint8Array): Uint8Array {
  return new Uint8Array(part.buffer, part.byteOffset, part.byteLength).slice();
}

/**
 * An encoder for speech at `sampleRate`: MP3 frames (lamejs, 64 kbit/s) and Ogg Opus pages as the audio arrives,
 * raw PCM resampled to 24 kHz as it arrives; WAV once at the end (its header holds the exact sizes).
 *
 * @example
 * const encoder = createStreamingEncoder('mp3', 16000);
 * for await (const chunk of speech) for (const bytes of encoder.push(chunk.pcm)) send(bytes);
 * for (const bytes of encoder.end()) send(bytes);
 */
export function createStreamingEncoder(format: StreamedAudioFormat, sampleRate: number): StreamingEncoder {
  switch (format) {
    case 'mp3': {
      const encoder = new Mp3Encoder(1, sampleRate, 64);
      return { push: (pcm) => nonEmpty([bytesOf(encoder.encodeBuffer(pcm))]), end: () => nonEmpty([bytesOf(encoder.flush())]) };
    }
    case 'pcm': {
      const resampler = new LinearResampler(sampleRate, RAW_PCM_RATE);
      return { push: (pcm) => nonEmpty([pcmToBytes(resampler.push(pcm)).slice()]), end: () => [] };
    }
    case 'opus': {
      const resampler = new LinearResampler(sampleRate, OGG_OPUS_INPUT_RATE);
      const writer = new OggOpusWriter();
      return { push: (pcm) => writer.push(resampler.push(pcm)), end: () => writer.end() };
    }
    case 'wav': {
      const chunks: Int16Array[] = [];
      return {
        push: (pcm) => {
          chunks.push(pcm);
          return [];
        },
        end: () => [encodeWav(concatPcm(chunks), sampleRate)],
      };
    }
  }
}
