/**
 * Whether the session's human is around: a timer that fires `gone` when the human has not joined within
 * the join timeout, or left and did not come back within the grace. Joining again clears it.
 *
 * @example
 * const presence = new HumanPresence({ joinTimeoutMs: 120_000, leftGraceMs: 30_000 }, (detail) => stop('human_left', detail));
 * presence.expectJoin();
 * connection.on('participantJoined', (p) => p.identity === human && presence.joined());
 * connection.on('participantLeft', (p) => p.identity === human && presence.left());
 */
export class HumanPresence {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly timing: { joinTimeoutMs: number; leftGraceMs: number },
    private readonly gone: (detail: string) => void,
  ) {}

  /** Starts waiting for the human's first join. */
  expectJoin(): void {
    this.arm(this.timing.joinTimeoutMs, `the human did not join within ${this.timing.joinTimeoutMs / 1000} s`);
  }

  joined(): void {
    this.clear();
  }

  /** The human left; `forGood` (a phone caller who hung up: a new call is a new participant) ends it at once. */
  left(forGood = false): void {
    if (forGood) this.arm(0, 'the caller hung up');
    else this.arm(this.timing.leftGraceMs, 'the human left the room and did not come back');
  }

  stop(): void {
    this.stopped = true;
    this.clear();
  }

  private arm(ms: number, detail: string): void {
    if (this.stopped) return;
    this.clear();
    this.timer = setTimeout(() => this.gone(detail), ms);
    this.timer.unref();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
