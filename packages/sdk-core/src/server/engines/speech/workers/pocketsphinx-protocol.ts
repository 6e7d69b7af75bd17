/** Messages of the pocketsphinx worker. */

export interface PocketsphinxOptions {
  /** Shared library name or path (default `libpocketsphinx.so.3`, found through the loader path). */
  libraryPath: string;
  /** sphinxbase, which holds `cmd_ln_init` in the 0.8/5prealpha releases Debian ships. */
  sphinxbaseLibraryPath: string;
  /** Directory with `en-us/` (acoustic model), `en-us.lm.bin` and `cmudict-en-us.dict`. */
  modelDirectory: string;
  /** Search settings passed to the decoder as command-line flags (`{ '-beam': '1e-40' }`); see DECODER_PRESETS. */
  decoderArguments?: Record<string, string>;
  /**
   * An MLLR transform of the acoustic model's means (sphinxtrain's `mllr_solve` text format), such as
   * `PHONE_MLLR_MATRIX` for phone callers' speech; the worker writes it to a temporary file the decoder reads (`-mllr`).
   */
  mllrMatrix?: string;
  /**
   * Niceness of the decoder's thread (Linux: only that thread); above 0, under load the main thread (media, VAD) and
   * the speech synthesis keep the core and the decoders take what is left, so a backlog slows the transcript, not
   * audio. Other processes' threads win over the decoders too, hence 0 by default.
   */
  niceness?: number;
}

export interface UtteranceJob {
  /** Decode a hypothesis for an interim event after this much new audio. */
  interimIntervalMs: number;
}

/** Input messages for a running utterance job; audio is 16 kHz PCM16. */
export type UtteranceInput = { type: 'audio'; pcm: Int16Array } | { type: 'peek' } | { type: 'end' } | { type: 'cancel' };

export interface InterimHypothesis {
  text: string;
  /** The answer to a `peek`: the hypothesis of all the audio so far, now. */
  peek?: boolean;
}

export interface FinalHypothesis {
  text: string;
  /** The words of `text` with the decoder's posterior probability of each (0..1). */
  words: Array<{ word: string; confidence: number }>;
  /** Milliseconds spent in `ps_end_utt` + final search. */
  decodeMs: number;
}

export const POCKETSPHINX_SAMPLE_RATE = 16_000;
