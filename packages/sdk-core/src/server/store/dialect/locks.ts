import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Store } from '../database.js';
import type { Database } from '../tables.js';

/**
 * `query` reading rows the transaction then changes: `SELECT ... FOR UPDATE` on PostgreSQL (so concurrent
 * read-modify-writes of a row apply one after the other); unchanged on SQLite, whose transactions already run one
 * at a time on the store's single connection.
 *
 * @example
 * const row = await lockedRead(store, trx.selectFrom('documents').selectAll().where('id', '=', id)).executeTakeFirst();
 */
export function lockedRead<DB, TB extends keyof DB, O>(store: Store, query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O> {
  return store.dialect === 'postgres' ? query.forUpdate() : query;
}

/**
 * Locks the rows `query` selects until the transaction ends (PostgreSQL `FOR UPDATE`); on SQLite nothing is run:
 * its transactions are serialised already. For a lock taken before reading what the transaction then checks.
 *
 * @example
 * await lockRows(store, trx.selectFrom('usage_counters').select('used').where('project', '=', project));
 */
export async function lockRows<DB, TB extends keyof DB, O>(store: Store, query: SelectQueryBuilder<DB, TB, O>): Promise<void> {
  if (store.dialect === 'postgres') await query.forUpdate().execute();
}

/**
 * Serialises the transactions that call it with the same `key` until they end: a transaction-scoped advisory lock
 * on PostgreSQL (for rules no row or index can lock, e.g. "at most N per human", "names unique per owner"); nothing
 * on SQLite, whose transactions run one at a time. Call it inside `trx` before the reads the rule depends on.
 *
 * @example
 * await store.transaction(async (trx) => { await serialiseOn(store, trx, `palaver:quota:${project}:${human}`); ... });
 */
export async function serialiseOn(store: Store, trx: Kysely<Database>, key: string): Promise<void> {
  if (store.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);
}
