import { VAD_FRAME_SAMPLES, VAD_SAMPLE_RATE, type FrameScorer, type VadBackend } from './frame-scorer.js';

export interface EnergyVadOptions {
  /** Noise-floor window. */
  windowSeconds?: number;
  /** Percentile of frame levels in the window taken as the noise floor. */
  percentile?: number;
  /** Level above the floor that counts as speech. */
  marginDb?: number;
  /** Frames quieter than this are never speech (digital silence, hum). */
  absoluteFloorDb?: number;
}

/**
 * The fallback VAD: frame level against a running noise floor (10th percentile of the last 3 s,
 * +10 dB). Fine on clean audio; its recall drops in noise, where Silero is the one to use.
 *
 * @example
 * const backend = new EnergyVad();
 * const scorer = backend.createScorer();
 */
export class EnergyVad implements VadBackend {
  readonly name = 'energy';

  constructor(private readonly options: EnergyVadOptions = {}) {}

  createScorer(): FrameScorer {
    const windowFrames = Math.round(((this.options.windowSeconds ?? 3) * VAD_SAMPLE_RATE) / VAD_FRAME_SAMPLES);
    const percentile = this.options.percentile ?? 0.1;
    const margin = this.options.marginDb ?? 10;
    const absoluteFloor = this.options.absoluteFloorDb ?? -55;
    const history: number[] = [];
    return {
      score(frame) {
        let sum = 0;
        for (let index = 0; index < frame.length; index++) sum += frame[index]! * frame[index]!;
        const level = Math.max(-100, 10 * Math.log10(sum / frame.length || 1e-10));
        history.push(level);
        if (history.length > windowFrames) history.shift();
        const sorted = [...history].sort((left, right) => left - right);
        const floor = sorted[Math.floor((sorted.length - 1) * percentile)]!;
        if (level < absoluteFloor) return 0;
        // A soft score around the decision point, so the segmenter's hysteresis has room to work.
        return Math.min(1, Math.max(0, 0.5 + (level - (floor + margin)) / 12));
      },
    };
  }

  async close(): Promise<void> {}
}
