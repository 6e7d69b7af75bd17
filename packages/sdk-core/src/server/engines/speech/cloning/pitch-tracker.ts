/** Pitch track of a recording. */
export interface PitchTrack {
  /** F0 per voiced frame, Hz. */
  voicedF0: number[];
  /** Frames analysed (voiced or not) and frames judged voiced. */
  frameCount: number;
  hopSeconds: number;
}

export interface PitchTrackerOptions {
  minimumHz?: number;
  maximumHz?: number;
  /** YIN's cumulative-mean-normalised difference threshold. */
  threshold?: number;
  hopSeconds?: number;
}

/**
 * YIN pitch tracking (de Cheveigné & Kawahara 2002): difference function, cumulative mean
 * normalisation, absolute threshold, parabolic interpolation. Frames more than 30 dB below the
 * loudest frame are skipped as silence.
 *
 * @example
 * const track = trackPitch(float32Samples, 16000);
 * const f0 = median(track.voicedF0);
 */
export function trackPitch(samples: Float32Array, sampleRate: number, options: PitchTrackerOptions = {}): PitchTrack {
  const minimumHz = options.minimumHz ?? 60;
  const maximumHz = options.maximumHz ?? 450;
  const threshold = options.threshold ?? 0.15;
  const hop = Math.round((options.hopSeconds ?? 0.01) * sampleRate);
  const lagMinimum = Math.floor(sampleRate / maximumHz);
  const lagMaximum = Math.ceil(sampleRate / minimumHz);
  const window = lagMaximum; // one period of the lowest pitch per comparison window
  const frameLength = window + lagMaximum + 1;
  const difference = new Float64Array(lagMaximum + 1);

  const levels: number[] = [];
  for (let start = 0; start + frameLength <= samples.length; start += hop) {
    let sum = 0;
    for (let index = start; index < start + window; index++) sum += samples[index]! * samples[index]!;
    levels.push(sum / window);
  }
  const loudest = Math.max(1e-12, ...levels);
  const voicedF0: number[] = [];

  levels.forEach((level, frame) => {
    if (level < loudest * 1e-3) return; // -30 dB
    const start = frame * hop;
    for (let lag = 1; lag <= lagMaximum; lag++) {
      let sum = 0;
      for (let index = start; index < start + window; index++) {
        const delta = samples[index]! - samples[index + lag]!;
        sum += delta * delta;
      }
      difference[lag] = sum;
    }
    let runningSum = 0;
    let chosen = -1;
    const normalised = (lag: number) => difference[lag]!;
    for (let lag = 1; lag <= lagMaximum; lag++) {
      runningSum += difference[lag]!;
      difference[lag] = runningSum > 0 ? (difference[lag]! * lag) / runningSum : 1;
    }
    for (let lag = lagMinimum; lag <= lagMaximum; lag++) {
      if (normalised(lag) < threshold) {
        while (lag + 1 <= lagMaximum && normalised(lag + 1) < normalised(lag)) lag++;
        chosen = lag;
        break;
      }
    }
    if (chosen < 0) return;
    let refined = chosen;
    if (chosen > 1 && chosen < lagMaximum) {
      const left = normalised(chosen - 1);
      const centre = normalised(chosen);
      const right = normalised(chosen + 1);
      const denominator = left - 2 * centre + right;
      if (denominator !== 0) refined = chosen + (left - right) / (2 * denominator);
    }
    voicedF0.push(sampleRate / refined);
  });
  return { voicedF0, frameCount: levels.length, hopSeconds: hop / sampleRate };
}

/**
 * Value at a quantile (0..1) of a list, NaN when empty.
 *
 * @example
 * quantile([3, 1, 2], 0.5); // 2
 */
export function quantile(values: readonly number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  const position = (sorted.length - 1) * fraction;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  return sorted[lower]! + (sorted[upper]! - sorted[lower]!) * (position - lower);
}
