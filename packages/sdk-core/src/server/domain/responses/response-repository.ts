import type { Kysely } from 'kysely';
import type { ResponseObject } from '../../../contract/responses-object.js';
import type { ResponseItemsQuery } from '../../../contract/responses.js';
import type { ResponseItem, ResponseItemList } from '../../../contract/responses-items.js';
import { NotFoundError } from '../../../errors/api-error.js';
import type { Principal } from '../../kernel/principal.js';
import type { Store } from '../../store/database.js';
import type { Database } from '../../store/tables.js';

/** How long a stored response stays readable and continuable by default (OpenAI keeps them 30 days). */
export const DEFAULT_RESPONSE_RETENTION_DAYS = 30;
/** Expired rows are swept at most this often (on writes): one indexed delete a minute. */
const SWEEP_INTERVAL_MS = 60_000;
/** Longest `previous_response_id` chain followed; older turns are left out of the model's messages. */
export const MAX_CHAIN_LENGTH = 1000;

/** One earlier turn of a conversation: what it was given and what it answered. */
export interface StoredTurn {
  input: ResponseItem[];
  output: ResponseObject['output'];
}

export interface ResponseRepositoryOptions {
  retentionDays?: number;
  now?: () => number;
}

/**
 * The `responses` and `response_items` tables: a response is read only by the caller that made it (same project and
 * same human, or both without a human), only until it expires; a deleted response takes its items with it.
 *
 * @example
 * await repository.save(principal, response, items);
 * const turns = await repository.conversation(principal, response.id); // oldest first
 */
export class ResponseRepository {
  private readonly retentionMs: number;
  private readonly now: () => number;
  private lastSweep = 0;

  constructor(
    private readonly store: Store,
    options: ResponseRepositoryOptions = {},
  ) {
    this.retentionMs = (options.retentionDays ?? DEFAULT_RESPONSE_RETENTION_DAYS) * 86_400_000;
    this.now = options.now ?? Date.now;
  }

  async save(principal: Principal, response: ResponseObject, items: readonly ResponseItem[]): Promise<void> {
    await this.sweepIfDue();
    const createdAt = new Date(response.created_at * 1000).toISOString();
    const expiresAt = new Date(this.now() + this.retentionMs).toISOString();
    await this.store.transaction(async (trx) => {
      await trx
        .insertInto('responses')
        .values({
          id: response.id,
          project: principal.project,
          human: principal.human,
          previous_response_id: response.previous_response_id,
          body: JSON.stringify(response),
          created_at: createdAt,
          expires_at: expiresAt,
        })
        .execute();
      if (items.length === 0) return;
      const rows = items.map((item, position) => ({ response_id: response.id, position, id: item.id, data: JSON.stringify(item) }));
      // Bounded batches keep each statement under SQLite's and PostgreSQL's parameter limits.
      for (let start = 0; start < rows.length; start += 200)
        await trx
          .insertInto('response_items')
          .values(rows.slice(start, start + 200))
          .execute();
    });
  }

  /** The caller's response, or 404 naming it. */
  async find(principal: Principal, id: string): Promise<ResponseObject> {
    const row = await this.visible(this.store.db, principal).select(['body']).where('id', '=', id).executeTakeFirst();
    if (!row) throw new NotFoundError(`response '${id}' not found`);
    return JSON.parse(row.body) as ResponseObject;
  }

  /** Deletes the caller's response and its input items; 404 when the caller has no such response. */
  async delete(principal: Principal, id: string): Promise<void> {
    const deleted = await this.store.transaction(async (trx) => {
      const result = await this.visible(trx, principal).where('id', '=', id).select('id').executeTakeFirst();
      if (!result) return false;
      await trx.deleteFrom('response_items').where('response_id', '=', id).execute();
      await trx.deleteFrom('responses').where('id', '=', id).execute();
      return true;
    });
    if (!deleted) throw new NotFoundError(`response '${id}' not found`);
  }

  /**
   * The turns of the conversation ending with the caller's response `id`, oldest first, following
   * `previous_response_id` (at most {@link MAX_CHAIN_LENGTH} turns) in one recursive query, their input items in a
   * second; undefined when `id` is not the caller's. A turn that expired or was deleted ends the walk: the
   * conversation starts after it.
   */
  async conversation(principal: Principal, id: string): Promise<StoredTurn[] | undefined> {
    const now = new Date(this.now()).toISOString();
    const rows = await this.store.db
      .withRecursive('chain(id, previous_response_id, body)', (db) => {
        const start = db
          .selectFrom('responses')
          .select(['id', 'previous_response_id', 'body'])
          .where('id', '=', id)
          .where('project', '=', principal.project)
          .where('expires_at', '>', now);
        return (principal.human === null ? start.where('human', 'is', null) : start.where('human', '=', principal.human)).unionAll((union) => {
          const older = union
            .selectFrom('responses as older')
            .innerJoin('chain', 'chain.previous_response_id', 'older.id')
            .select(['older.id', 'older.previous_response_id', 'older.body'])
            .where('older.project', '=', principal.project)
            .where('older.expires_at', '>', now);
          return principal.human === null ? older.where('older.human', 'is', null) : older.where('older.human', '=', principal.human);
        });
      })
      .selectFrom('chain')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(MAX_CHAIN_LENGTH)
      .execute();
    if (rows.length === 0) return undefined;
    const turns = rows.reverse();
    const items = await this.store.db
      .selectFrom('response_items')
      .select(['response_id', 'data'])
      .where(
        'response_id',
        'in',
        turns.map((turn) => turn.id),
      )
      .orderBy('response_id')
      .orderBy('position')
      .execute();
    const inputs = new Map<string, ResponseItem[]>();
    for (const item of items) inputs.set(item.response_id, [...(inputs.get(item.response_id) ?? []), JSON.parse(item.data) as ResponseItem]);
    return turns.map((turn) => ({ input: inputs.get(turn.id) ?? [], output: (JSON.parse(turn.body) as ResponseObject).output }));
  }

  /** One page of the caller's response's input items (OpenAI's cursor list); 404 when the response is not the caller's. */
  async items(principal: Principal, id: string, query: ResponseItemsQuery): Promise<ResponseItemList> {
    const owner = await this.visible(this.store.db, principal).select('id').where('id', '=', id).executeTakeFirst();
    if (!owner) throw new NotFoundError(`response '${id}' not found`);
    const position = async (itemId: string | undefined, field: string) => {
      if (itemId === undefined) return undefined;
      const row = await this.store.db.selectFrom('response_items').select('position').where('response_id', '=', id).where('id', '=', itemId).executeTakeFirst();
      if (!row) throw new NotFoundError(`${field}: item '${itemId}' is not an input item of response '${id}'`);
      return row.position;
    };
    const [after, before] = [await position(query.after, 'after'), await position(query.before, 'before')];
    const forward = query.order === 'asc';
    let select = this.store.db.selectFrom('response_items').select('data').where('response_id', '=', id);
    if (after !== undefined) select = select.where('position', forward ? '>' : '<', after);
    if (before !== undefined) select = select.where('position', forward ? '<' : '>', before);
    const rows = await select
      .orderBy('position', forward ? 'asc' : 'desc')
      .limit(query.limit + 1)
      .execute();
    const data = rows.slice(0, query.limit).map((row) => JSON.parse(row.data) as ResponseItem);
    return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: rows.length > query.limit };
  }

  /** Deletes expired responses and their items; answers how many responses. */
  async sweep(): Promise<number> {
    this.lastSweep = this.now();
    const cutoff = new Date(this.lastSweep).toISOString();
    return this.store.transaction(async (trx) => {
      const expired = trx.selectFrom('responses').select('id').where('expires_at', '<=', cutoff);
      await trx.deleteFrom('response_items').where('response_id', 'in', expired).execute();
      const result = await trx.deleteFrom('responses').where('expires_at', '<=', cutoff).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  /** The caller's unexpired responses: same project, same human (or both none). */
  private visible(db: Kysely<Database>, principal: Principal) {
    const base = db.selectFrom('responses').where('project', '=', principal.project).where('expires_at', '>', new Date(this.now()).toISOString());
    return principal.human === null ? base.where('human', 'is', null) : base.where('human', '=', principal.human);
  }

  private async sweepIfDue(): Promise<void> {
    if (this.now() - this.lastSweep >= SWEEP_INTERVAL_MS) await this.sweep();
  }
}
