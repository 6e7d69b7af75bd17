import type { PendingTurn } from './voice-turn.js';

/** What the queue calls to run a turn, and to report the one that threw. */
export interface TurnRunner {
  run(turn: PendingTurn, index: number, signal: AbortSignal): Promise<void>;
  /** A turn threw (a bug or a dead transport, not a turn's own failure, which `run` reports): the queue stops. */
  crashed(error: unknown): void;
  /** The queue ran dry after a turn. */
  idle(): void;
}

/**
 * The agent's turns, one at a time, in order: each runs with its own abort signal, which an interruption
 * (barge-in) or `clear()` aborts. A turn's prepared answer is aborted with it. Nothing runs before `ready`.
 *
 * @example
 * const queue = new TurnQueue(runner, warmedUp);
 * queue.push({ kind: 'say', text: 'Hello', receivedAtClock: performance.now() });
 * queue.interrupt('the human spoke');
 */
export class TurnQueue {
  private readonly waiting: PendingTurn[] = [];
  private current: AbortController | undefined;
  private driving = false;
  private stopped = false;
  private turns = 0;

  constructor(
    private readonly runner: TurnRunner,
    private readonly ready: Promise<void>,
  ) {}

  /** Whether a turn runs now. */
  get busy(): boolean {
    return this.current !== undefined;
  }

  /** Whether nothing runs and nothing waits. */
  get idle(): boolean {
    return !this.current && this.waiting.length === 0;
  }

  push(turn: PendingTurn): void {
    if (this.stopped) return;
    this.waiting.push(turn);
    void this.drive();
  }

  /** Runs `turn` before the ones waiting (the greeting when the human arrives). */
  pushFirst(turn: PendingTurn): void {
    if (this.stopped) return;
    this.waiting.unshift(turn);
    void this.drive();
  }

  /** Aborts the turn running now (if any) with `reason`. */
  interrupt(reason: string): void {
    if (this.current && !this.current.signal.aborted) this.current.abort(new DOMException(reason, 'AbortError'));
  }

  /** Drops the waiting turns, aborts the running one, and takes no more. */
  stop(reason: string): void {
    this.stopped = true;
    this.waiting.length = 0;
    this.interrupt(reason);
  }

  private async drive(): Promise<void> {
    if (this.driving) return;
    this.driving = true;
    try {
      await this.ready;
      while (!this.stopped && this.waiting.length > 0) await this.runNext(this.waiting.shift()!);
    } catch (error) {
      this.stopped = true;
      this.runner.crashed(error);
    } finally {
      this.driving = false;
    }
    if (!this.stopped && this.waiting.length > 0) void this.drive();
  }

  private async runNext(turn: PendingTurn): Promise<void> {
    const controller = new AbortController();
    this.current = controller;
    const prepared = turn.kind === 'user' ? turn.prepared : undefined;
    if (prepared) controller.signal.addEventListener('abort', () => prepared.controller.abort(controller.signal.reason), { once: true });
    try {
      await this.runner.run(turn, this.turns++, controller.signal);
    } finally {
      controller.abort();
      this.current = undefined;
      if (!this.stopped && this.waiting.length === 0) this.runner.idle();
    }
  }
}
