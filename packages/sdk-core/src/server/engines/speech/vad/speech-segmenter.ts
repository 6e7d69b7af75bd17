/** Speech started or ended; times are seconds since the stream's first sample. */
export type VadEvent = { type: 'speech_start'; at: number } | { type: 'speech_end'; at: number; duration: number };

export interface SpeechSegmenterOptions {
  /** Frame score at or above which a frame counts as speech (Silero probability). */
  threshold?: number;
  /** Score below which a frame counts as silence while in speech (hysteresis); default threshold - 0.15. */
  releaseThreshold?: number;
  /** Speech shorter than this (a click, a cough) does not start a turn. */
  minSpeechMs?: number;
  /** Silence needed after speech before `speech_end` (the turn-taking hangover). */
  hangoverMs?: number;
  /**
   * With frame levels given: a frame this far below the utterance's loudest is not speech for the end of
   * speech even when its score says so (default 35 dB). The model's score stays high for 60-140 ms after the
   * voice stops; the level does not, so the hangover counts from where the voice really stopped.
   */
  tailDropDb?: number;
}

/**
 * Turns per-frame speech scores into speech start/end events with hysteresis, a minimum speech
 * duration and a hangover. `speech_start` is dated at the first speech frame (so callers can keep a
 * little pre-roll), `speech_end` at the last speech frame, but reported only after the hangover.
 *
 * @example
 * const segmenter = new SpeechSegmenter({ hangoverMs: 500 });
 * const events = segmenter.push(0.93, 0.032);
 */
export class SpeechSegmenter {
  private readonly threshold: number;
  private readonly releaseThreshold: number;
  private readonly minSpeech: number;
  private readonly hangover: number;
  private time = 0;
  private inSpeech = false;
  private candidateStart: number | undefined;
  private speechStart = 0;
  private lastSpeechEnd = 0;
  private readonly tailDrop: number;
  /** Loudest speech frame of the current utterance, dBFS. */
  private peakLevel = -Infinity;

  constructor(options: SpeechSegmenterOptions = {}) {
    this.threshold = options.threshold ?? 0.5;
    this.releaseThreshold = options.releaseThreshold ?? Math.max(0.01, this.threshold - 0.15);
    this.minSpeech = (options.minSpeechMs ?? 150) / 1000;
    this.hangover = (options.hangoverMs ?? 500) / 1000;
    this.tailDrop = options.tailDropDb ?? 35;
  }

  get speaking(): boolean {
    return this.inSpeech;
  }

  /** Speech-like frames have started but are not yet long enough to count as speech. */
  get starting(): boolean {
    return !this.inSpeech && this.candidateStart !== undefined;
  }

  /** How long speech-like frames have lasted without yet counting as speech, ms (0 when none). */
  get startingMs(): number {
    return this.starting ? (this.time - this.candidateStart!) * 1000 : 0;
  }

  /** In speech: how long the voice has been quiet (since the last voiced frame), ms; 0 outside speech. */
  get quietMs(): number {
    return this.inSpeech ? (this.time - this.lastSpeechEnd) * 1000 : 0;
  }

  /** Feeds one frame's score, its duration in seconds and, optionally, its level in dBFS. */
  push(score: number, frameSeconds: number, levelDb?: number): VadEvent[] {
    const frameStart = this.time;
    this.time += frameSeconds;
    const events: VadEvent[] = [];
    if (!this.inSpeech) {
      if (score >= this.threshold) {
        this.candidateStart ??= frameStart;
        if (levelDb !== undefined) this.peakLevel = Math.max(this.peakLevel, levelDb);
        if (this.time - this.candidateStart >= this.minSpeech) {
          this.inSpeech = true;
          this.speechStart = this.candidateStart;
          this.lastSpeechEnd = this.time;
          this.candidateStart = undefined;
          events.push({ type: 'speech_start', at: this.speechStart });
        }
      } else if (score < this.releaseThreshold) {
        this.candidateStart = undefined;
        this.peakLevel = -Infinity;
      }
      return events;
    }
    if (levelDb !== undefined && score >= this.threshold) this.peakLevel = Math.max(this.peakLevel, levelDb);
    const voiced = levelDb === undefined || levelDb >= this.peakLevel - this.tailDrop;
    if (score >= this.releaseThreshold && voiced) this.lastSpeechEnd = this.time;
    else if (score < this.releaseThreshold && this.time - this.lastSpeechEnd >= this.hangover) {
      this.inSpeech = false;
      this.peakLevel = -Infinity;
      events.push({ type: 'speech_end', at: this.lastSpeechEnd, duration: this.lastSpeechEnd - this.speechStart });
    }
    return events;
  }

  /** Ends the stream: open speech ends at its last speech frame. */
  flush(): VadEvent[] {
    if (!this.inSpeech) return [];
    this.inSpeech = false;
    this.peakLevel = -Infinity;
    return [{ type: 'speech_end', at: this.lastSpeechEnd, duration: this.lastSpeechEnd - this.speechStart }];
  }
}
