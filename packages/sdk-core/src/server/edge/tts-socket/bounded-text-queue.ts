/** The session pushed more text than it may have waiting for synthesis. */
export class TextBacklogError extends Error {
  override name = 'TextBacklogError';
}

/**
 * Text pieces waiting for synthesis, consumed as an async iterable by the engine's segmenter. The number
 * of waiting characters is capped: synthesis is pull-based and pauses while the socket is congested, so
 * without the cap a client that keeps pushing text to a slow reader would grow memory without bound.
 *
 * @example
 * const queue = new BoundedTextQueue(20_000);
 * queue.push('Hello there. '); queue.end();
 * for await (const piece of queue) segmenter.push(piece);
 */
export class BoundedTextQueue implements AsyncIterable<string> {
  private readonly pieces: string[] = [];
  private waiting: ((result: IteratorResult<string>) => void) | undefined;
  private ended = false;
  private queuedCharacters = 0;

  constructor(readonly maximumCharacters: number) {}

  /** Characters pushed and not yet taken by synthesis. */
  get size(): number {
    return this.queuedCharacters;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Throws {@link TextBacklogError} when the piece would exceed the cap (nothing is queued then). */
  push(text: string): void {
    if (this.ended) throw new Error('text queue already ended');
    if (text === '') return;
    if (this.queuedCharacters + text.length > this.maximumCharacters) {
      throw new TextBacklogError(
        `too much text waiting for synthesis (${this.queuedCharacters + text.length} > ${this.maximumCharacters} characters): read the audio before pushing more`,
      );
    }
    if (this.waiting) {
      const waiting = this.waiting;
      this.waiting = undefined;
      waiting({ value: text, done: false });
      return;
    }
    this.pieces.push(text);
    this.queuedCharacters += text.length;
  }

  /** No more text (`eos`, or the session is abandoned). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.waiting?.({ value: undefined, done: true });
    this.waiting = undefined;
  }

  [Symbol.asyncIterator](): AsyncIterator<string> {
    return {
      next: () => {
        const piece = this.pieces.shift();
        if (piece !== undefined) {
          this.queuedCharacters -= piece.length;
          return Promise.resolve({ value: piece, done: false });
        }
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.end();
        this.pieces.length = 0;
        this.queuedCharacters = 0;
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
