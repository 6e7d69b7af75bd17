/** Messages of the Flite worker (kept apart so the main thread never imports the worker module). */

/** A Flite synthesis job. */
export interface FliteJob {
  text: string;
  voice: string;
  /** >1 slows speech down (Flite's `duration_stretch`). */
  durationStretch: number;
  /** Target mean F0 in Hz; honoured by the diphone voices (kal, kal16) only. */
  pitchMeanHz?: number;
}

/** The one chunk a Flite job emits (Flite renders a whole utterance at once). */
export interface FliteChunk {
  pcm: Int16Array;
  sampleRate: number;
  /** The utterance's phones (ARPAbet, `pau` for silence) with their times, from Flite's `-psdur`. */
  phonemes: Array<{ phoneme: string; alphabet: 'arpabet'; start: number; end: number }>;
}

/**
 * Flite's `-psdur` output (`pau:0.164 hh:0.255 ...`: each phone with the time it ends, seconds) as timings.
 *
 * @example
 * flitePhonemes('pau:0.16 hh:0.25\n'); // [{ phoneme: 'pau', start: 0, end: 0.16, ... }, { phoneme: 'hh', start: 0.16, end: 0.25, ... }]
 */
export function flitePhonemes(output: string): FliteChunk['phonemes'] {
  const phonemes: FliteChunk['phonemes'] = [];
  let start = 0;
  for (const token of output.trim().split(/\s+/)) {
    const separator = token.lastIndexOf(':');
    const end = Number(token.slice(separator + 1));
    if (separator <= 0 || !Number.isFinite(end)) continue;
    phonemes.push({ phoneme: token.slice(0, separator), alphabet: 'arpabet', start, end });
    start = end;
  }
  return phonemes;
}

export const FLITE_VOICES = ['kal', 'kal16', 'awb', 'rms', 'slt'] as const;
