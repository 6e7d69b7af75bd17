import type { CreateCreditLedgerEntryRequest, CreditLedgerEntry } from '../../../contract/credits.js';
import { BadRequestError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { appendLedgerEntry } from '../../store/dialect/index.js';
import { newId } from '../../store/ids.js';
import type { CreditLedgerEntryRow, CreditRow } from '../../store/tables.js';

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
 * Writes ledger entries so that the balance check and the write are one atomic step under the per-(credit, human)
 * balance row (`appendLedgerEntry` in the store: the row lock, the key check and both writes), and the unique index
 * on (credit, human, idempotency_key) backs the rule at the database level. A repeated key answers its original
 * entry; the same key with another amount, or a balance the entry would overdraw, is a 400.
 */
export class LedgerWriter {
  constructor(private readonly store: Store) {}

  async write(credit: CreditRow, human: string, input: CreateCreditLedgerEntryRequest): Promise<CreditLedgerEntry> {
    const outcome = await appendLedgerEntry(this.store, {
      id: newId('ledger'),
      credit: credit.id,
      project: credit.project,
      human,
      amount: input.amount,
      idempotencyKey: input.idempotency_key,
      allowNegative: credit.allow_negative_balance !== 0,
    });
    if (outcome.kind === 'written') return toLedgerEntry(outcome.entry);
    if (outcome.kind === 'replayed') return this.replayed(outcome.entry, input);
    return this.refuse(credit, human, outcome.balance, input.amount);
  }

  private refuse(credit: CreditRow, human: string, previous: number, amount: number): never {
    if (!Number.isSafeInteger(previous + amount)) {
      throw new BadRequestError(`amount: the resulting balance would be outside ±${Number.MAX_SAFE_INTEGER}`);
    }
    throw new BadRequestError(`insufficient balance: human '${human}' has ${previous} of credit '${credit.id}', which cannot cover ${-amount}`);
  }

  private replayed(row: CreditLedgerEntryRow, input: CreateCreditLedgerEntryRequest): CreditLedgerEntry {
    if (Number(row.amount) !== input.amount) {
      throw new BadRequestError(
        `idempotency_key: '${input.idempotency_key}' was already used with amount ${Number(row.amount)}; a different amount (${input.amount}) needs a new key`,
      );
    }
    return toLedgerEntry(row);
  }
}
