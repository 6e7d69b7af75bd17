import type { Logger } from 'pino';
import type { BusHandler, EventBus } from '../../kernel/event-bus.js';

/** The single-instance bus: delivers asynchronously, with the same JSON copy semantics as Redis. */
export class InProcessBus implements EventBus {
  private readonly handlers = new Map<string, Set<BusHandler>>();

  constructor(private readonly logger?: Logger) {}

  async publish(channel: string, message: unknown): Promise<number> {
    const payload = JSON.stringify(message);
    const handlers = this.handlers.get(channel) ?? new Set<BusHandler>();
    for (const handler of handlers) {
      queueMicrotask(() => {
        Promise.resolve()
          .then(() => handler(JSON.parse(payload)))
          .catch((error: unknown) => this.logger?.error({ err: error, channel }, 'bus handler failed'));
      });
    }
    return handlers.size;
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(channel);
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
  }
}
