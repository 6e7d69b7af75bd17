import type { EngineStatus } from '../engine-status.js';

/** When a word is spoken, in seconds from the start of the whole synthesis stream. */
export interface WordTiming {
  word: string;
  start: number;
  end: number;
}

/**
 * When a phoneme is spoken, in seconds from the start of the whole synthesis stream. `alphabet` says how
 * `phoneme` is written: eSpeak-NG gives IPA (`ˈoʊ`, `tʃ`, empty for a pause), Flite the CMU lexicon's ARPAbet
 * phones (`ow`, `ch`, `pau`).
 */
export interface PhonemeTiming {
  phoneme: string;
  alphabet: 'ipa' | 'arpabet';
  start: number;
  end: number;
}

/** A piece of synthesized audio: 16-bit mono PCM at the engine's native rate. */
export interface PcmChunk {
  pcm: Int16Array;
  sampleRate: number;
  /** Words whose timing became known with this chunk (engines that report them: eSpeak-NG). */
  wordTimings?: WordTiming[];
  /** Phonemes whose timing became known with this chunk (the offline engines: eSpeak-NG and Flite). */
  phonemes?: PhonemeTiming[];
}

/**
 * What to say and how. Give `text`, or `textStream` for text that arrives in pieces (LLM tokens):
 * it is cut at sentence (first: clause) boundaries so audio starts before the text is complete.
 */
export interface SynthesisRequest {
  text?: string;
  textStream?: AsyncIterable<string>;
  /** The engine's own voice name (`slt`, `en-us+f3`, `alloy`). */
  voice: string;
  /** Speaking-rate multiplier, 1 = the voice's normal rate. */
  speed?: number;
  /** Pitch multiplier, 1 = the voice's normal pitch (ignored by engines without pitch control). */
  pitch?: number;
  /** Engine parameters from the voice catalog's `_extra` (e.g. eSpeak `rate`, `pitch`, `range`). */
  parameters?: Record<string, unknown>;
  signal?: AbortSignal;
}

/**
 * A text-to-speech engine. `synthesize` returns audio as it is produced; breaking out of the loop or
 * aborting the signal stops the work.
 *
 * @example
 * for await (const chunk of engine.synthesize({ text: 'Hello there.', voice: 'slt' })) {
 *   player.write(chunk.pcm, chunk.sampleRate);
 * }
 */
export interface TtsEngine {
  /** Catalog `service` this engine serves: `flite`, `espeak-ng`, `openai`. */
  readonly service: string;
  status(): Promise<EngineStatus>;
  synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk>;
  /** Starts workers or connections ahead of the first request. */
  warmUp?(): Promise<void>;
  close(): Promise<void>;
}
