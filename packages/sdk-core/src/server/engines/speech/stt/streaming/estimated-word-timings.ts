import type { TimedWord } from './streaming-stt.js';

/** A token's log probability, as OpenAI's transcription events carry them. */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

/**
 * Places a transcript's words over the span of audio they were heard in, each word's share proportional to its
 * length (plus one for the gap): for vendors that give text without word times (OpenAI's realtime transcription).
 * `confidences[i]` is the i-th word's confidence (1 when unknown).
 *
 * @example
 * estimateWordTimings('hello there', 1.0, 2.0); // hello 1.0-1.5, there 1.5-2.0
 */
export function estimateWordTimings(text: string, start: number, end: number, confidences: readonly number[] = []): TimedWord[] {
  const words = text.split(/\s+/).filter(Boolean);
  const weights = words.map((word) => word.length + 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const span = Math.max(0, end - start);
  let at = start;
  return words.map((word, index) => {
    const duration = total > 0 ? (span * weights[index]!) / total : 0;
    const timed = { word, start: round(at), end: round(at + duration), confidence: confidences[index] ?? 1 };
    at += duration;
    return timed;
  });
}

/**
 * Each word's confidence from the tokens that spell the transcript: e^(mean log probability) of the tokens
 * overlapping the word's characters. Words no token covers get 1.
 *
 * @example
 * wordConfidences('hi you', [{ token: 'hi', logprob: 0 }, { token: ' you', logprob: -0.7 }]); // [1, ~0.5]
 */
export function wordConfidences(text: string, tokens: readonly TokenLogprob[]): number[] {
  const spans: Array<{ from: number; to: number; sum: number; count: number }> = [];
  for (const match of text.matchAll(/\S+/g)) spans.push({ from: match.index, to: match.index + match[0].length, sum: 0, count: 0 });
  let at = 0;
  for (const { token, logprob } of tokens) {
    const from = at;
    at += token.length;
    for (const span of spans) {
      if (span.from < at && from < span.to) {
        span.sum += logprob;
        span.count += 1;
      }
    }
  }
  return spans.map((span) => (span.count > 0 ? round(Math.exp(span.sum / span.count)) : 1));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
