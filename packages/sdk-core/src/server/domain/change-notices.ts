import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { EventBus } from '../kernel/event-bus.js';

/** What instances tell each other changed, so each drops what it remembered of it. */
export type ChangeTopic = 'llms' | 'secrets' | 'api-keys';

const CHANNEL = 'palaver.changes';
/** Longest an announcing instance waits for the others to confirm (a stopped instance never does). */
const ACKNOWLEDGE_TIMEOUT_MS = 500;

interface ChangeNotice {
  topic: ChangeTopic;
  origin: string;
  /** Channel each receiving instance confirms on once it dropped what it remembered. */
  acknowledge: string;
}

/**
 * Cache invalidation across instances: a service that remembers something briefly (verified API keys, resolved
 * LLMs and their secrets) announces its changes here, and every other instance hears them over the event bus
 * (Redis with `REDIS_URL`) and forgets at once, instead of serving the old value until its cache expires.
 * `announce` resolves once every other instance confirmed (or after {@link ACKNOWLEDGE_TIMEOUT_MS}), so a
 * client whose change call returned finds every instance fresh on its next request. A service applies its own
 * changes locally; notices from this instance are not delivered back.
 *
 * @example
 * const notices = new ChangeNotices(bus, logger);
 * notices.on('llms', () => llms.noteChange());
 * await notices.start();
 * await notices.announce('llms'); // after committing a change
 */
export class ChangeNotices {
  private readonly origin = randomUUID();
  private readonly listeners = new Map<ChangeTopic, Array<() => void>>();
  private unsubscribe: (() => Promise<void>) | undefined;

  constructor(
    private readonly bus: EventBus,
    private readonly logger: Logger,
  ) {}

  /** Runs `listener` when another instance announces a change of `topic`. */
  on(topic: ChangeTopic, listener: () => void): void {
    this.listeners.set(topic, [...(this.listeners.get(topic) ?? []), listener]);
  }

  /** Subscribes to the other instances' notices; resolves once the subscription is active. */
  async start(): Promise<void> {
    this.unsubscribe ??= await this.bus.subscribe(CHANNEL, (message) => this.deliver(message as ChangeNotice));
  }

  /**
   * Tells the other instances that `topic` changed and waits until they confirmed. A bus failure or a silent
   * instance is logged, not thrown: the change is committed, and caches expire on their own within a second.
   */
  async announce(topic: ChangeTopic): Promise<void> {
    const acknowledge = `palaver.changes.acknowledged.${randomUUID()}`;
    let confirmed = 0;
    let expected = Number.POSITIVE_INFINITY;
    let allConfirmed: () => void = () => {};
    const done = new Promise<void>((resolve) => (allConfirmed = resolve));
    const check = () => {
      if (confirmed >= expected) allConfirmed();
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const unsubscribe = await this.bus.subscribe(acknowledge, () => {
        confirmed += 1;
        check();
      });
      try {
        // Every instance's subscription receives the notice, this one's included.
        expected = (await this.bus.publish(CHANNEL, { topic, origin: this.origin, acknowledge } satisfies ChangeNotice)) - 1;
        check();
        const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ACKNOWLEDGE_TIMEOUT_MS)));
        if (await Promise.race([done.then(() => false), timedOut])) {
          this.logger.warn({ topic, expected, confirmed }, 'not every instance confirmed a change notice; their caches expire within a second');
        }
      } finally {
        clearTimeout(timer);
        await unsubscribe();
      }
    } catch (error) {
      this.logger.warn({ err: error, topic }, 'a change notice could not be sent; other instances see the change when their caches expire');
    }
  }

  async close(): Promise<void> {
    await this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private async deliver(notice: ChangeNotice): Promise<void> {
    if (notice?.origin === this.origin) return;
    for (const listener of this.listeners.get(notice?.topic) ?? []) listener();
    if (typeof notice?.acknowledge === 'string') await this.bus.publish(notice.acknowledge, {});
  }
}
