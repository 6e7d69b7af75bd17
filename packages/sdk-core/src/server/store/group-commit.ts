/** The most items written by one transaction; more wait for the next. */
const MAX_BATCH = 256;

interface Pending<I, O> {
  item: I;
  resolve: (output: O) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: items submitted in the same turn of the event loop, or while a transaction is running, are written
 * together by the next one, so under load many writers share one transaction (and, on PostgreSQL, its round trips)
 * while a lone writer waits for nothing but the end of the loop's turn and its own transaction. `submit` resolves
 * once the item's transaction committed, as a transaction of its own would. A batch that fails is retried item by
 * item, so one bad item fails only its own writer.
 *
 * @example
 * const records = new GroupCommit((items) => store.transaction((trx) => writeAll(trx, items)));
 * const written = await records.submit(item);
 */
export class GroupCommit<I, O> {
  private queue: Array<Pending<I, O>> = [];
  private flushing = false;

  /** `commit` writes the items in one transaction and returns their outputs in order. */
  constructor(private readonly commit: (items: readonly I[]) => Promise<O[]>) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.flushing) {
        this.flushing = true;
        // Items submitted before the loop's check phase join the first transaction: on SQLite a transaction ends
        // within the turn that began it, so flushing in a microtask wrote every item alone (100 concurrent streams
        // ended as 100 transactions). After the poll phase, the streams whose last bytes arrived together share one.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          const outputs = await this.commit(batch.map((pending) => pending.item));
          batch.forEach((pending, index) => pending.resolve(outputs[index]!));
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error);
          else for (const pending of batch) await this.writeAlone(pending);
        }
      }
    } finally {
      this.flushing = false;
    }
  }

  private async writeAlone(pending: Pending<I, O>): Promise<void> {
    try {
      const [output] = await this.commit([pending.item]);
      pending.resolve(output!);
    } catch (error) {
      pending.reject(error);
    }
  }
}
