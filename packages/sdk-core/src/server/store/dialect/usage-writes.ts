import type { Kysely } from 'kysely';
import type { SqliteHandle, Store } from '../database.js';
import type { Database, UsageCounterRow, UsageRecordRow, UsageReservationRow } from '../tables.js';
import { writeOutbox, writeOutboxNow, type OutboxWrite } from './outbox.js';

/** What one batch of usage records writes: settled reservations, the records, the counters to add to, their events. */
export interface UsageWrite {
  /** Reservations the records settle (deleted). */
  settled: readonly string[];
  /**
   * What reservations' requests used so far (a stream metered as it goes): an existing reservation gets `used` and
   * `metadata`, a missing one is inserted as given (holding nothing). Written before `settled` is deleted.
   */
  progressed?: readonly UsageReservationRow[];
  records: readonly UsageRecordRow[];
  /** Added to the running totals: one per (project, human, type), `used` the amount to add. */
  counters: readonly UsageCounterRow[];
  outbox: OutboxWrite;
}

/**
 * Writes a usage batch through the builder in the caller's transaction (any database): the reservations deleted,
 * the records inserted, each counter upserted with its amount added (`INSERT ... ON CONFLICT DO UPDATE SET used =
 * used + excluded.used`: one statement for all, so no two values of one counter may be in one batch: PostgreSQL
 * refuses to update a row twice in one statement), then the outbox rows.
 */
export async function writeUsage(trx: Kysely<Database>, write: UsageWrite): Promise<void> {
  if (write.progressed && write.progressed.length > 0) {
    await trx
      .insertInto('usage_reservations')
      .values([...write.progressed])
      .onConflict((conflict) =>
        conflict.column('id').doUpdateSet((builder) => ({ used: builder.ref('excluded.used'), metadata: builder.ref('excluded.metadata') })),
      )
      .execute();
  }
  if (write.settled.length > 0)
    await trx
      .deleteFrom('usage_reservations')
      .where('id', 'in', [...write.settled])
      .execute();
  if (write.records.length > 0)
    await trx
      .insertInto('usage_records')
      .values([...write.records])
      .execute();
  if (write.counters.length > 0) {
    await trx
      .insertInto('usage_counters')
      .values([...write.counters])
      .onConflict((conflict) =>
        conflict.columns(['project', 'human', 'type']).doUpdateSet((builder) => ({
          used: builder('usage_counters.used', '+', builder.ref('excluded.used')),
          updated_at: builder.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
  await writeOutbox(trx, write.outbox);
}

/** The usage writers' SQLite statements, prepared once per database. */
function prepareUsageStatements(database: SqliteHandle) {
  return {
    settle: database.prepare('DELETE FROM usage_reservations WHERE id = ?'),
    progress: database.prepare(
      'INSERT INTO usage_reservations (id, project, human, type, amount, expires_at, created_at, instance, used, metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ' +
        'ON CONFLICT (id) DO UPDATE SET used = excluded.used, metadata = excluded.metadata',
    ),
    insertRecord: database.prepare('INSERT INTO usage_records (id, project, human, type, value, metadata, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)'),
    addToCounter: database.prepare(
      'INSERT INTO usage_counters (project, human, type, used, updated_at) VALUES (?, ?, ?, ?, ?) ' +
        'ON CONFLICT (project, human, type) DO UPDATE SET used = usage_counters.used + excluded.used, updated_at = excluded.updated_at',
    ),
  };
}
const usageStatements = new WeakMap<SqliteHandle, ReturnType<typeof prepareUsageStatements>>();

/** {@link writeUsage} inside the store's synchronous SQLite transaction, with statements prepared once. */
function writeUsageNow(database: SqliteHandle, write: UsageWrite): void {
  let statements = usageStatements.get(database);
  if (!statements) usageStatements.set(database, (statements = prepareUsageStatements(database)));
  for (const row of write.progressed ?? [])
    statements.progress.run(row.id, row.project, row.human, row.type, row.amount, row.expires_at, row.created_at, row.instance, row.used, row.metadata);
  for (const id of write.settled) statements.settle.run(id);
  for (const row of write.records) statements.insertRecord.run(row.id, row.project, row.human, row.type, row.value, row.metadata, row.created_at);
  for (const counter of write.counters) statements.addToCounter.run(counter.project, counter.human, counter.type, counter.used, counter.updated_at);
  writeOutboxNow(database, write.outbox);
}

/**
 * Writes a usage batch in a transaction of its own (the group commit's, decision 0078): on SQLite as statements
 * prepared once and run synchronously in `store.sqlite`, on PostgreSQL as {@link writeUsage}'s multi-row statements.
 *
 * @example
 * await commitUsage(store, { settled: [], records, counters, outbox: webhooks.outboxOf(events) });
 */
export function commitUsage(store: Store, write: UsageWrite): Promise<void> {
  const sqlite = store.sqlite;
  if (sqlite) return sqlite((database) => writeUsageNow(database, write));
  return store.transaction((trx) => writeUsage(trx, write));
}
