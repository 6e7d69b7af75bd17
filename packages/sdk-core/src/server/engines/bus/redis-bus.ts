import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { BusHandler, EventBus } from '../../kernel/event-bus.js';

/** Redis pub/sub bus: one publishing and one subscribing connection per instance, channels prefixed. */
export class RedisBus implements EventBus {
  private readonly publisher: Redis;
  private readonly subscriber: Redis;
  private readonly handlers = new Map<string, Set<BusHandler>>();

  constructor(
    url: string,
    private readonly logger?: Logger,
    private readonly prefix = 'palaver:',
  ) {
    const options = { lazyConnect: false, maxRetriesPerRequest: 3, enableAutoPipelining: true };
    // Named in Redis's CLIENT LIST by role and process. A connection Redis closes is opened again by ioredis, and the
    // subscriber subscribes to its channels again; an error is logged, never left unhandled.
    this.publisher = new Redis(url, { ...options, connectionName: `palaver-publisher-${process.pid}` });
    this.subscriber = new Redis(url, { ...options, connectionName: `palaver-subscriber-${process.pid}` });
    for (const connection of [this.publisher, this.subscriber]) {
      connection.on('error', (error) => this.logger?.warn({ err: error }, 'redis connection error'));
    }
    this.subscriber.on('message', (fullChannel: string, payload: string) => {
      const channel = fullChannel.slice(this.prefix.length);
      let message: unknown;
      try {
        message = JSON.parse(payload);
      } catch (error) {
        this.logger?.warn({ err: error, channel }, 'dropping a malformed bus message');
        return;
      }
      for (const handler of this.handlers.get(channel) ?? []) {
        Promise.resolve()
          .then(() => handler(message))
          .catch((error: unknown) => this.logger?.error({ err: error, channel }, 'bus handler failed'));
      }
    });
  }

  async publish(channel: string, message: unknown): Promise<number> {
    return this.publisher.publish(this.prefix + channel, JSON.stringify(message));
  }

  async subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.subscriber.subscribe(this.prefix + channel);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        await this.subscriber.unsubscribe(this.prefix + channel);
      }
    };
  }

  async close(): Promise<void> {
    this.handlers.clear();
    await Promise.allSettled([this.publisher.quit(), this.subscriber.quit()]);
  }
}
