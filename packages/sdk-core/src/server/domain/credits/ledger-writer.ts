import { sql, type Transaction } from 'kysely';
import type { CreateCreditLedgerEntryRequest, CreditLedgerEntry } from '../../../contract/credits.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { SqliteHandle, Store } from '../../store/database.js';
import { newId, nowIso } from '../../store/ids.js';
import type { CreditLedgerEntryRow, CreditRow, Database } from '../../store/tables.js';

/** The ledger's SQLite statements, prepared once per database. */
function prepareLedgerStatements(database: SqliteHandle) {
  return {
    byKey: database.prepare('SELECT * FROM credit_ledger_entries WHERE credit = ? AND human = ? AND idempotency_key = ?'),
    ensureBalance: database.prepare('INSERT INTO credit_balances (credit, human, balance, entry_count, updated_at) VALUES (?, ?, 0, 0, ?) ON CONFLICT (credit, human) DO NOTHING'),
    balance: database.prepare('SELECT balance, entry_count FROM credit_balances WHERE credit = ? AND human = ?'),
    insert: database.prepare(
      'INSERT INTO credit_ledger_entries (id, credit, project, human, sequence, amount, balance, idempotency_key, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    update: database.prepare('UPDATE credit_balances SET balance = ?, entry_count = ?, updated_at = ? WHERE credit = ? AND human = ?'),
  };
}
type LedgerStatements = ReturnType<typeof prepareLedgerStatements>;

/** Whether `error` is a unique-index violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_*). */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

export function toLedgerEntry(row: CreditLedgerEntryRow): CreditLedgerEntry {
  return {
    id: row.id,
    created_at: row.created_at,
    credit: row.credit,
    human: row.human,
    amount: Number(row.amount),
    balance: Number(row.balance),
    idempotency_key: row.idempotency_key,
  };
}

/**
 * Writes ledger entries so that the balance check and the write are one atomic step: the per-(credit,
 * human) balance row is locked (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite transactions are already
 * serialised), the idempotency key is checked under that lock, and the entry and the new balance are
 * written in the same transaction. Read-check-write races are therefore impossible, and the unique index
 * on (credit, human, idempotency_key) backs the rule at the database level.
 */
export class LedgerWriter {
  private sqliteStatements: LedgerStatements | undefined;

  constructor(private readonly store: Store) {}

  async write(credit: CreditRow, human: string, input: CreateCreditLedgerEntryRequest): Promise<CreditLedgerEntry> {
    const sqlite = this.store.sqlite;
    // SQLite: the whole check-and-write is a handful of prepared statements run synchronously in one transaction.
    if (sqlite) return sqlite((database) => this.writeSqlite(database, credit, human, input));
    for (let attempt = 1; ; attempt += 1) {
      try {
        // PostgreSQL: one statement locks, checks the key and writes; a replay is found after it.
        return await this.writePostgres(credit, human, input);
      } catch (error) {
        // Only reachable if two writers raced on a path the lock does not cover; the retry reads the winner.
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  }

  /**
   * SQLite: runs inside the store's synchronous transaction (nothing else touches the database meanwhile), so the
   * key check, the balance check and both writes see and leave one consistent state. A refusal throws, which
   * rolls the transaction back.
   */
  private writeSqlite(database: SqliteHandle, credit: CreditRow, human: string, input: CreateCreditLedgerEntryRequest): CreditLedgerEntry {
    const statements = (this.sqliteStatements ??= prepareLedgerStatements(database));
    const existing = statements.byKey.get(credit.id, human, input.idempotency_key) as CreditLedgerEntryRow | undefined;
    if (existing) return this.replayed(existing, input);
    const now = nowIso();
    statements.ensureBalance.run(credit.id, human, now);
    const account = statements.balance.get(credit.id, human) as { balance: number; entry_count: number };
    const balance = Number(account.balance) + input.amount;
    if (!Number.isSafeInteger(balance) || (balance < 0 && input.amount < 0 && credit.allow_negative_balance === 0)) {
      this.refuse(credit, human, Number(account.balance), input.amount);
    }
    const sequence = Number(account.entry_count) + 1;
    const row: CreditLedgerEntryRow = {
      id: newId('ledger'),
      credit: credit.id,
      project: credit.project,
      human,
      sequence,
      amount: input.amount,
      balance,
      idempotency_key: input.idempotency_key,
      created_at: now,
    };
    statements.insert.run(row.id, row.credit, row.project, row.human, row.sequence, row.amount, row.balance, row.idempotency_key, row.created_at);
    statements.update.run(balance, sequence, now, credit.id, human);
    return toLedgerEntry(row);
  }

  /**
   * PostgreSQL: the lock, the checks and both writes are one statement, so the balance row is locked only
   * while that statement runs (no client round trips while holding it). After waiting for the lock,
   * READ COMMITTED re-reads the locked row, so `locked` always holds the newest balance; the key is
   * deduplicated by the unique index (`ON CONFLICT DO NOTHING`), which sees concurrent commits too.
   */
  private async writePostgres(credit: CreditRow, human: string, input: CreateCreditLedgerEntryRequest): Promise<CreditLedgerEntry> {
    const now = nowIso();
    let row = await this.insertLockedPostgres(credit, human, input, now);
    if (!row) {
      // First entry of this human: create the balance row (a racing creator is fine), then write.
      await this.store.db
        .insertInto('credit_balances')
        .values({ credit: credit.id, human, balance: 0, entry_count: 0, updated_at: now })
        .onConflict((conflict) => conflict.columns(['credit', 'human']).doNothing())
        .execute();
      row = await this.insertLockedPostgres(credit, human, input, now);
      if (!row) throw new Error(`credit balance row missing for ${credit.id}/${human}`);
    }
    if (row.id !== null) return toLedgerEntry(row);

    const existing = await this.findByKey(this.store.db, credit.id, human, input.idempotency_key);
    if (existing) return this.replayed(existing, input);
    return this.refuse(credit, human, Number(row.previous_balance), input.amount);
  }

  /** The one-statement write; undefined when the balance row does not exist yet. */
  private async insertLockedPostgres(credit: CreditRow, human: string, input: CreateCreditLedgerEntryRequest, now: string) {
    const amount = input.amount;
    const allowNegative = credit.allow_negative_balance !== 0;
    const result = await sql<(CreditLedgerEntryRow | { [K in keyof CreditLedgerEntryRow]: null }) & { previous_balance: string }>`
      WITH locked AS (
        SELECT balance, entry_count FROM credit_balances WHERE credit = ${credit.id} AND human = ${human} FOR UPDATE
      ), inserted AS (
        INSERT INTO credit_ledger_entries (id, credit, project, human, sequence, amount, balance, idempotency_key, created_at)
        SELECT ${newId('ledger')}, ${credit.id}, ${credit.project}, ${human}, entry_count + 1, ${amount}::bigint,
               balance + ${amount}::bigint, ${input.idempotency_key}, ${now}
        FROM locked
        WHERE (${allowNegative} OR ${amount}::bigint >= 0 OR balance + ${amount}::bigint >= 0)
          AND abs(balance + ${amount}::bigint) <= ${Number.MAX_SAFE_INTEGER}::bigint
        ON CONFLICT (credit, human, idempotency_key) DO NOTHING
        RETURNING *
      ), updated AS (
        UPDATE credit_balances SET balance = inserted.balance, entry_count = inserted.sequence, updated_at = ${now}
        FROM inserted WHERE credit_balances.credit = inserted.credit AND credit_balances.human = inserted.human
        RETURNING credit_balances.credit
      )
      SELECT locked.balance AS previous_balance, inserted.* FROM locked LEFT JOIN inserted ON true
    `.execute(this.store.db);
    return result.rows[0];
  }

  private refuse(credit: CreditRow, human: string, previous: number, amount: number): never {
    if (!Number.isSafeInteger(previous + amount)) {
      throw new BadRequestError(`amount: the resulting balance would be outside ±${Number.MAX_SAFE_INTEGER}`);
    }
    throw new BadRequestError(
      `insufficient balance: human '${human}' has ${previous} of credit '${credit.id}', which cannot cover ${-amount}`,
    );
  }

  private replayed(row: CreditLedgerEntryRow, input: CreateCreditLedgerEntryRequest): CreditLedgerEntry {
    if (Number(row.amount) !== input.amount) {
      throw new BadRequestError(
        `idempotency_key: '${input.idempotency_key}' was already used with amount ${Number(row.amount)}; a different amount (${input.amount}) needs a new key`,
      );
    }
    return toLedgerEntry(row);
  }

  private findByKey(
    db: Store['db'] | Transaction<Database>,
    credit: string,
    human: string,
    key: string,
  ): Promise<CreditLedgerEntryRow | undefined> {
    return db
      .selectFrom('credit_ledger_entries')
      .selectAll()
      .where('credit', '=', credit)
      .where('human', '=', human)
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
  }
}
