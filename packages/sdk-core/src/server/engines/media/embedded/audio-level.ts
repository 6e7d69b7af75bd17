/**
 * How loud a published track is, as LiveKit measures it: audio levels in -dBov (0 loudest, 127 silent; the RTP
 * `ssrc-audio-level` header extension, RFC 6464, or computed from PCM) observed per packet, summed per interval.
 * A track is active in an interval when at least `minPercentile` % of it was at or above `activeLevel`; its level is
 * then the loudest observed, as a linear 0..1 value, smoothed over `smoothIntervals`.
 */
export interface AudioLevelSettings {
  /** -dBov at or above which audio counts as speech (LiveKit: 35). */
  activeLevel: number;
  /** Share of an interval (%) that must be speech (LiveKit: 40). */
  minPercentile: number;
  /** Length of one observation interval, ms (LiveKit: 400, its speaker update interval). */
  observeMs: number;
  /** Intervals the level is smoothed over (LiveKit: 2). */
  smoothIntervals: number;
}

export const LIVEKIT_AUDIO_LEVELS: AudioLevelSettings = Object.freeze({ activeLevel: 35, minPercentile: 40, observeMs: 400, smoothIntervals: 2 });

/** The quietest level: silence. */
export const SILENT_DBOV = 127;

/** -dBov to a linear level (0 dBov -> 1, silence -> ~0). */
export function linearLevel(dBov: number): number {
  return 10 ** (-dBov / 20);
}

/** The -dBov level of 16-bit PCM (its RMS against full scale), 0..127. */
export function dBovOfPcm(samples: Int16Array): number {
  if (samples.length === 0) return SILENT_DBOV;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  const rms = Math.sqrt(sum / samples.length) / 32_768;
  if (rms <= 0) return SILENT_DBOV;
  return Math.min(SILENT_DBOV, Math.max(0, Math.round(-20 * Math.log10(rms))));
}

/**
 * One track's level meter: `observe` per packet or frame, `level` when the room looks for speakers.
 *
 * @example
 * const meter = new AudioLevelMeter();
 * meter.observe(30, 20, Date.now());
 * if (meter.level(Date.now()) > 0) markSpeaking();
 */
export class AudioLevelMeter {
  private observedMs = 0;
  private activeMs = 0;
  private loudest = SILENT_DBOV;
  private smoothed = 0;
  private lastObservedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly settings: AudioLevelSettings = LIVEKIT_AUDIO_LEVELS) {}

  /** One packet or frame of `durationMs` at `dBov` (0 loudest .. 127 silent). */
  observe(dBov: number, durationMs: number, nowMs: number): void {
    this.lastObservedAt = nowMs;
    this.observedMs += durationMs;
    if (dBov <= this.settings.activeLevel) {
      this.activeMs += durationMs;
      this.loudest = Math.min(this.loudest, dBov);
    }
    if (this.observedMs < this.settings.observeMs) return;
    const active = this.activeMs >= (this.settings.minPercentile / 100) * this.observedMs;
    // Speech moves the level towards the loudest heard; an interval without enough speech is silence at once.
    this.smoothed = active ? this.smoothed + (linearLevel(this.loudest) - this.smoothed) / this.settings.smoothIntervals : 0;
    this.observedMs = 0;
    this.activeMs = 0;
    this.loudest = SILENT_DBOV;
  }

  /** The linear level (0..1) of the last intervals; 0 when silent or when nothing arrived for two intervals (DTX, muted). */
  level(nowMs: number): number {
    return nowMs - this.lastObservedAt > 2 * this.settings.observeMs ? 0 : this.smoothed;
  }
}
