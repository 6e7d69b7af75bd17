import type { Kysely } from 'kysely';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/tables.js';

/** A session whose host stopped renewing its lease. */
export interface ExpiredLease {
  sessionId: string;
  project: string;
  /** The instance that held it. */
  instance: string;
  /** When its host last renewed it (or took it): the last time the session was known to be alive (ISO). */
  renewedAt: string;
}

export interface SessionLeaseOptions {
  /** This server instance (random per process). */
  instance: string;
  /** How long a lease lasts without renewal. */
  ttlMs: number;
  /** The clock (tests). */
  now?: () => number;
  /** What the leases are of (default `realtime_session`; app runs use `app_run`). Each kind is kept apart. */
  kind?: string;
}

/**
 * Which instance hosts each realtime session's agent, as leases in the database: taken with the session, renewed
 * by the host for all its sessions at once, released when the session ends. A lease that expired belongs to a
 * host that stopped (killed, machine lost); exactly one instance claims it (a conditional delete) and ends the
 * session.
 *
 * @example
 * await leases.take(transaction, session.id, project);   // with the session's insert
 * setInterval(() => leases.renew(), ttlMs / 3);
 * for (const lost of await leases.claimExpired()) await end(lost);
 */
export class SessionLeases {
  readonly instance: string;
  readonly kind: string;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: Store,
    options: SessionLeaseOptions,
  ) {
    this.instance = options.instance;
    this.kind = options.kind ?? 'realtime_session';
    this.ttlMs = options.ttlMs;
    this.now = options.now ?? Date.now;
  }

  /** Takes the lease of a new session for this instance (inside the session's insert transaction). */
  async take(executor: Kysely<Database>, sessionId: string, project: string): Promise<void> {
    await executor
      .insertInto('session_leases')
      .values({ session_id: sessionId, kind: this.kind, project, instance: this.instance, expires_at: this.expiry() })
      .execute();
  }

  /** Extends every lease this instance holds; answers how many. */
  async renew(): Promise<number> {
    const result = await this.store.db
      .updateTable('session_leases')
      .set({ expires_at: this.expiry() })
      .where('instance', '=', this.instance)
      .where('kind', '=', this.kind)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** The instance hosting the session now, or undefined when nobody does (no lease, or an expired one). */
  async holder(sessionId: string): Promise<string | undefined> {
    const row = await this.store.db.selectFrom('session_leases').select(['instance', 'expires_at']).where('session_id', '=', sessionId).executeTakeFirst();
    return row && row.expires_at > this.timestamp() ? row.instance : undefined;
  }

  /** When the session's lease was last renewed (or taken), expired or not; undefined without a lease. */
  async renewedAt(sessionId: string): Promise<string | undefined> {
    const row = await this.store.db.selectFrom('session_leases').select('expires_at').where('session_id', '=', sessionId).executeTakeFirst();
    return row && this.renewalOf(row.expires_at);
  }

  /** Drops the session's lease (it ended). */
  async release(sessionId: string, executor: Kysely<Database> = this.store.db): Promise<void> {
    await executor.deleteFrom('session_leases').where('session_id', '=', sessionId).execute();
  }

  /**
   * Claims up to `limit` expired leases: each is deleted by exactly one instance, which answers it and must end
   * its session.
   */
  async claimExpired(limit = 50): Promise<ExpiredLease[]> {
    const now = this.timestamp();
    const candidates = await this.store.db
      .selectFrom('session_leases')
      .select(['session_id', 'project', 'instance', 'expires_at'])
      .where('expires_at', '<=', now)
      .where('kind', '=', this.kind)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    const claimed: ExpiredLease[] = [];
    for (const candidate of candidates) {
      const result = await this.store.db
        .deleteFrom('session_leases')
        .where('session_id', '=', candidate.session_id)
        .where('expires_at', '=', candidate.expires_at)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 1)
        claimed.push({
          sessionId: candidate.session_id,
          project: candidate.project,
          instance: candidate.instance,
          renewedAt: this.renewalOf(candidate.expires_at),
        });
    }
    return claimed;
  }

  /** A lease expiring at `expiresAt` was renewed one lifetime before (every instance is configured alike). */
  private renewalOf(expiresAt: string): string {
    return new Date(Date.parse(expiresAt) - this.ttlMs).toISOString();
  }

  private expiry(): string {
    return new Date(this.now() + this.ttlMs).toISOString();
  }

  private timestamp(): string {
    return new Date(this.now()).toISOString();
  }
}
