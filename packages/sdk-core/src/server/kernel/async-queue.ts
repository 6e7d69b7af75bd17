/**
 * A single-consumer async queue: producers `push`, then `end` or `fail`; the consumer iterates. Bridges
 * callback-style sources (worker messages, HTTP streams, received media frames) into async iterables.
 * Unbounded by default (producers bounded by construction: one sentence of audio, one utterance of
 * transcripts); with a `capacity`, the oldest item is dropped when full (real-time audio: late frames are
 * worth less than fresh ones) and counted in `dropped`.
 *
 * @example
 * const queue = new AsyncQueue<number>();
 * queue.push(1); queue.end();
 * for await (const value of queue) console.log(value);
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiting: { resolve: (result: IteratorResult<T>) => void; reject: (error: Error) => void } | undefined;
  private finished = false;
  private failure: Error | undefined;
  /** Items dropped because the queue was full. */
  dropped = 0;

  constructor(private readonly capacity = Number.POSITIVE_INFINITY) {}

  push(item: T): void {
    if (this.finished) return;
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting.resolve({ value: item, done: false });
      return;
    }
    if (this.items.length >= this.capacity) {
      this.items.shift();
      this.dropped += 1;
    }
    this.items.push(item);
  }

  end(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.waiting) this.waiting.resolve({ value: undefined, done: true });
    this.waiting = undefined;
  }

  fail(error: Error): void {
    if (this.finished) return;
    this.finished = true;
    this.failure = error;
    if (this.waiting) this.waiting.reject(error);
    this.waiting = undefined;
  }

  /** Whether `end` or `fail` was called (items may still wait to be consumed). */
  get ended(): boolean {
    return this.finished;
  }

  /** Items waiting to be consumed. */
  get size(): number {
    return this.items.length;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.failure) return Promise.reject(this.failure);
    if (this.finished) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: async () => {
        this.end();
        this.items.length = 0;
        return { value: undefined, done: true };
      },
    };
  }
}
