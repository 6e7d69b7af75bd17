import type { AudioFrame } from '../../engines/media/index.js';
import type { PhonemeTiming } from '../../engines/speech/index.js';

/** A phoneme heard in one frame of the agent's speech: where it starts in the frame, and for how long. */
export interface FramePhoneme {
  phoneme: string;
  alphabet: PhonemeTiming['alphabet'];
  /** From the start of the frame's audio; may pass its end (a phone longer than the frame). */
  offsetMs: number;
  durationMs: number;
}

/** A frame of the agent's speech that knows the phonemes starting in it (offline engines: eSpeak-NG, Flite). */
export type SpokenFrame = AudioFrame & { readonly phonemes?: readonly FramePhoneme[] };

/** The phonemes a frame of speech carries (none for other audio). */
export function phonemesOf(frame: AudioFrame): readonly FramePhoneme[] | undefined {
  return (frame as SpokenFrame).phonemes;
}

/** Phoneme timings of a segment (seconds from its start) placed in the frame that starts at `frameStartSeconds`. */
export function framePhonemes(timings: readonly PhonemeTiming[], frameStartSeconds: number): FramePhoneme[] {
  return timings.map((timing) => ({
    phoneme: timing.phoneme,
    alphabet: timing.alphabet,
    offsetMs: (timing.start - frameStartSeconds) * 1000,
    durationMs: Math.max(0, timing.end - timing.start) * 1000,
  }));
}
