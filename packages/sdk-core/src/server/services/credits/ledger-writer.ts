import type { Transaction } from 'kysely';
import type { CreateCreditLedgerEntryRequest, CreditLedgerEntry } from '../../../contract/credits.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { DialectName, Store } from '../../store/database.js';
import { newId, nowIso } from '../../store/ids.js';
import type { CreditLedgerEntryRow, CreditRow, Database } from '../../store/tables.js';

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
 * serialised), the idempotency key is looked up under that lock, and the entry and the new balance are
 * written in the same transaction. Read-check-write races are therefore impossible, and the unique index
 * on (credit, human, idempotency_key) backs the rule at the database level.
 */
export class LedgerWriter {
  constructor(private readonly store: Store) {}

  async write(credit: CreditRow, human: string, input: CreateCreditLedgerEntryRequest): Promise<CreditLedgerEntry> {
    // A retried request usually finds its entry without taking the lock.
    const replay = await this.findByKey(this.store.db, credit.id, human, input.idempotency_key);
    if (replay) return this.replayed(replay, input);

    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.store.transaction((trx) => this.writeLocked(trx, credit, human, input));
      } catch (error) {
        // Only reachable if two writers raced on a path the lock does not cover; the retry reads the winner.
        if (!isUniqueViolation(error) || attempt >= 3) throw error;
      }
    }
  }

  private async writeLocked(
    trx: Transaction<Database>,
    credit: CreditRow,
    human: string,
    input: CreateCreditLedgerEntryRequest,
  ): Promise<CreditLedgerEntry> {
    const now = nowIso();
    await trx
      .insertInto('credit_balances')
      .values({ credit: credit.id, human, balance: 0, entry_count: 0, updated_at: now })
      .onConflict((conflict) => conflict.columns(['credit', 'human']).doNothing())
      .execute();
    const account = await lockBalance(trx, this.store.dialect, credit.id, human);

    const existing = await this.findByKey(trx, credit.id, human, input.idempotency_key);
    if (existing) return this.replayed(existing, input);

    const balance = Number(account.balance) + input.amount;
    if (!Number.isSafeInteger(balance)) {
      throw new BadRequestError(`amount: the resulting balance would be outside ±${Number.MAX_SAFE_INTEGER}`);
    }
    if (balance < 0 && input.amount < 0 && credit.allow_negative_balance === 0) {
      throw new BadRequestError(
        `insufficient balance: human '${human}' has ${Number(account.balance)} of credit '${credit.id}', which cannot cover ${-input.amount}`,
      );
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
    await trx.insertInto('credit_ledger_entries').values(row).execute();
    await trx
      .updateTable('credit_balances')
      .set({ balance, entry_count: sequence, updated_at: now })
      .where('credit', '=', credit.id)
      .where('human', '=', human)
      .execute();
    return toLedgerEntry(row);
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

async function lockBalance(trx: Transaction<Database>, dialect: DialectName, credit: string, human: string) {
  const query = trx
    .selectFrom('credit_balances')
    .select(['balance', 'entry_count'])
    .where('credit', '=', credit)
    .where('human', '=', human);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirstOrThrow();
}
