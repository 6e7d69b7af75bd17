import { sql } from 'kysely';
import type { SqliteHandle, Store } from '../database.js';
import { nowIso } from '../ids.js';
import type { CreditLedgerEntryRow } from '../tables.js';
import { isUniqueViolation } from './unique-violation.js';

/** One signed entry to append to a (credit, human) ledger. */
export interface LedgerAppend {
  /** The new entry's id (unused when the key was used before). */
  id: string;
  credit: string;
  project: string;
  human: string;
  amount: number;
  idempotencyKey: string;
  /** Whether a debit may take the balance below zero. */
  allowNegative: boolean;
}

/**
 * What became of an append: `written`; `replayed` (the key was used before: its entry, whatever its amount; nothing
 * written); `refused` (the balance, which the entry would take below zero without `allowNegative`, or past
 * ±(2^53 − 1), the largest integer JSON keeps exact; nothing written).
 */
export type LedgerAppendOutcome =
  { kind: 'written'; entry: CreditLedgerEntryRow } | { kind: 'replayed'; entry: CreditLedgerEntryRow } | { kind: 'refused'; balance: number };

/**
 * Appends a ledger entry with the key check, the balance check and both writes as one atomic step under the
 * per-(credit, human) `credit_balances` row, which always equals the sum of the entries (decision 0060). On
 * SQLite: a handful of statements prepared once, run synchronously in one transaction (`store.sqlite`, decision
 * 0076). On PostgreSQL: one statement locks the balance row (`FOR UPDATE` in a CTE), inserts the entry with
 * `ON CONFLICT (credit, human, idempotency_key) DO NOTHING` and updates the balance, so the lock is held only
 * while it runs; a replay or a refusal is told apart by one more read.
 *
 * @example
 * const outcome = await appendLedgerEntry(store, { id: newId('ledger'), credit, project, human, amount: -3, idempotencyKey: 'k1', allowNegative: false });
 */
export async function appendLedgerEntry(store: Store, append: LedgerAppend): Promise<LedgerAppendOutcome> {
  const sqlite = store.sqlite;
  if (sqlite) {
    try {
      return await sqlite((database) => appendNow(database, append));
    } catch (error) {
      // Thrown to roll back the balance row a refused first entry created.
      if (error instanceof Refused) return { kind: 'refused', balance: error.balance };
      throw error;
    }
  }
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await appendPostgres(store, append);
    } catch (error) {
      // Only reachable if two writers raced on a path the lock does not cover; the retry reads the winner.
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/** Whether `balance + amount` is a balance the ledger accepts (the same rule as the PostgreSQL statement's WHERE). */
function accepts(balance: number, append: LedgerAppend): boolean {
  const next = balance + append.amount;
  return Number.isSafeInteger(next) && (append.allowNegative || append.amount >= 0 || next >= 0);
}

/** A refusal inside the synchronous transaction, which it rolls back. */
class Refused extends Error {
  constructor(readonly balance: number) {
    super('refused');
  }
}

/** The ledger's SQLite statements, prepared once per database. */
function prepareLedgerStatements(database: SqliteHandle) {
  return {
    byKey: database.prepare('SELECT * FROM credit_ledger_entries WHERE credit = ? AND human = ? AND idempotency_key = ?'),
    ensureBalance: database.prepare(
      'INSERT INTO credit_balances (credit, human, balance, entry_count, updated_at) VALUES (?, ?, 0, 0, ?) ON CONFLICT (credit, human) DO NOTHING',
    ),
    balance: database.prepare('SELECT balance, entry_count FROM credit_balances WHERE credit = ? AND human = ?'),
    insert: database.prepare(
      'INSERT INTO credit_ledger_entries (id, credit, project, human, sequence, amount, balance, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    update: database.prepare('UPDATE credit_balances SET balance = ?, entry_count = ?, updated_at = ? WHERE credit = ? AND human = ?'),
  };
}
const ledgerStatements = new WeakMap<SqliteHandle, ReturnType<typeof prepareLedgerStatements>>();

/**
 * SQLite: runs inside the store's synchronous transaction (nothing else touches the database meanwhile), so the
 * key check, the balance check and both writes see and leave one consistent state.
 */
function appendNow(database: SqliteHandle, append: LedgerAppend): LedgerAppendOutcome {
  let statements = ledgerStatements.get(database);
  if (!statements) ledgerStatements.set(database, (statements = prepareLedgerStatements(database)));
  const existing = statements.byKey.get(append.credit, append.human, append.idempotencyKey) as CreditLedgerEntryRow | undefined;
  if (existing) return { kind: 'replayed', entry: existing };
  const now = nowIso();
  statements.ensureBalance.run(append.credit, append.human, now);
  const account = statements.balance.get(append.credit, append.human) as { balance: number; entry_count: number };
  const previous = Number(account.balance);
  if (!accepts(previous, append)) throw new Refused(previous);
  const entry: CreditLedgerEntryRow = {
    id: append.id,
    credit: append.credit,
    project: append.project,
    human: append.human,
    sequence: Number(account.entry_count) + 1,
    amount: append.amount,
    balance: previous + append.amount,
    idempotency_key: append.idempotencyKey,
    created_at: now,
  };
  statements.insert.run(
    entry.id,
    entry.credit,
    entry.project,
    entry.human,
    entry.sequence,
    entry.amount,
    entry.balance,
    entry.idempotency_key,
    entry.created_at,
  );
  statements.update.run(entry.balance, entry.sequence, now, append.credit, append.human);
  return { kind: 'written', entry };
}

/** PostgreSQL: the locked one-statement write, creating the balance row first for a human's first entry. */
async function appendPostgres(store: Store, append: LedgerAppend): Promise<LedgerAppendOutcome> {
  const now = nowIso();
  let row = await insertLocked(store, append, now);
  if (!row) {
    // First entry of this human: create the balance row (a racing creator is fine), then write.
    await store.db
      .insertInto('credit_balances')
      .values({ credit: append.credit, human: append.human, balance: 0, entry_count: 0, updated_at: now })
      .onConflict((conflict) => conflict.columns(['credit', 'human']).doNothing())
      .execute();
    row = await insertLocked(store, append, now);
    if (!row) throw new Error(`credit balance row missing for ${append.credit}/${append.human}`);
  }
  if (row.id !== null) return { kind: 'written', entry: row };
  const existing = await store.db
    .selectFrom('credit_ledger_entries')
    .selectAll()
    .where('credit', '=', append.credit)
    .where('human', '=', append.human)
    .where('idempotency_key', '=', append.idempotencyKey)
    .executeTakeFirst();
  if (existing) return { kind: 'replayed', entry: existing };
  return { kind: 'refused', balance: Number(row.previous_balance) };
}

/**
 * The one-statement write; undefined when the balance row does not exist yet. After waiting for the lock, READ
 * COMMITTED re-reads the locked row, so `locked` always holds the newest balance; the key is deduplicated by the
 * unique index (`ON CONFLICT DO NOTHING`), which sees concurrent commits too.
 */
async function insertLocked(store: Store, append: LedgerAppend, now: string) {
  const { amount } = append;
  const result = await sql<(CreditLedgerEntryRow | { [K in keyof CreditLedgerEntryRow]: null }) & { previous_balance: string }>`
    WITH locked AS (
      SELECT balance, entry_count FROM credit_balances WHERE credit = ${append.credit} AND human = ${append.human} FOR UPDATE
    ), inserted AS (
      INSERT INTO credit_ledger_entries (id, credit, project, human, sequence, amount, balance, idempotency_key, created_at)
      SELECT ${append.id}, ${append.credit}, ${append.project}, ${append.human}, entry_count + 1, ${amount}::bigint,
             balance + ${amount}::bigint, ${append.idempotencyKey}, ${now}
      FROM locked
      WHERE (${append.allowNegative} OR ${amount}::bigint >= 0 OR balance + ${amount}::bigint >= 0)
        AND abs(balance + ${amount}::bigint) <= ${Number.MAX_SAFE_INTEGER}::bigint
      ON CONFLICT (credit, human, idempotency_key) DO NOTHING
      RETURNING *
    ), updated AS (
      UPDATE credit_balances SET balance = inserted.balance, entry_count = inserted.sequence, updated_at = ${now}
      FROM inserted WHERE credit_balances.credit = inserted.credit AND credit_balances.human = inserted.human
      RETURNING credit_balances.credit
    )
    SELECT locked.balance AS previous_balance, inserted.* FROM locked LEFT JOIN inserted ON true
  `.execute(store.db);
  return result.rows[0];
}
