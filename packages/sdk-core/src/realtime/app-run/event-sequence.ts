/**
 * The numbered `value` events of a run (their `seq`) a client has taken: a copy (a replay of one it had) is recognised,
 * and `after` is the last number up to which it has them all, what it asks `replay_events` for once back from a dropped
 * connection. Unnumbered events (an older run) are always taken.
 *
 * @example
 * const sequence = new EventSequence();
 * if (sequence.take(message.seq)) apply(message.payload);
 * api.request({ type: 'replay_events', after: sequence.after });
 */
export class EventSequence {
  private contiguous = 0;
  /** Numbers taken above `contiguous` (events that came after a gap). */
  private readonly ahead = new Set<number>();

  /** The last number up to which every event was taken. */
  get after(): number {
    return this.contiguous;
  }

  /** True when the event is new (and now taken); false for a copy. */
  take(seq: number | undefined): boolean {
    if (seq === undefined) return true;
    if (seq <= this.contiguous || this.ahead.has(seq)) return false;
    this.ahead.add(seq);
    while (this.ahead.delete(this.contiguous + 1)) this.contiguous += 1;
    return true;
  }

  /** A new run: numbering starts again. */
  reset(): void {
    this.contiguous = 0;
    this.ahead.clear();
  }
}
