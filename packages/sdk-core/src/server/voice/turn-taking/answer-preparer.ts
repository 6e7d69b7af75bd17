import type { Answer } from '../answering/answer-stream.js';
import { transcriptWords } from './transcript-words.js';

/**
 * What an answer was asked on: the built-in agent's conversation counter, or a graph context's fingerprint.
 * An answer is played only on the version it was asked at.
 */
export type ConversationVersion = number | string;

/** An answer asked for at a pause of the human, before their turn was confirmed over. */
export interface PreparedAnswer {
  /** The words it answers. */
  text: string;
  /** The conversation's version it was asked at. */
  version: ConversationVersion;
  answer: Answer;
  /** Aborts the model call (a discarded answer's tokens so far are still metered by the gateway). */
  controller: AbortController;
}

/** Endings a recogniser's early words and its final often disagree on ("leave" / "leaves"). */
const INFLECTIONS = ['s', 'es', 'd', 'ed', 'ing'];

/** Whether two words differ at most by an inflection of a word of three letters or more ("leave" / "leaves"). */
function sameWord(left: string, right: string): boolean {
  if (left === right) return true;
  const [short, long] = left.length < right.length ? [left, right] : [right, left];
  return short.length >= 3 && long.startsWith(short) && INFLECTIONS.includes(long.slice(short.length));
}

/**
 * Whether an answer asked for `prepared` answers `heard` as well: the same words, case, punctuation and inflections
 * aside ("what time does the train leave" / "What time does the train leaves?"). The decoder's early words and its
 * final disagree like that often, and such an answer would otherwise be thrown away and asked again.
 */
export function answersTheSame(prepared: string, heard: string): boolean {
  if (prepared === heard) return true;
  const left = transcriptWords(prepared);
  const right = transcriptWords(heard);
  return left.length === right.length && left.length > 0 && left.every((word, index) => sameWord(word, right[index]!));
}

/**
 * Preemptive answers: at a pause the agent asks the model with the words heard so far; if the turn ends
 * with the same words (inflections aside) on the same conversation, that answer is played at once, otherwise it is aborted and
 * the turn asks again. Holds at most one prepared answer.
 *
 * @example
 * const preparer = new AnswerPreparer((text, signal) => streamAnswer(chat, { ...request(text), signal }));
 * preparer.prepare('what time is it', conversation.version);   // at the pause
 * const prepared = preparer.take(finalText, conversation.version); // at the end of the turn: undefined when stale
 */
export class AnswerPreparer {
  private held: PreparedAnswer | undefined;
  /** Answers thrown away since the start (stale, or the human went on). */
  discarded = 0;

  constructor(private readonly ask: (text: string, signal: AbortSignal) => Answer) {}

  /** Asks for an answer to `text`; whether an answer held for other words was thrown away for it. */
  prepare(text: string, version: ConversationVersion): boolean {
    const replaced = this.discard();
    const controller = new AbortController();
    const answer = this.ask(text, controller.signal);
    // A discarded answer's failure (its abort) is nobody's concern.
    answer.done.catch(() => undefined);
    this.held = { text, version, answer, controller };
    return replaced;
  }

  /** Whether the answer held answers `text` at `version` already (see {@link answersTheSame}). */
  holds(text: string, version: ConversationVersion): boolean {
    return this.held !== undefined && this.held.version === version && answersTheSame(this.held.text, text);
  }

  /** Throws the prepared answer away; whether there was one. */
  discard(): boolean {
    const held = this.held;
    if (!held) return false;
    this.held = undefined;
    held.controller.abort(new DOMException('the prepared answer was discarded', 'AbortError'));
    this.discarded += 1;
    return true;
  }

  /** The prepared answer when it answers `text` at `version`; otherwise it is discarded and undefined comes back. */
  take(text: string, version: ConversationVersion): PreparedAnswer | undefined {
    const held = this.held;
    if (!held) return undefined;
    if (held.version !== version || !answersTheSame(held.text, text)) {
      this.discard();
      return undefined;
    }
    this.held = undefined;
    return held;
  }
}
