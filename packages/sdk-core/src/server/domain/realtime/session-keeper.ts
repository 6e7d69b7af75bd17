import type { Logger } from 'pino';
import type { ExpiredLease, SessionLeases } from './session-leases.js';

export interface SessionKeeperTiming {
  /** How often this instance renews the leases of the sessions it hosts. */
  renewIntervalMs: number;
  /** How often it looks for sessions whose host stopped renewing. */
  reapIntervalMs: number;
}

/**
 * The background side of session leases: renews this instance's leases and ends the sessions of hosts that
 * stopped renewing (each expired lease is claimed by one instance only). Errors are logged and retried on the
 * next tick; nothing here can stop the server.
 *
 * @example
 * const keeper = new SessionKeeper(leases, { renewIntervalMs: 5000, reapIntervalMs: 5000 }, (lost) => service.endLost(lost), logger);
 * keeper.start();
 * await keeper.stop();
 */
export class SessionKeeper {
  private timers: NodeJS.Timeout[] = [];
  private running = Promise.resolve();

  constructor(
    private readonly leases: SessionLeases,
    private readonly timing: SessionKeeperTiming,
    private readonly endLost: (lease: ExpiredLease) => Promise<void>,
    private readonly logger: Logger,
  ) {}

  start(): void {
    if (this.timers.length > 0) return;
    this.timers = [
      setInterval(() => this.serially(() => this.renew()), this.timing.renewIntervalMs),
      setInterval(() => this.serially(() => this.reap()), this.timing.reapIntervalMs),
    ];
    for (const timer of this.timers) timer.unref();
    // Sessions left by a previous run of this instance (or a dead peer) are looked at right away.
    this.serially(() => this.reap());
  }

  /** Stops the timers and waits for a tick in progress. */
  async stop(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.running;
  }

  /** Ends the sessions whose host stopped renewing; answers how many. */
  async reap(): Promise<number> {
    const lost = await this.leases.claimExpired();
    for (const lease of lost) {
      this.logger.warn(
        { [this.leases.kind]: lease.sessionId, instance: lease.instance },
        `${this.leases.kind.replace('_', ' ')}: its host stopped renewing the lease; ending it`,
      );
      await this.endLost(lease).catch((error: unknown) => this.logger.error({ err: error, session: lease.sessionId }, 'ending what a lost host held failed'));
    }
    return lost.length;
  }

  private async renew(): Promise<void> {
    await this.leases.renew();
  }

  /** Runs ticks one at a time: a slow database must not pile them up. */
  private serially(tick: () => Promise<unknown>): void {
    this.running = this.running.then(tick).then(
      () => undefined,
      (error: unknown) => this.logger.error({ err: error }, 'session lease upkeep failed'),
    );
  }
}
