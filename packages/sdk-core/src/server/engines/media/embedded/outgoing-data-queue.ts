/** Outgoing data packets held while the data channel opens. */
const MAX_QUEUED_DATA = 256;

/**
 * Keeps data for a client whose data channel is not open yet (the agent often speaks right after
 * the client joins) and sends it, in order, once the channel opens. Bounded: the oldest is dropped.
 *
 * @example
 * const queue = new OutgoingDataQueue((payload, reliable) => peers.sendData(payload, reliable));
 * queue.send(bytes, true); // later: channel opens -> queue.flush()
 */
export class OutgoingDataQueue {
  private readonly queued: Array<{ payload: Uint8Array; reliable: boolean }> = [];

  constructor(private readonly trySend: (payload: Uint8Array, reliable: boolean) => boolean) {}

  send(payload: Uint8Array, reliable: boolean): void {
    if (this.queued.length === 0 && this.trySend(payload, reliable)) return;
    if (this.queued.length >= MAX_QUEUED_DATA) this.queued.shift();
    this.queued.push({ payload, reliable });
  }

  flush(): void {
    while (this.queued.length > 0) {
      const next = this.queued[0]!;
      if (!this.trySend(next.payload, next.reliable)) return;
      this.queued.shift();
    }
  }

  clear(): void {
    this.queued.length = 0;
  }
}
