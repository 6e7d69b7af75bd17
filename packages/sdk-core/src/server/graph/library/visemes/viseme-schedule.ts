import type { Viseme } from '../../../../contract/graph/catalogue/visemes.js';
import { frameDurationMs, type AudioFrame } from '../../../engines/media/index.js';
import type { FramePhoneme } from '../../../voice/index.js';
import { visemeOf } from './phoneme-visemes.js';

/** A clock and timers (injectable for tests). */
export interface ScheduleClock {
  now(): number;
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realClock: ScheduleClock = {
  now: () => performance.now(),
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Visemes in time with speech frames as they pass: frames follow each other on an audio clock (a frame starts when it
 * arrives, or when the one before it ends if that is later: a burst of frames plays one after the other), and each
 * phoneme's viseme is told when its sound starts, then `SILENCE` when the last phoneme ends. A viseme equal to the
 * one before is not told again. `cancel` (barge-in) drops what is scheduled and tells `SILENCE`.
 */
export class VisemeSchedule {
  private audioEndsAt = 0;
  private lastPhonemeEndsAt = 0;
  private readonly timers = new Set<unknown>();
  private silenceTimer: unknown;
  private last: Viseme | undefined;

  constructor(
    private readonly tell: (viseme: Viseme) => void,
    private readonly clock: ScheduleClock = realClock,
  ) {}

  /** A frame passes now, with the phonemes that start in it. */
  frame(frame: AudioFrame, phonemes: readonly FramePhoneme[]): void {
    const now = this.clock.now();
    const startsAt = Math.max(now, this.audioEndsAt);
    this.audioEndsAt = startsAt + frameDurationMs(frame);
    for (const phoneme of phonemes) {
      const at = startsAt + phoneme.offsetMs;
      this.at(at, visemeOf(phoneme));
      this.lastPhonemeEndsAt = Math.max(this.lastPhonemeEndsAt, at + phoneme.durationMs);
    }
    if (phonemes.length === 0) return;
    if (this.silenceTimer !== undefined) this.clock.clear(this.silenceTimer);
    this.silenceTimer = this.clock.set(() => this.say('SILENCE'), Math.max(0, this.lastPhonemeEndsAt - now));
  }

  cancel(): void {
    this.close();
    this.say('SILENCE');
  }

  /** Drops what is scheduled, telling nothing (the run stops). */
  close(): void {
    for (const timer of this.timers) this.clock.clear(timer);
    this.timers.clear();
    if (this.silenceTimer !== undefined) this.clock.clear(this.silenceTimer);
    this.silenceTimer = undefined;
    this.audioEndsAt = 0;
    this.lastPhonemeEndsAt = 0;
  }

  private at(at: number, viseme: Viseme): void {
    const timer = this.clock.set(
      () => {
        this.timers.delete(timer);
        this.say(viseme);
      },
      Math.max(0, at - this.clock.now()),
    );
    this.timers.add(timer);
  }

  private say(viseme: Viseme): void {
    if (viseme === this.last) return;
    this.last = viseme;
    this.tell(viseme);
  }
}
