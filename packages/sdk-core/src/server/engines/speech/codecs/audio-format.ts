import { Mp3Encoder } from '@breezystack/lamejs';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { AudioFormat } from '../../../kernel/ports/speech-output.js';
import { encodeWav } from './wav.js';

export const AUDIO_CONTENT_TYPES: Record<AudioFormat, string> = { mp3: 'audio/mpeg', wav: 'audio/wav' };

const MEDIA_TYPES: Record<string, AudioFormat> = {
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/vnd.wave': 'wav',
};

/**
 * Picks the answer format from an `Accept` header: the acceptable audio type with the highest `q`
 * (ties: the first listed); MP3 when the header is absent, a wildcard, or names no audio type we make.
 *
 * @example
 * negotiateAudioFormat('audio/wav'); // 'wav'
 * negotiateAudioFormat('audio/wav;q=0.5, audio/mpeg'); // 'mp3'
 * negotiateAudioFormat(null); // 'mp3'
 */
export function negotiateAudioFormat(accept: string | null | undefined): AudioFormat {
  if (!accept) return 'mp3';
  let best: { format: AudioFormat; quality: number } | undefined;
  for (const part of accept.split(',')) {
    const [type = '', ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const format = MEDIA_TYPES[type];
    if (!format) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    if (!Number.isFinite(quality) || quality <= 0) continue;
    if (!best || quality > best.quality) best = { format, quality };
  }
  return best?.format ?? 'mp3';
}

/** Samples lamejs encodes between yields to the event loop (~0.5 s of 22 kHz audio, ~10 ms of CPU). */
const BLOCK = 1152 * 10;

/**
 * Encodes PCM16 mono as WAV or MP3. MP3 encoding runs at ~45x real time here, so minutes of audio take
 * seconds of CPU: it yields to the event loop between blocks so other requests keep being served.
 *
 * @example
 * const file = await encodeAudio(pcm, 16000, 'mp3');
 */
export async function encodeAudio(pcm: Int16Array, sampleRate: number, format: AudioFormat): Promise<Uint8Array> {
  if (format === 'wav') return encodeWav(pcm, sampleRate);
  const encoder = new Mp3Encoder(1, sampleRate, 64);
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < pcm.length; offset += BLOCK) {
    const part = encoder.encodeBuffer(pcm.subarray(offset, offset + BLOCK));
    if (part.length > 0) parts.push(part.slice());
    if (offset + BLOCK < pcm.length) await yieldToEventLoop();
  }
  parts.push(encoder.flush().slice());
  const result = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
  let position = 0;
  for (const part of parts) {
    result.set(part, position);
    position += part.length;
  }
  return result;
}
