/** Messages of the eSpeak-NG worker. */

/** An eSpeak-NG synthesis job; parameters use eSpeak's own scales. */
export interface EspeakJob {
  text: string;
  /** Voice name, optionally with a variant: `en-us`, `de`, `en-us+f3`. */
  voice: string;
  /** Words per minute, 80-450 (eSpeak default 175). */
  rate: number;
  /** Base pitch 0-99 (default 50). */
  pitch: number;
  /** Pitch range 0-99 (default 50); 0 is monotone. */
  range: number;
  /** Volume 0-200 (default 100). */
  volume: number;
}

/** A word's position in a job's audio, in seconds from the job's start. */
export interface EspeakWordTiming {
  word: string;
  start: number;
  end: number;
}

/** A phoneme's position in a job's audio (IPA, empty for a pause), in seconds from the job's start. */
export interface EspeakPhonemeTiming {
  phoneme: string;
  alphabet: 'ipa';
  start: number;
  end: number;
}

export interface EspeakChunk {
  pcm: Int16Array;
  sampleRate: number;
  wordTimings: EspeakWordTiming[];
  phonemes: EspeakPhonemeTiming[];
}

/** eSpeak-NG renders at this rate. */
export const ESPEAK_SAMPLE_RATE = 22_050;
