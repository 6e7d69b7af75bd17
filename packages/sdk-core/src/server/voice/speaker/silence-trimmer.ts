import type { PcmChunk, PhonemeTiming } from '../../engines/speech/index.js';

export interface SilenceTrimOptions {
  /** Silence kept before the first sound, ms. */
  keepLeadingMs: number;
  /** Silence kept after the last sound, ms. */
  keepTrailingMs: number;
  /** Samples quieter than this (PCM16 magnitude) are silence; default 300 (about -40 dBFS). */
  threshold?: number;
}

function join(first: Int16Array, second: Int16Array): Int16Array {
  if (first.length === 0) return second;
  if (second.length === 0) return first;
  const joined = new Int16Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

function firstLoud(pcm: Int16Array, threshold: number): number {
  for (let index = 0; index < pcm.length; index += 1) if (Math.abs(pcm[index]!) >= threshold) return index;
  return -1;
}

function lastLoud(pcm: Int16Array, threshold: number): number {
  for (let index = pcm.length - 1; index >= 0; index -= 1) if (Math.abs(pcm[index]!) >= threshold) return index;
  return -1;
}

/**
 * Trims the silence a synthesizer puts around each segment, as the audio streams: Flite pads every
 * sentence with ~200 ms before and after, which would add to the agent's response time and make pauses
 * between clauses twice as long as a speaker's. Sound passes through at once; trailing silence is held
 * back until more sound comes (then sent) or the segment ends (then cut to `keepTrailingMs`). Phoneme timings
 * come out on the next chunk sent, moved earlier by the leading silence cut (so they stay on the audio's time).
 *
 * @example
 * for await (const chunk of trimSilence(tts.synthesize(request), { keepLeadingMs: 30, keepTrailingMs: 150 })) write(chunk);
 */
export async function* trimSilence(chunks: AsyncIterable<PcmChunk>, options: SilenceTrimOptions): AsyncIterable<PcmChunk> {
  const threshold = options.threshold ?? 300;
  let sampleRate = 0;
  let started = false;
  let held: Int16Array = new Int16Array(0);
  // Phonemes not yet sent, and the samples of the stream so far / cut before the first sound.
  let phonemes: PhonemeTiming[] = [];
  let received = 0;
  let cutSeconds = 0;
  const withPhonemes = (pcm: Int16Array): PcmChunk => {
    if (phonemes.length === 0) return { pcm, sampleRate };
    const moved = phonemes.map((timing) => ({ ...timing, start: Math.max(0, timing.start - cutSeconds), end: Math.max(0, timing.end - cutSeconds) }));
    phonemes = [];
    return { pcm, sampleRate, phonemes: moved };
  };
  for await (const chunk of chunks) {
    if (chunk.phonemes) phonemes.push(...chunk.phonemes);
    if (chunk.pcm.length === 0) continue;
    sampleRate = chunk.sampleRate;
    received += chunk.pcm.length;
    const pcm = join(held, chunk.pcm);
    if (!started) {
      const first = firstLoud(pcm, threshold);
      const keepLeading = Math.round((options.keepLeadingMs / 1000) * sampleRate);
      if (first < 0) {
        held = pcm.slice(Math.max(0, pcm.length - keepLeading));
        continue;
      }
      started = true;
      const from = Math.max(0, first - keepLeading);
      cutSeconds = (received - pcm.length + from) / sampleRate;
      const last = lastLoud(pcm, threshold);
      held = pcm.slice(last + 1);
      yield withPhonemes(pcm.subarray(from, last + 1));
      continue;
    }
    const last = lastLoud(pcm, threshold);
    if (last < 0) {
      held = pcm;
      continue;
    }
    held = pcm.slice(last + 1);
    yield withPhonemes(pcm.subarray(0, last + 1));
  }
  if (!started || sampleRate === 0) return;
  const keepTrailing = Math.round((options.keepTrailingMs / 1000) * sampleRate);
  if (held.length > 0 && keepTrailing > 0) yield withPhonemes(held.subarray(0, keepTrailing));
}
