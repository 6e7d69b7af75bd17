import { existsSync } from 'node:fs';
import { int16ToFloat32 } from '../../src/server/engines/speech/codecs/pcm.js';
import { resampleHighQuality } from '../../src/server/engines/speech/codecs/resample.js';
import { decodeMp3 } from '../../src/server/engines/speech/codecs/mp3.js';
import { decodeWav } from '../../src/server/engines/speech/codecs/wav.js';
import { quantile, trackPitch } from '../../src/server/engines/speech/cloning/pitch-tracker.js';
import type { Speech } from '../../src/server/engines/speech/create-speech.js';
import { requireComponent } from '../support/components.js';

/** Whether the embedded STT (Debian pocketsphinx) is installed; skips with a reason otherwise (fails in CI). */
export function pocketsphinxAvailable(): boolean {
  const installed =
    existsSync('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin') &&
    ['/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3', '/usr/lib/aarch64-linux-gnu/libpocketsphinx.so.3'].some(existsSync);
  return requireComponent('pocketsphinx', installed, 'apt install libpocketsphinx3 pocketsphinx-en-us');
}

/** Decodes a generated file (by its content type) into mono PCM16. */
export async function decodeAudio(bytes: Uint8Array, contentType: string): Promise<{ pcm: Int16Array; sampleRate: number }> {
  if (contentType.startsWith('audio/wav')) return decodeWav(bytes);
  if (contentType.startsWith('audio/mpeg')) return decodeMp3(bytes);
  throw new Error(`unexpected content type ${contentType}`);
}

/** Transcribes PCM with the server's embedded STT, fed in 20 ms frames. */
export async function transcribe(speech: Speech, pcm: Int16Array, sampleRate: number): Promise<string> {
  const session = speech.stt.createSession({ sampleRate });
  const frame = Math.round(sampleRate / 50);
  try {
    for (let offset = 0; offset < pcm.length; offset += frame) session.push(pcm.subarray(offset, offset + frame));
    return await session.finish();
  } finally {
    session.close();
  }
}

/** Median F0 (Hz) of speech, measured with the engines' YIN tracker at 16 kHz. */
export async function medianPitch(pcm: Int16Array, sampleRate: number): Promise<number> {
  const samples = int16ToFloat32(await resampleHighQuality(pcm, sampleRate, 16_000));
  return quantile(trackPitch(samples, 16_000).voicedF0, 0.5);
}
