/**
 * A small reordering jitter buffer: packets are held until `depth` later ones arrived (or `flush` is called on
 * a quiet line), then released in sequence order; duplicates and packets older than the last released one are
 * dropped. Telephony peers send 20 ms packets at an even pace, so a depth of 3 (60 ms) absorbs the usual jitter
 * and reordering without adding audible delay.
 *
 * @example
 * const buffer = new JitterBuffer<Packet>(3);
 * for (const ready of buffer.push(packet.sequenceNumber, packet)) play(ready);
 */
export class JitterBuffer<T> {
  private readonly held = new Map<number, T>();
  /** The last released sequence number, unwrapped. */
  private lastReleased: number | undefined;
  private highest: number | undefined;
  private dropped = 0;

  constructor(private readonly depth: number) {}

  /** Packets dropped as late or duplicate. */
  get droppedCount(): number {
    return this.dropped;
  }

  push(sequence: number, item: T): T[] {
    const unwrapped = this.unwrap(sequence);
    if ((this.lastReleased !== undefined && unwrapped <= this.lastReleased) || this.held.has(unwrapped)) {
      this.dropped += 1;
      return [];
    }
    this.held.set(unwrapped, item);
    if (this.highest === undefined || unwrapped > this.highest) this.highest = unwrapped;
    const released: T[] = [];
    while (this.held.size > this.depth) released.push(this.releaseLowest());
    return released;
  }

  /** Everything held, in order (the line went quiet, or the call ends). */
  flush(): T[] {
    const released: T[] = [];
    while (this.held.size > 0) released.push(this.releaseLowest());
    return released;
  }

  private releaseLowest(): T {
    const lowest = Math.min(...this.held.keys());
    const item = this.held.get(lowest)!;
    this.held.delete(lowest);
    this.lastReleased = lowest;
    return item;
  }

  /** Extends the 16-bit sequence number past wrap-around, relative to the highest seen. */
  private unwrap(sequence: number): number {
    if (this.highest === undefined) return sequence + 0x10000;
    const base = this.highest - (this.highest & 0xffff);
    let candidate = base + sequence;
    if (candidate - this.highest > 0x8000) candidate -= 0x10000;
    else if (this.highest - candidate > 0x8000) candidate += 0x10000;
    return candidate;
  }
}
