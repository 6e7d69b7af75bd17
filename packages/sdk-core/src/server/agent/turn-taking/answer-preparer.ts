import type { Answer } from '../answer-stream.js';

/** An answer asked for at a pause of the human, before their turn was confirmed over. */
export interface PreparedAnswer {
  /** The words it answers. */
  text: string;
  /** The conversation's version it was asked at. */
  version: number;
  answer: Answer;
  /** Aborts the model call (a discarded answer's tokens so far are still metered by the gateway). */
  controller: AbortController;
}

/**
 * Preemptive answers: at a pause the agent asks the model with the words heard so far; if the turn ends
 * with the same words on the same conversation, that answer is played at once, otherwise it is aborted and
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

  prepare(text: string, version: number): void {
    this.discard();
    const controller = new AbortController();
    const answer = this.ask(text, controller.signal);
    // A discarded answer's failure (its abort) is nobody's concern.
    answer.done.catch(() => undefined);
    this.held = { text, version, answer, controller };
  }

  /** Whether the answer held is for `text` at `version` already. */
  holds(text: string, version: number): boolean {
    return this.held !== undefined && this.held.text === text && this.held.version === version;
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
  take(text: string, version: number): PreparedAnswer | undefined {
    const held = this.held;
    if (!held) return undefined;
    if (held.text !== text || held.version !== version) {
      this.discard();
      return undefined;
    }
    this.held = undefined;
    return held;
  }
}
