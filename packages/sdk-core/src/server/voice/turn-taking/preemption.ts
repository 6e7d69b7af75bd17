import type { AnswerPreparer, ConversationVersion, PreparedAnswer } from './answer-preparer.js';

/** When answers may be prepared, and on what. */
export interface PreemptionPolicy {
  /** Whether an answer may be asked for now (adaptive and preemptive turn detection, nothing answering, no tools). */
  mayPrepare(): boolean;
  /** The conversation the answer would be asked on. */
  version(): ConversationVersion;
}

/** How preemption went for one utterance. */
export interface PreemptionOutcome {
  /** The answer asked for at the last pause, when it answers the words the turn ended with. */
  prepared: PreparedAnswer | undefined;
  /** Answers prepared at this utterance's pauses and thrown away (the human went on, or other words). */
  discardedAnswers: number;
}

/**
 * Preemptive answering for one utterance of the human: at each pause the words so far are asked about (unless
 * an answer for the same words is held), going on after a pause throws that answer away, and the end of the
 * turn takes it when it answers the final words on the same conversation. The built-in agent keeps one per
 * utterance over its preparer; a graph's LLM node one per run, fed by its STT node's pauses.
 *
 * @example
 * const preemption = new Preemption(preparer, { mayPrepare: () => queue.idle, version: () => conversation.version });
 * preemption.pause('what time is it');                // the human paused
 * const { prepared } = preemption.finish(text, true);  // the turn ended
 */
export class Preemption {
  private discarded = 0;

  constructor(
    private readonly preparer: AnswerPreparer,
    private readonly policy: PreemptionPolicy,
  ) {}

  /** The human paused after `text`: asks for an answer to it when allowed and not already held. */
  pause(text: string): void {
    if (text === '' || !this.policy.mayPrepare()) return;
    const version = this.policy.version();
    if (this.preparer.holds(text, version)) return;
    if (this.preparer.prepare(text, version)) this.discarded += 1;
  }

  /** The human went on after a pause: the answer asked for it is thrown away. */
  resumed(): void {
    if (this.preparer.discard()) this.discarded += 1;
  }

  /**
   * The turn ended with `text`: the held answer when it answers `text` and `usable` (nothing else runs or waits)
   * on the conversation it was asked on (`version`, by default the policy's now), otherwise it is thrown away. The
   * count of thrown-away answers starts again.
   */
  finish(text: string, usable: boolean, version: ConversationVersion = this.policy.version()): PreemptionOutcome {
    const prepared = text !== '' && usable ? this.preparer.take(text, version) : undefined;
    if (!prepared && this.preparer.discard()) this.discarded += 1;
    const discardedAnswers = this.discarded;
    this.discarded = 0;
    return { prepared, discardedAnswers };
  }
}
