/** Words a fake recogniser puts in place of the one spoken when it makes a substitution error. */
const CONFUSIONS = ['the', 'a', 'and', 'in', 'to', 'of', 'that', 'for', 'on', 'it', 'is', 'at', 'by', 'this', 'was', 'they', 'but', 'or', 'an', 'what'];

/** A number in [0, 1) that depends only on its inputs (mulberry32 over a mixed seed). */
export function seededUnit(...parts: number[]): number {
  let state = 0x9e3779b9;
  for (const part of parts) state = Math.imul(state ^ (part | 0), 0x85ebca6b) ^ (state >>> 13);
  state = (state + 0x6d2b79f5) | 0;
  let value = Math.imul(state ^ (state >>> 15), 1 | state);
  value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
  return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
}

export interface HeardWord {
  /** As the script spells it (with its case and punctuation), or the substitute. */
  token: string;
  /** Lower case without punctuation, as vendors report the plain word. */
  word: string;
  confidence: number;
  substituted: boolean;
}

/** The plain form of a token: lower case, letters, digits and apostrophes. */
export function plainWord(token: string): string {
  return token.toLowerCase().replace(/[^\p{L}\p{N}']+/gu, '');
}

/**
 * The script's words of one utterance as the fake hears them: each substituted with probability `rate`, decided by
 * (seed, utterance, word index) alone, so interims and the final agree and a run repeats exactly. Substitutes keep
 * the token's trailing punctuation and come with a lower confidence.
 *
 * @example
 * hearWords('Book a table for two.', { rate: 0.2, seed: 7, utterance: 0 });
 */
export function hearWords(text: string, options: { rate: number; seed: number; utterance: number }): HeardWord[] {
  return text
    .split(/\s+/)
    .filter(Boolean)
    .map((token, index) => {
      const draw = seededUnit(options.seed, options.utterance, index, 1);
      const wobble = seededUnit(options.seed, options.utterance, index, 2);
      if (draw < options.rate) {
        const spoken = plainWord(token);
        const candidates = CONFUSIONS.filter((word) => word !== spoken);
        const substitute = candidates[Math.floor(wobble * candidates.length)]!;
        const trailing = /[^\p{L}\p{N}']+$/u.exec(token)?.[0] ?? '';
        return { token: substitute + trailing, word: substitute, confidence: round(0.35 + 0.25 * wobble), substituted: true };
      }
      return { token, word: plainWord(token), confidence: round(0.9 + 0.09 * wobble), substituted: false };
    });
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
