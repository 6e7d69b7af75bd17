/**
 * The session's time limit: reports the whole seconds remaining about once a second and calls `expired`
 * once when none remain. The limit can change while it runs (`setLimit`); time is counted from `start`.
 *
 * @example
 * const countdown = new SessionCountdown({ tick: (seconds) => publisher.setRemainingSeconds(seconds), expired: () => stop() });
 * countdown.start(120);
 */
export class SessionCountdown {
  private startedAt = 0;
  private limitSeconds: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private done = false;

  constructor(
    private readonly callbacks: {
      tick: (remainingSeconds: number | null) => void;
      expired: () => void;
    },
  ) {}

  /** Seconds left (rounded up), or null without a limit. */
  get remainingSeconds(): number | null {
    if (this.limitSeconds === null) return null;
    const elapsed = (performance.now() - this.startedAt) / 1000;
    return Math.max(0, Math.ceil(this.limitSeconds - elapsed));
  }

  start(limitSeconds: number | null): void {
    this.startedAt = performance.now();
    this.setLimit(limitSeconds);
  }

  setLimit(limitSeconds: number | null): void {
    if (this.done) return;
    this.limitSeconds = limitSeconds;
    this.schedule();
  }

  stop(): void {
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const remaining = this.remainingSeconds;
    this.callbacks.tick(remaining);
    if (remaining === null || this.done) return;
    if (remaining === 0) {
      this.stop();
      this.callbacks.expired();
      return;
    }
    // Wake when the rounded-up value next changes.
    const elapsedMs = performance.now() - this.startedAt;
    const nextChangeMs = (this.limitSeconds! - remaining + 1) * 1000 - elapsedMs;
    this.timer = setTimeout(() => this.schedule(), Math.max(10, nextChangeMs + 1));
    this.timer.unref();
  }
}
