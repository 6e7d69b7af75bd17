import { scoreEndOfTurn, type EndOfTurnScore } from './end-of-turn-scorer.js';

/** How the agent decides that the human's turn is over. */
export interface TurnEndSettings {
  /**
   * `fixed`: a set silence ends the turn (`silenceMs`). `adaptive`: a short pause (`pauseMs`) lets the words
   * heard so far decide how much longer to wait, between `minWaitMs` and `maxWaitMs` after the last speech.
   */
  mode: 'fixed' | 'adaptive';
  /** fixed: the silence after speech that ends the turn. */
  silenceMs: number;
  /** adaptive: the silence after which the words are read (a pause). */
  pauseMs: number;
  /**
   * adaptive, preemptive: the silence after which the decoder's words so far are read early to start
   * preparing an answer, before the pause is confirmed.
   */
  prepareMs: number;
  /** adaptive: the wait after a finished question or statement. */
  minWaitMs: number;
  /** adaptive: the wait after a conjunction, a filler or an unfinished clause. */
  maxWaitMs: number;
  /** adaptive: start preparing the answer at a pause, played only if the turn is confirmed. */
  preemptive: boolean;
  /**
   * adaptive: a recognised word below this confidence is not trusted to say how the turn ends (default
   * `UNSURE_WORD_CONFIDENCE`). Lower for audio on which the recogniser is less sure of every word (phone calls).
   */
  unsureWordConfidence?: number;
  /**
   * adaptive: the most that words the recogniser was mostly unsure of can say the turn ended (default
   * `MOSTLY_UNSURE_PROBABILITY`). Higher where nearly every reading is mostly unsure (phone calls), or every turn waits long.
   */
  mostlyUnsureProbability?: number;
}

export const DEFAULT_TURN_END: TurnEndSettings = {
  mode: 'adaptive',
  silenceMs: 550,
  pauseMs: 128,
  prepareMs: 64,
  minWaitMs: 200,
  maxWaitMs: 1200,
  preemptive: true,
};

/** What the policy decided at a pause. */
export interface TurnEndDecision {
  score: EndOfTurnScore;
  /** How long after the last speech the turn ends if the human stays silent. */
  waitMs: number;
}

/**
 * The wait after the last speech before the turn ends, from the words heard so far: `minWaitMs` for a turn
 * that is surely over, `maxWaitMs` for one that surely goes on, in between by the square of the doubt.
 *
 * @example
 * turnEndWait(DEFAULT_TURN_END, 'can you tell me a story about a dog'); // { waitMs: 203, ... }
 * turnEndWait(DEFAULT_TURN_END, 'i would like to'); // { waitMs: 1103, ... }
 * turnEndWait(DEFAULT_TURN_END, 'i would like to but the cable far', { unsureWords: 4 }); // { waitMs: 840, ... } (the ending is unsure)
 */
export function turnEndWait(settings: TurnEndSettings, text: string, heard: { unsureWords?: number; mostlyUnsure?: boolean } = {}): TurnEndDecision {
  const score = scoreEndOfTurn(text, { ...heard, mostlyUnsureProbability: settings.mostlyUnsureProbability });
  if (settings.mode === 'fixed') return { score, waitMs: settings.silenceMs };
  const low = Math.max(settings.pauseMs, settings.minWaitMs);
  const high = Math.max(low, settings.maxWaitMs);
  // Squared: a likely end waits close to the minimum, doubt grows the wait quickly.
  const doubt = 1 - score.probability;
  return { score, waitMs: Math.round(low + doubt * doubt * (high - low)) };
}
