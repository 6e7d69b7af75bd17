/**
 * A bounded single-consumer queue exposed as an async iterable. When full, the oldest item is
 * dropped (real-time audio: late frames are worth less than fresh ones).
 *
 * @example
 * const queue = new AsyncQueue<number>(100);
 * queue.push(1); queue.end();
 * for await (const item of queue) console.log(item);
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: ((result: IteratorResult<T>) => void) | undefined;
  private endedFlag = false;
  dropped = 0;

  constructor(private readonly capacity = Number.POSITIVE_INFINITY) {}

  get ended(): boolean {
    return this.endedFlag;
  }

  push(item: T): void {
    if (this.endedFlag) return;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    if (this.items.length >= this.capacity) {
      this.items.shift();
      this.dropped += 1;
    }
    this.items.push(item);
  }

  end(): void {
    if (this.endedFlag) return;
    this.endedFlag = true;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  next(): Promise<IteratorResult<T>> {
    if (this.items.length > 0) return Promise.resolve({ value: this.items.shift()!, done: false });
    if (this.endedFlag) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: () => {
        this.end();
        this.items.length = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
