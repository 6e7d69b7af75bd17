/**
 * Sine tones and their detection (Goertzel): used by the media tests and benchmarks to prove
 * audio crossed the media plane intact, with no FFT dependency.
 */
import { joinArrays } from '../server/engines/speech/index.js';

/** Mono 16-bit PCM of a sine at `frequency` Hz. */
export function sineTone(frequency: number, sampleRate: number, durationMs: number, amplitude = 0.5): Int16Array {
  const length = Math.round((sampleRate * durationMs) / 1000);
  const samples = new Int16Array(length);
  for (let index = 0; index < length; index += 1) {
    samples[index] = Math.round(Math.sin((2 * Math.PI * frequency * index) / sampleRate) * amplitude * 32767);
  }
  return samples;
}

/** A RIFF/WAVE file (PCM 16-bit mono) holding the samples. */
export function wavFile(samples: Int16Array, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  const dataBytes = samples.length * 2;
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, dataBytes)]);
}

/** Power of one frequency in the samples (Goertzel), normalised by length. */
export function goertzelPower(samples: Int16Array, sampleRate: number, frequency: number): number {
  const coefficient = 2 * Math.cos((2 * Math.PI * frequency) / sampleRate);
  let previous = 0;
  let beforePrevious = 0;
  for (const sample of samples) {
    const current = sample / 32768 + coefficient * previous - beforePrevious;
    beforePrevious = previous;
    previous = current;
  }
  const power = previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious;
  return power / (samples.length * samples.length || 1);
}

/** Below this RMS (about -54 dBFS) nothing is audible: the answer is frequency 0, so silence never passes for a tone. */
export const AUDIBLE_TONE_RMS = 0.002;

/**
 * The strongest of the candidate frequencies and how dominant it is (its power over the next
 * strongest). A clean tone gives a ratio well above 10. Silence (RMS below `AUDIBLE_TONE_RMS`) answers frequency 0.
 *
 * @example
 * const { frequency, dominance } = dominantFrequency(pcm, 48_000, [440, 1000, 2000]);
 */
export function dominantFrequency(samples: Int16Array, sampleRate: number, candidates: number[]): { frequency: number; dominance: number; rms: number } {
  const powers = candidates.map((frequency) => ({ frequency, power: goertzelPower(samples, sampleRate, frequency) }));
  powers.sort((left, right) => right.power - left.power);
  const [best, second] = powers;
  let sum = 0;
  for (const sample of samples) sum += (sample / 32768) ** 2;
  const rms = Math.sqrt(sum / (samples.length || 1));
  return {
    frequency: best && rms >= AUDIBLE_TONE_RMS ? best.frequency : 0,
    dominance: best && second ? best.power / Math.max(second.power, 1e-12) : Number.POSITIVE_INFINITY,
    rms,
  };
}

/** Concatenates PCM blocks. */
export function concatSamples(blocks: Int16Array[]): Int16Array {
  return joinArrays(blocks, (length) => new Int16Array(length));
}
