import { concatPcm } from '../codecs/pcm.js';
import type { PcmChunk, PhonemeTiming, WordTiming } from './tts-engine.js';

/** A whole synthesis in one piece. */
export interface CollectedSynthesis {
  pcm: Int16Array;
  sampleRate: number;
  chunkCount: number;
  wordTimings: WordTiming[];
  /** The phonemes with their times, from engines that tell them (eSpeak-NG, Flite). */
  phonemes: PhonemeTiming[];
  /** Milliseconds from the call to the first non-empty chunk. */
  firstAudioMs: number;
}

/**
 * Drains a synthesis stream into one buffer (for `POST /v1/voice/generate`, tests and benchmarks).
 * Chunks at a different rate than the first are an engine bug and rejected.
 *
 * @example
 * const { pcm, sampleRate } = await collectSynthesis(router.synthesize({ voice, text }));
 */
export async function collectSynthesis(stream: AsyncIterable<PcmChunk>): Promise<CollectedSynthesis> {
  const started = performance.now();
  const chunks: Int16Array[] = [];
  const wordTimings: WordTiming[] = [];
  const phonemes: PhonemeTiming[] = [];
  let sampleRate = 0;
  let firstAudioMs = 0;
  for await (const chunk of stream) {
    if (chunk.pcm.length > 0) {
      if (sampleRate && chunk.sampleRate !== sampleRate) throw new Error('synthesis changed sample rate mid-stream');
      sampleRate = chunk.sampleRate;
      if (chunks.length === 0) firstAudioMs = performance.now() - started;
      chunks.push(chunk.pcm);
    }
    if (chunk.wordTimings) wordTimings.push(...chunk.wordTimings);
    if (chunk.phonemes) phonemes.push(...chunk.phonemes);
  }
  return { pcm: concatPcm(chunks), sampleRate, chunkCount: chunks.length, wordTimings, phonemes, firstAudioMs };
}
