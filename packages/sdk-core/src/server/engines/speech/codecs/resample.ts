import { float32ToInt16, int16ToFloat32 } from './pcm.js';

type Libsamplerate = typeof import('@alexanderolsen/libsamplerate-js');
let libsamplerate: Promise<Libsamplerate> | undefined;

/** libsamplerate (wasm, ~100 ms to load), loaded on the first high-quality resampling rather than at start-up. */
function loadLibsamplerate(): Promise<Libsamplerate> {
  // A CommonJS module flagged `__esModule` without a default: Node's ESM loader puts its exports on `default`,
  // a CommonJS build (esbuild's interop) on the namespace itself.
  libsamplerate ??= import('@alexanderolsen/libsamplerate-js').then((module) => (module as { default?: Libsamplerate }).default ?? module);
  return libsamplerate;
}

/**
 * Streaming linear-interpolation resampler for hot paths (TTS chunks to the socket's 24 kHz, 48 kHz
 * WebRTC audio to 16 kHz for STT/VAD). It keeps the fractional position and the last input sample
 * between chunks, so chunk boundaries do not click. Downsampling by large factors aliases; use
 * {@link resampleHighQuality} for offline work.
 *
 * @example
 * const resampler = new LinearResampler(16000, 24000);
 * const out = resampler.push(chunk); // ~1.5x as many samples
 */
export class LinearResampler {
  private readonly step: number;
  private position = 0;
  private previous: number | undefined;

  constructor(
    readonly inputRate: number,
    readonly outputRate: number,
  ) {
    if (inputRate <= 0 || outputRate <= 0) throw new RangeError('sample rates must be positive');
    this.step = inputRate / outputRate;
  }

  push(input: Int16Array): Int16Array {
    if (this.inputRate === this.outputRate) return input;
    if (input.length === 0) return new Int16Array(0);
    // Index -1 refers to the last sample of the previous chunk.
    const sampleAt = (index: number) => (index < 0 ? (this.previous ?? input[0]!) : input[index]!);
    const output = new Int16Array(Math.ceil((input.length - this.position) / this.step) + 1);
    let count = 0;
    let position = this.position;
    while (position <= input.length - 1) {
      const base = Math.floor(position);
      const fraction = position - base;
      const left = sampleAt(base);
      const right = sampleAt(base + 1 <= input.length - 1 ? base + 1 : input.length - 1);
      output[count++] = Math.round(left + (right - left) * fraction);
      position += this.step;
    }
    this.position = position - input.length;
    this.previous = input[input.length - 1];
    return output.subarray(0, count);
  }
}

/**
 * One-shot linear resampling.
 *
 * @example
 * const at16k = resampleLinear(pcm, 22050, 16000);
 */
export function resampleLinear(input: Int16Array, inputRate: number, outputRate: number): Int16Array {
  return new LinearResampler(inputRate, outputRate).push(input);
}

/**
 * Band-limited resampling with libsamplerate (wasm, SINC_FASTEST by default: 90-200x realtime here).
 * Use it for whole files (cloning analysis, uploads), not per 20 ms frame.
 *
 * @example
 * const at16k = await resampleHighQuality(pcm, 44100, 16000);
 */
export async function resampleHighQuality(
  input: Int16Array,
  inputRate: number,
  outputRate: number,
  quality: 'fastest' | 'medium' | 'best' = 'fastest',
): Promise<Int16Array> {
  if (inputRate === outputRate) return input;
  const { ConverterType, create } = await loadLibsamplerate();
  const converterType =
    quality === 'best' ? ConverterType.SRC_SINC_BEST_QUALITY : quality === 'medium' ? ConverterType.SRC_SINC_MEDIUM_QUALITY : ConverterType.SRC_SINC_FASTEST;
  const converter = await create(1, inputRate, outputRate, { converterType });
  try {
    return float32ToInt16(converter.simple(int16ToFloat32(input)));
  } finally {
    converter.destroy();
  }
}
