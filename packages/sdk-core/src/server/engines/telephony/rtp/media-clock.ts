const FRAME_MS = 20;
/** After a stall (a blocked event loop), at most this many frames are caught up at once. */
const MAX_CATCH_UP = 5;

/**
 * One 20 ms clock for every call of the endpoint: each tick asks every call for its next frame. It counts
 * frames due since it started, so timer drift does not slow the calls' audio down.
 *
 * @example
 * const clock = new MediaClock();
 * const stop = clock.add(() => rtp.sendFrame(bridge.nextFrame()));
 */
export class MediaClock {
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private started = 0;
  private ticks = 0;

  add(listener: () => void): () => void {
    this.listeners.add(listener);
    if (!this.timer) {
      this.started = performance.now();
      this.ticks = 0;
      this.timer = setInterval(() => this.tick(), FRAME_MS / 2);
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const due = Math.floor((performance.now() - this.started) / FRAME_MS);
    if (due - this.ticks > MAX_CATCH_UP) this.ticks = due - MAX_CATCH_UP;
    while (this.ticks < due) {
      this.ticks += 1;
      for (const listener of this.listeners) listener();
    }
  }
}
