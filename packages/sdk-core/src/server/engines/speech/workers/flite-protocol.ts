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
}

export const FLITE_VOICES = ['kal', 'kal16', 'awb', 'rms', 'slt'] as const;
