import type { EndOfTurnReason } from '../../../contract/sdk.js';
import { transcriptWords } from './transcript-words.js';

/**
 * How likely the words heard so far end the human's turn, from the words alone (no punctuation: speech
 * recognisers give lowercase words). A turn that stops on a conjunction, a preposition, an article, an
 * auxiliary, a subject pronoun or a filler is unfinished; a question or a statement that stops on a content
 * word is finished; a lone short word is in between unless it is a complete reply ("yes", "thanks").
 *
 * No end-of-turn model ships inside an npm or Debian package (LiveKit's and others download their weights at
 * run time), so this scorer is rule-based; the policy turns its probability into a wait.
 */

/** Words after which a clause goes on. */
const CONTINUATIONS = new Set([
  // conjunctions and relatives
  'and',
  'but',
  'or',
  'nor',
  'so',
  'because',
  'cause',
  'if',
  'when',
  'while',
  'although',
  'though',
  'unless',
  'until',
  'since',
  'then',
  'that',
  'which',
  'who',
  'whom',
  'whose',
  'where',
  'whether',
  'than',
  'as',
  'plus',
  'also',
  // prepositions
  'to',
  'of',
  'in',
  'on',
  'at',
  'for',
  'with',
  'from',
  'about',
  'into',
  'onto',
  'by',
  'like',
  'over',
  'under',
  'after',
  'before',
  'between',
  'through',
  'during',
  'without',
  'within',
  'against',
  'towards',
  'toward',
  'near',
  'around',
  'per',
  'via',
  // articles, determiners, possessives
  'the',
  'a',
  'an',
  'my',
  'your',
  'his',
  'her',
  'its',
  'our',
  'their',
  'this',
  'these',
  'those',
  'some',
  'any',
  'every',
  'each',
  'no',
  'another',
  'such',
  'what',
  'which',
  'few',
  'more',
  'most',
  'very',
  'really',
  'quite',
  'too',
  // auxiliaries and modals
  'is',
  'are',
  'was',
  'were',
  'am',
  'be',
  'been',
  'being',
  'have',
  'has',
  'had',
  'do',
  'does',
  'did',
  'will',
  'would',
  'can',
  'could',
  'should',
  'shall',
  'may',
  'might',
  'must',
  "i'm",
  "it's",
  "you're",
  "we're",
  "they're",
  "i'd",
  "i'll",
  "i've",
  "don't",
  "can't",
  "won't",
  "let's",
  'gonna',
  'wanna',
  'gotta',
  // subject pronouns that start a clause ("you" and "it" end many sentences as objects: not here)
  'i',
  'we',
  'they',
  'he',
  'she',
]);

/** Hesitations: the human is still thinking. */
const FILLERS = new Set(['um', 'umm', 'uh', 'uhm', 'er', 'erm', 'ah', 'eh', 'oh', 'hmm', 'mm', 'well', 'like', 'basically', 'actually', 'so', 'anyway']);
/** Two-word endings that are hesitations ("you know", "i mean", "sort of"). */
const FILLER_PAIRS = new Set(['you know', 'i mean', 'sort of', 'kind of', 'i guess', 'i think', 'let me', 'and then', 'or something']);

/**
 * Short replies that are whole turns. Openers that often lead into more ("wait", "stop", "okay", "hello",
 * "hey") are not here: alone they are `short`, and get a longer wait.
 */
const COMPLETE_REPLIES = new Set([
  'yes',
  'yeah',
  'yep',
  'no',
  'nope',
  'sure',
  'thanks',
  'thank you',
  'bye',
  'goodbye',
  'please',
  'great',
  'cool',
  'fine',
  'correct',
  'exactly',
  'absolutely',
  'never mind',
  'go on',
  'go ahead',
  'sounds good',
  'of course',
  'not really',
  'i see',
  'got it',
  'me too',
  'good morning',
  'good night',
  'good evening',
  'good afternoon',
]);

/** Words that open a question. */
const QUESTION_OPENERS = new Set([
  'what',
  'who',
  'whom',
  'whose',
  'where',
  'when',
  'why',
  'how',
  'which',
  'is',
  'are',
  'was',
  'were',
  'do',
  'does',
  'did',
  'can',
  'could',
  'would',
  'will',
  'should',
  'shall',
  'may',
  'might',
  'have',
  'has',
  'had',
  "what's",
  "where's",
  "who's",
  "how's",
]);

/** A transcript's end-of-turn estimate, with the reason (for logs and tests). */
export interface EndOfTurnScore {
  /** 0 (the human is surely going on) .. 1 (the turn is surely over). */
  probability: number;
  reason: EndOfTurnReason;
  /** Words at the end left out because the recogniser was unsure of them. */
  unsureWords?: number;
}

/** A recognised word below this posterior is not trusted to say how the turn ends. */
export const UNSURE_WORD_CONFIDENCE = 0.5;

/**
 * The ending is unknown: the sure words stop mid-clause, and the unsure words after them read as a finished
 * sentence ("my favourite colour is [blue you]" as much as "i would like to [but the cable far]"). With the
 * default bounds a ~840 ms wait: it outlasts the corpus' pauses mid-sentence up to ~650 ms (a resumption is
 * confirmed ~150 ms after it starts), and is ~260 ms shorter than a continuation's 1.1 s. At 0.3 (~690 ms) a
 * 500 ms pause was cut into.
 */
export const UNSURE_ENDING_PROBABILITY = 0.2;

/**
 * The most a reading of words the recogniser was mostly unsure of can say the turn ended: ~560 ms with the default
 * bounds, enough for a short pause mid-sentence (300-400 ms). Lower would hold up every badly recognised turn end
 * (a quarter of the corpus' ends, mostly eSpeak and short segments, at 0.2 waited ~890 ms instead of ~280 ms).
 */
export const MOSTLY_UNSURE_PROBABILITY = 0.4;

/**
 * How many words at the end of a final transcript the recogniser was unsure of (confidence below
 * {@link UNSURE_WORD_CONFIDENCE}), from its words with their confidences.
 *
 * @example
 * unsureTail([{ word: 'a', confidence: 0.9 }, { word: 'cable', confidence: 0.08 }, { word: 'far', confidence: 0.3 }]); // 2
 */
export function unsureTail(words: ReadonlyArray<{ confidence: number }>, unsureBelow = UNSURE_WORD_CONFIDENCE): number {
  let count = 0;
  while (count < words.length && words[words.length - 1 - count]!.confidence < unsureBelow) count += 1;
  return count;
}

/**
 * What the recogniser says of the words of its last final: how many at the end it was unsure of, and whether it
 * was unsure of most of them (the median word below `unsureBelow`, by default {@link UNSURE_WORD_CONFIDENCE}; a
 * profile whose audio lowers every posterior, such as the phone's, passes its own).
 *
 * @example
 * heardConfidence([{ word: 'find', confidence: 0.87 }, { word: 'a', confidence: 0.08 }, { word: 'group', confidence: 0.13 }]); // { unsureWords: 2, mostlyUnsure: true }
 */
export function heardConfidence(
  words: ReadonlyArray<{ confidence: number }>,
  unsureBelow = UNSURE_WORD_CONFIDENCE,
): { unsureWords: number; mostlyUnsure: boolean } {
  if (words.length === 0) return { unsureWords: 0, mostlyUnsure: false };
  const sorted = words.map((word) => word.confidence).sort((a, b) => a - b);
  const median = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2]! : (sorted[sorted.length / 2 - 1]! + sorted[sorted.length / 2]!) / 2;
  return { unsureWords: unsureTail(words, unsureBelow), mostlyUnsure: median < unsureBelow };
}

/**
 * Scores the words heard so far. With `unsureWords`, the last words the recogniser was unsure of do not
 * decide alone: a misheard ending ("a table far" for "a table for") must not pass for a finished sentence,
 * nor a misheard last word of a finished one ("my favourite colour is uglier" for "... is blue") for an
 * unfinished clause. The turn is judged by the words it is sure of when they read as likely an end as
 * {@link UNSURE_ENDING_PROBABILITY} or more, or when the whole reading stops mid-clause too; otherwise the
 * ending is `unsure` (in between).
 *
 * @example
 * scoreEndOfTurn('what time does the train leave'); // { probability: 0.95, reason: 'question' }
 * scoreEndOfTurn('i would like to book a table and'); // { probability: 0.05, reason: 'continuation' }
 * scoreEndOfTurn('i would like to but the cable far', { unsureWords: 4 }); // { probability: 0.2, reason: 'unsure', unsureWords: 4 }
 * scoreEndOfTurn('please remind me to calm my', { unsureWords: 2 }); // { probability: 0.05, reason: 'continuation', unsureWords: 2 }
 */
export function scoreEndOfTurn(text: string, options: { unsureWords?: number; mostlyUnsure?: boolean; mostlyUnsureProbability?: number } = {}): EndOfTurnScore {
  const score = scoreHeard(transcriptWords(text), options.unsureWords ?? 0);
  // Words the recogniser was unsure of for the most part cannot tell a finished turn ("could you help me find a
  // group" for "could you help me find a [pause] good restaurant", eSpeak): at most a moderate wait.
  const cap = options.mostlyUnsureProbability ?? MOSTLY_UNSURE_PROBABILITY;
  if (options.mostlyUnsure && score.probability > cap) return { ...score, probability: cap, reason: 'unsure' };
  return score;
}

function scoreHeard(heard: string[], unsureWords: number): EndOfTurnScore {
  const unsure = Math.min(unsureWords, heard.length);
  if (unsure === 0) return scoreWords(heard);
  const sure = scoreWords(heard.slice(0, heard.length - unsure));
  if (sure.probability >= UNSURE_ENDING_PROBABILITY || stopsMidClause(scoreWords(heard))) return { ...sure, unsureWords: unsure };
  return { probability: UNSURE_ENDING_PROBABILITY, reason: 'unsure', unsureWords: unsure };
}

function stopsMidClause(score: EndOfTurnScore): boolean {
  return score.reason === 'continuation' || score.reason === 'filler';
}

function scoreWords(words: string[]): EndOfTurnScore {
  if (words.length === 0) return { probability: 0.5, reason: 'empty' };
  const last = words.at(-1)!;
  const lastTwo = words.slice(-2).join(' ');
  const whole = words.join(' ');
  if (COMPLETE_REPLIES.has(whole)) return { probability: 0.9, reason: 'reply' };
  if (FILLER_PAIRS.has(lastTwo) || FILLERS.has(last)) return { probability: 0.05, reason: 'filler' };
  if (CONTINUATIONS.has(last)) return { probability: 0.05, reason: 'continuation' };
  // A word or two that is not a known reply: often the start of something.
  if (words.length <= 2) return { probability: 0.35, reason: 'short' };
  if (QUESTION_OPENERS.has(words[0]!)) return { probability: 0.95, reason: 'question' };
  // Three words are a short statement ("call me tomorrow") as often as a start ("my favourite colour").
  return { probability: words.length === 3 ? 0.7 : 0.85, reason: 'statement' };
}
