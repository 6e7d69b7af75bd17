import type { CreateCreditLedgerEntryRequest, CreateCreditRequest, Credit, CreditLedgerEntry } from '../../../contract/credits.js';
import { BadRequestError, NotFoundError } from '../../../errors/api-error.js';
import type { Store } from '../../store/database.js';
import { newId, nowIso } from '../../store/ids.js';
import { keysetPage, type Page, type PageRequest } from '../../store/pagination.js';
import type { CreditRow } from '../../store/tables.js';
import type { Principal } from '../../kernel/principal.js';
import { timedCache } from '../../kernel/timed-cache.js';
import { LedgerWriter, toLedgerEntry } from './ledger-writer.js';

function toCredit(row: CreditRow): Credit {
  return {
    id: row.id,
    created_at: row.created_at,
    project: row.project,
    name: row.name,
    description: row.description,
    allow_negative_balance: row.allow_negative_balance !== 0,
  };
}

function requireHuman(principal: Principal): string {
  if (principal.human === null) {
    throw new BadRequestError('x-human-id: a human is required (send the x-human-id header or use a usage token)');
  }
  return principal.human;
}

/** Credits remembered per instance before the memory is cleared (a credit row is ~200 bytes). */
const MAX_KNOWN_CREDITS = 10_000;

/**
 * Credits (project-wide currencies) and each human's ledger of signed entries. The balance of a human is
 * the `balance` of their latest entry, kept equal to the sum of their entries by {@link LedgerWriter}.
 *
 * @example
 * const credit = await services.credits.create(principal, { name: 'minutes' });
 * await services.credits.addEntry({ ...principal, human: 'user-42' }, credit.id, { amount: 100, idempotency_key: 'grant-1' });
 */
export class CreditService {
  private readonly ledger: LedgerWriter;
  /**
   * Credits read so far, by id. A credit never changes or goes away once created (the API has no update or
   * delete), so every instance may keep what it read: a charge then reads no credit row.
   */
  private readonly known = timedCache<string, CreditRow>({ max: MAX_KNOWN_CREDITS });

  constructor(private readonly store: Store) {
    this.ledger = new LedgerWriter(store);
  }

  async create(principal: Principal, input: CreateCreditRequest): Promise<Credit> {
    const row: CreditRow = {
      id: newId('credit'),
      project: principal.project,
      name: input.name,
      description: input.description ?? '',
      allow_negative_balance: input.allow_negative_balance ? 1 : 0,
      created_at: nowIso(),
    };
    await this.store.db.insertInto('credits').values(row).execute();
    return toCredit(row);
  }

  async retrieve(principal: Principal, id: string): Promise<Credit> {
    return toCredit(await this.find(principal.project, id));
  }

  async list(principal: Principal, page: PageRequest): Promise<Page<Credit>> {
    return keysetPage(this.store.db.selectFrom('credits').where('project', '=', principal.project), page, 'asc', toCredit);
  }

  /** Adds a signed entry to the principal's human's balance; see {@link LedgerWriter} for the guarantees. */
  async addEntry(principal: Principal, creditId: string, input: CreateCreditLedgerEntryRequest): Promise<CreditLedgerEntry> {
    const human = requireHuman(principal);
    const credit = await this.find(principal.project, creditId);
    return this.ledger.write(credit, human, input);
  }

  /** The human's latest entry (its `balance` is the current balance). */
  async latestEntry(principal: Principal, creditId: string): Promise<CreditLedgerEntry> {
    const human = requireHuman(principal);
    const credit = await this.find(principal.project, creditId);
    const row = await this.store.db
      .selectFrom('credit_ledger_entries')
      .selectAll()
      .where('credit', '=', credit.id)
      .where('human', '=', human)
      .orderBy('sequence', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`human '${human}' has no ledger entries for credit '${credit.id}' yet`);
    return toLedgerEntry(row);
  }

  /** The stored balance and the sum of the entries of one human (they must always agree). */
  async audit(project: string, creditId: string, human: string): Promise<{ balance: number; sum: number; entries: number }> {
    const credit = await this.find(project, creditId);
    const [account, totals] = await Promise.all([
      this.store.db.selectFrom('credit_balances').select(['balance']).where('credit', '=', credit.id).where('human', '=', human).executeTakeFirst(),
      this.store.db
        .selectFrom('credit_ledger_entries')
        .select((builder) => [builder.fn.sum<number | string | null>('amount').as('sum'), builder.fn.countAll<number | string>().as('entries')])
        .where('credit', '=', credit.id)
        .where('human', '=', human)
        .executeTakeFirstOrThrow(),
    ]);
    return { balance: Number(account?.balance ?? 0), sum: Number(totals.sum ?? 0), entries: Number(totals.entries) };
  }

  private async find(project: string, id: string): Promise<CreditRow> {
    const known = this.known.get(id);
    if (known && known.project === project) return known;
    const row = await this.store.db.selectFrom('credits').selectAll().where('id', '=', id).where('project', '=', project).executeTakeFirst();
    if (!row) throw new NotFoundError(`credit '${id}' not found`);
    this.known.set(id, row);
    return row;
  }
}
