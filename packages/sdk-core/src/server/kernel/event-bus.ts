/** A message handler; errors it throws are logged by the bus, never propagated to the publisher. */
export type BusHandler = (message: unknown) => void | Promise<void>;

/**
 * Cross-instance events and control (e.g. "end session X" reaching the instance that hosts it).
 * Embedded default: in process. With `REDIS_URL`: Redis pub/sub.
 */
export interface EventBus {
  /**
   * Delivers `message` (JSON-serialisable) to every subscriber of `channel` on every instance; resolves with
   * how many subscriptions received it (this instance's included).
   */
  publish(channel: string, message: unknown): Promise<number>;
  /** Subscribes; resolves once the subscription is active. Returns the unsubscribe function. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
