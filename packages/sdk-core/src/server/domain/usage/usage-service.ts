import type { Transaction } from 'kysely';
import type { Logger } from 'pino';
import { SessionKeeper, type SessionKeeperTiming } from '../realtime/session-keeper.js';
import type { SessionLeases } from '../realtime/session-leases.js';
import type { Usage, UsageLimits, UsageType } from '../../../contract/usage.js';
import { UsageLimitExceededError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { commitUsage, lockRows, writeUsage, type UsageWrite } from '../../store/dialect/index.js';
import { GroupCommit } from '../../store/group-commit.js';
import { newId } from '../../store/ids.js';
import type { Database } from '../../store/tables.js';
import type { Principal } from '../../kernel/principal.js';
import type { WebhookService } from '../webhooks/webhook-service.js';
import type { UsageLimitService } from './usage-limits.js';
import { UsageReservation } from './usage-reservation.js';
import { usageBatch, type PendingRecord, type UsageBatch, type UsageEntry } from './usage-batch.js';

/** Who consumed: a request's principal, or an explicit project and (optional) human. */
export type UsageSubject = Pick<Principal, 'project' | 'human'> | { project: string; human?: string | null };

export interface UsageServiceOptions {
  /** How long an unsettled reservation holds budget (default 10 min). */
  reservationTtlMs?: number;
  /**
   * This server instance: its reservations name it, and are deleted when its `instance` lease expires
   * ({@link UsageService.releaseReservationsOf}, by whichever instance reaps the lease).
   */
  instance?: string;
  /**
   * The leases of instances (kind `instance`; `leases.instance` is this one) and how often to renew and reap them:
   * {@link UsageService.keepReservations} holds this instance's and releases the reservations of expired ones.
   */
  owners?: { leases: SessionLeases; timing: SessionKeeperTiming; logger: Logger };
  now?: () => number;
}

export interface ReserveOptions {
  /** Grant what remains when less than `amount` is left (default true); false refuses instead. */
  allowPartial?: boolean;
  /** Overrides the service's reservation lifetime. */
  ttlMs?: number;
}

type Executor = Store['db'] | Transaction<Database>;

/**
 * Usage metering and per-human limits. Consumers call {@link UsageService.record} (or reserve/commit for
 * streams); each record emits a `usage.tracked` webhook from the same transaction. Limits are those set
 * with the deprecated limits API ({@link UsageLimitService}); a human has exceeded a type's limit when
 * the total recorded usage of that type (plus open reservations) reaches it.
 *
 * @example
 * await services.usage.assertWithinLimit(project, human, 'voice_synthesis_seconds');
 * const seconds = await synthesise(text);
 * await services.usage.record({ project, human }, 'voice_synthesis_seconds', seconds, { voice });
 */
export class UsageService {
  private readonly reservationTtlMs: number;
  private readonly instance: string | null;
  private readonly owners: UsageServiceOptions['owners'];
  private keeper: SessionKeeper | undefined;
  private readonly now: () => number;
  private readonly records: GroupCommit<PendingRecord, Usage>;

  constructor(
    private readonly store: Store,
    private readonly limits: UsageLimitService,
    private readonly webhooks: WebhookService,
    options: UsageServiceOptions = {},
  ) {
    this.reservationTtlMs = options.reservationTtlMs ?? 10 * 60_000;
    this.instance = options.owners?.leases.instance ?? options.instance ?? null;
    this.owners = options.owners;
    this.now = options.now ?? Date.now;
    this.records = new GroupCommit((items) => this.commitRecords(items));
  }

  /**
   * Records usage and its `usage.tracked` event; resolves once committed. Records made at the same time share
   * one transaction (a {@link GroupCommit}): under load the meter costs one transaction per batch, not per record.
   */
  async record(subject: UsageSubject, type: UsageType, value: number, metadata: Record<string, unknown> = {}): Promise<Usage> {
    return this.records.submit({ entry: this.entryOf(subject, type, value, metadata), reservationId: null });
  }

  /** Like {@link record}, inside the caller's transaction (so usage commits or rolls back with the caller's change). */
  async recordIn(trx: Transaction<Database>, subject: UsageSubject, type: UsageType, value: number, metadata: Record<string, unknown> = {}): Promise<Usage> {
    const [usage] = await this.writeRecords(trx, [{ entry: this.entryOf(subject, type, value, metadata), reservationId: null }]);
    return usage!;
  }

  private entryOf(subject: UsageSubject, type: UsageType, value: number, metadata: Record<string, unknown>): UsageEntry {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`usage value must be a finite number >= 0, got ${value}`);
    return { id: newId('usage'), project: subject.project, human: subject.human ?? null, type, value, metadata, createdAt: new Date(this.now()).toISOString() };
  }

  /** Writes a batch in a transaction of its own (statements prepared once on SQLite, decision 0078). */
  private async commitRecords(items: readonly PendingRecord[]): Promise<Usage[]> {
    const batch = usageBatch(items);
    await commitUsage(this.store, this.usageWrite(batch));
    return batch.usages;
  }

  /**
   * Writes records (settling their reservations) in the given transaction: the records, the humans' counters
   * (one upsert per human and type, values summed), and their `usage.tracked` events.
   */
  private async writeRecords(trx: Transaction<Database>, items: readonly PendingRecord[]): Promise<Usage[]> {
    const batch = usageBatch(items);
    await writeUsage(trx, this.usageWrite(batch));
    return batch.usages;
  }

  private usageWrite(batch: UsageBatch): UsageWrite {
    return {
      settled: batch.settled,
      progressed: batch.progressed,
      records: batch.records,
      counters: batch.counters,
      outbox: this.webhooks.outboxOf(batch.events, { checked: false }),
    };
  }

  /**
   * Throws {@link UsageLimitExceededError} (400 `usage_limit_exceeded`) when the human has no budget left
   * for `type`, or less than `additional`. Project-wide calls (no human) have no limits.
   */
  async assertWithinLimit(project: string, human: string | null | undefined, type: UsageType, additional = 0): Promise<void> {
    if (!human) return;
    const limit = await this.limits.limitFor(project, human, type);
    if (limit === undefined) return;
    const { used, reserved } = await this.consumption(this.store.db, project, human, type);
    const remaining = limit - used - reserved;
    if (remaining <= 0 || additional > remaining) throw this.exceeded(human, type, limit, used + reserved);
  }

  /**
   * Holds up to `amount` of the human's remaining budget for an in-flight request. The check and the hold
   * are one transaction under the human's counter row lock, so concurrent reservations never overlap.
   * Throws {@link UsageLimitExceededError} when nothing remains (or, with `allowPartial: false`, when
   * `amount` does not fit).
   */
  async reserve(project: string, human: string | null | undefined, type: UsageType, amount: number, options: ReserveOptions = {}): Promise<UsageReservation> {
    if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`reservation amount must be a finite number >= 0, got ${amount}`);
    // A reservation that holds nothing (no limit) gets a row only when its request notes progress (a long stream).
    let progressRow: string | null = null;
    const settler = {
      commit: async (reservationId: string | null, actual: number, metadata: Record<string, unknown>) =>
        this.records.submit({ entry: this.entryOf({ project, human: human ?? null }, type, actual, metadata), reservationId: reservationId ?? progressRow }),
      progress: async (reservationId: string | null, usedSoFar: number, metadata: Record<string, unknown>) => {
        if (!human) return;
        const id = reservationId ?? (progressRow ??= newId('reservation'));
        const expiresAt = new Date(this.now() + (options.ttlMs ?? this.reservationTtlMs)).toISOString();
        await this.records.submit({
          entry: this.entryOf({ project, human }, type, usedSoFar, metadata),
          reservationId: id,
          progress: { expiresAt, instance: this.instance },
        });
      },
      release: async (reservationId: string | null) => {
        const id = reservationId ?? progressRow;
        if (id) await this.store.db.deleteFrom('usage_reservations').where('id', '=', id).execute();
      },
    };
    const limit = human ? await this.limits.limitFor(project, human, type) : undefined;
    if (!human || limit === undefined) return new UsageReservation(null, amount, settler);

    const { id, granted } = await this.store.transaction(async (trx) => {
      const nowMs = this.now();
      const nowIso = new Date(nowMs).toISOString();
      await trx
        .insertInto('usage_counters')
        .values({ project, human, type, used: 0, updated_at: nowIso })
        .onConflict((conflict) => conflict.columns(['project', 'human', 'type']).doNothing())
        .execute();
      await lockRows(
        this.store,
        trx.selectFrom('usage_counters').select('used').where('project', '=', project).where('human', '=', human).where('type', '=', type),
      );
      await trx
        .deleteFrom('usage_reservations')
        .where('project', '=', project)
        .where('human', '=', human)
        .where('type', '=', type)
        .where('expires_at', '<=', nowIso)
        .execute();
      const { used, reserved } = await this.consumption(trx, project, human, type);
      const remaining = limit - used - reserved;
      if (remaining <= 0 || (options.allowPartial === false && amount > remaining)) throw this.exceeded(human, type, limit, used + reserved);
      const held = Math.min(amount, remaining);
      const reservationId = newId('reservation');
      await trx
        .insertInto('usage_reservations')
        .values({
          id: reservationId,
          project,
          human,
          type,
          amount: held,
          expires_at: new Date(nowMs + (options.ttlMs ?? this.reservationTtlMs)).toISOString(),
          created_at: nowIso,
          instance: this.instance,
        })
        .execute();
      return { id: reservationId, granted: held };
    });
    return new UsageReservation(id, granted, settler);
  }

  /**
   * Takes this instance's lease (kind `instance`) and keeps it renewed; every instance looks for expired ones as
   * often, and the one that claims a lease deletes that instance's reservations (it died holding them). A kill -9
   * therefore frees its holds within the lease's lifetime plus a renewal interval, not the reservations' 10 min.
   */
  async keepReservations(): Promise<void> {
    if (!this.owners || this.keeper) return;
    const { leases, timing, logger } = this.owners;
    await leases.take(this.store.db, leases.instance, '*');
    this.keeper = new SessionKeeper(
      leases,
      timing,
      async (lost) => {
        const released = await this.releaseReservationsOf(lost.sessionId, 'host_lost');
        if (released > 0)
          logger.warn({ instance: lost.sessionId, reservations: released }, 'released the usage reservations of an instance that stopped renewing its lease');
      },
      logger,
    );
    this.keeper.start();
  }

  /**
   * Stops the lease upkeep; this instance's lease and what it still holds are given back (normally nothing: the streams
   * ended before, each settling its reservation).
   */
  async close(): Promise<void> {
    const keeper = this.keeper;
    this.keeper = undefined;
    if (!keeper || !this.owners) return;
    await keeper.stop();
    await this.owners.leases.release(this.owners.leases.instance);
    await this.releaseReservationsOf(this.owners.leases.instance, 'server_shutdown');
  }

  /**
   * Ends the reservations of an instance (its lease expired: it died holding them; or it closes): what their requests
   * used so far is recorded for their humans (metadata `outcome`), and they are deleted, in one transaction. Answers
   * how many it released.
   */
  async releaseReservationsOf(instance: string, outcome = 'host_lost'): Promise<number> {
    return this.store.transaction(async (trx) => {
      const held = await trx
        .selectFrom('usage_reservations')
        .select(['project', 'human', 'type', 'used', 'metadata'])
        .where('instance', '=', instance)
        .execute();
      const used = held.filter((row) => row.used !== null && Number(row.used) > 0);
      if (used.length > 0) {
        const items = used.map((row) => ({
          entry: this.entryOf({ project: row.project, human: row.human }, row.type as UsageType, Number(row.used), {
            ...(JSON.parse(row.metadata ?? '{}') as Record<string, unknown>),
            outcome,
          }),
          reservationId: null,
        }));
        await writeUsage(trx, this.usageWrite(usageBatch(items)));
      }
      const result = await trx.deleteFrom('usage_reservations').where('instance', '=', instance).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** The limits the human has reached (used + reserved >= limit); empty when within every limit. */
  async exceededLimits(project: string, human: string): Promise<UsageLimits> {
    const limits = await this.limits.get(project, human);
    const exceeded: UsageLimits = [];
    for (const limit of limits) {
      const { used, reserved } = await this.consumption(this.store.db, project, human, limit.type);
      if (used + reserved >= limit.value) exceeded.push(limit);
    }
    return exceeded;
  }

  /** Recorded usage and open reservations of one human and type. */
  async consumption(executor: Executor, project: string, human: string, type: UsageType): Promise<{ used: number; reserved: number }> {
    const nowIso = new Date(this.now()).toISOString();
    const [counter, reservations] = await Promise.all([
      executor
        .selectFrom('usage_counters')
        .select('used')
        .where('project', '=', project)
        .where('human', '=', human)
        .where('type', '=', type)
        .executeTakeFirst(),
      executor
        .selectFrom('usage_reservations')
        .select((builder) => builder.fn.sum<number | string | null>('amount').as('reserved'))
        .where('project', '=', project)
        .where('human', '=', human)
        .where('type', '=', type)
        .where('expires_at', '>', nowIso)
        .executeTakeFirstOrThrow(),
    ]);
    return { used: Number(counter?.used ?? 0), reserved: Number(reservations.reserved ?? 0) };
  }

  private exceeded(human: string, type: UsageType, limit: number, consumed: number): UsageLimitExceededError {
    return new UsageLimitExceededError(`${type}: human '${human}' reached the usage limit (${consumed} of ${limit} used or reserved)`);
  }
}
