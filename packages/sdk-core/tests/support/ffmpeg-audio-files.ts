import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegAvailable, runFfmpeg } from '../../src/server/engines/media/ffmpeg/run-ffmpeg.js';
import { requireComponent } from './components.js';

/** Whether ffmpeg runs here (skips with a printed reason, fails under CI=true). */
export const ffmpegPresent = (): boolean => requireComponent('ffmpeg', ffmpegAvailable(), 'apt-get install ffmpeg (audio formats made and decoded by ffmpeg)');

/** Containers a test converts speech to, with ffmpeg's encoder for each (m4a and mp4 keep their index at the end). */
const ENCODERS = { flac: ['-c:a', 'flac'], m4a: ['-c:a', 'aac'], mp4: ['-c:a', 'aac'], webm: ['-c:a', 'libopus'] } as const;
export type ConvertedFormat = keyof typeof ENCODERS;

/** A WAV recording converted by ffmpeg to `format`, written to a file first as a user's recorder would. */
export async function convertWav(wav: Uint8Array, format: ConvertedFormat): Promise<Uint8Array> {
  const folder = await mkdtemp(join(tmpdir(), 'palaver-test-audio-'));
  try {
    const input = join(folder, 'input.wav');
    const output = join(folder, `output.${format}`);
    await writeFile(input, wav);
    await runFfmpeg({ args: ['-i', input, ...ENCODERS[format], output] });
    return new Uint8Array(await readFile(output));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
