import { CompiledQuery, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { BadRequestError } from '../../errors/api-error.js';
import { nowIso } from './ids.js';
import type { Store } from './database.js';
import { lockedRead, serialiseOn } from './dialect/index.js';
import { keysetPage, type Page, type PageRequest } from './pagination.js';
import type { Database, DocumentRow } from './tables.js';

/** Who is looking: the project, the human the request is scoped to, and whether global documents show. */
export interface AccessScope {
  project: string;
  /** When set, only documents without a human or of this human are visible. */
  human: string | null;
  /** Whether built-in documents (`project` null) are visible too. */
  includeGlobal?: boolean;
}

export interface StoredDocument<T> {
  id: string;
  project: string | null;
  human: string | null;
  parent: string | null;
  createdAt: string;
  updatedAt: string;
  data: T;
}

export interface NewDocument<T> {
  id: string;
  project: string | null;
  human?: string | null;
  parent?: string | null;
  name?: string | null;
  tags?: readonly string[];
  data: T;
  createdAt?: string;
}

export interface ListOptions extends PageRequest {
  order?: 'asc' | 'desc';
  parent?: string;
  /** Every given tag must be present. */
  tags?: readonly string[];
  /** Only these ids. */
  ids?: readonly string[];
  /** Include soft-deleted documents. */
  includeDeleted?: boolean;
  /** Only built-in documents (`project` null; needs `includeGlobal` in the scope). */
  builtInOnly?: boolean;
}

type Executor = Kysely<Database>;

/**
 * Most documents an array answer built with {@link DocumentStore.all} holds (newest first by default).
 * Routes that answer a bare array (`/v1/app/list`, `/v1/app/subgraph/list`, ...) have no pagination, so
 * this cap keeps their answers and queries bounded. See docs/decisions/0013-document-writes-and-limits.md.
 */
export const MAX_ARRAY_ANSWER = 1000;

/**
 * Most live documents of one kind a single human may own when creating through a usage token: end users
 * hold usage tokens, so without a quota one of them could fill the project's tables and lists.
 */
export const HUMAN_DOCUMENT_QUOTA = 1000;

/**
 * The quota for contexts (conversations), which accumulate with normal use and are only ever listed page
 * by page, so it is higher than {@link HUMAN_DOCUMENT_QUOTA}.
 */
export const HUMAN_CONTEXT_QUOTA = 10_000;

/** Largest id list bound in one statement (SQLite allows 32,766 variables, PostgreSQL 65,535). */
const ID_CHUNK_SIZE = 500;

/** Name and tags stored next to the data (indexed columns), set by writes that change them. */
export interface DocumentColumns {
  name?: string | null;
  tags?: readonly string[];
}

/** Options of {@link DocumentStore.insert}. */
export interface InsertOptions {
  /** Refuse (400 invalid_input) when the document's human already owns this many live documents of the kind. */
  quota?: number;
}

/**
 * The creation quota that applies to a caller: usage tokens (end users) get `limit` (default
 * {@link HUMAN_DOCUMENT_QUOTA}); API keys, held by the developer's own servers, have none.
 *
 * @example
 * await documents.insert(document, undefined, quotaFor(principal));
 */
export function quotaFor(principal: { kind: 'key' | 'token' }, limit: number = HUMAN_DOCUMENT_QUOTA): InsertOptions {
  return principal.kind === 'token' ? { quota: limit } : {};
}

function tagsColumn(tags: readonly string[] | undefined): string | null {
  return tags && tags.length > 0 ? ` ${tags.join(' ')} ` : null;
}

/** Typed access to one `kind` of the document table. */
/** A `documents` row as the document it stores (`data` parsed). */
export function documentFromRow<T>(row: DocumentRow): StoredDocument<T> {
  return {
    id: row.id,
    project: row.project,
    human: row.human,
    parent: row.parent,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    data: JSON.parse(row.data) as T,
  };
}

/** Placeholders of `find`'s prepared query: its compiled parameters equal to one are replaced by the call's value. */
const SLOT = { id: '\u0000id', project: '\u0000project', human: '\u0000human' } as const;

export class DocumentStore<T> {
  private readonly findQueries = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  constructor(
    private readonly store: Store,
    readonly kind: string,
  ) {}

  private visible(scope: AccessScope, includeDeleted = false) {
    return (eb: ExpressionBuilder<Database, 'documents'>) => {
      const conditions = [eb('kind', '=', this.kind)];
      conditions.push(scope.includeGlobal ? eb.or([eb('project', '=', scope.project), eb('project', 'is', null)]) : eb('project', '=', scope.project));
      if (scope.human !== null) conditions.push(eb.or([eb('human', 'is', null), eb('human', '=', scope.human)]));
      if (!includeDeleted) conditions.push(eb('deleted_at', 'is', null));
      return eb.and(conditions);
    };
  }

  private toDocument(row: DocumentRow): StoredDocument<T> {
    return documentFromRow<T>(row);
  }

  /**
   * Inserts a new document. With `options.quota` and a document owned by a human, first checks (under a
   * per-human lock on PostgreSQL; SQLite serialises transactions) that the human owns fewer live documents
   * of this kind than the quota.
   *
   * @example
   * await documents.insert({ id: newId('persona'), project, human: 'alice', data }, undefined, { quota: 1000 });
   */
  async insert(document: NewDocument<T>, executor: Executor = this.store.db, options: InsertOptions = {}): Promise<StoredDocument<T>> {
    const human = document.human ?? null;
    if (options.quota === undefined || human === null || document.project === null) return this.insertRow(document, executor);
    const quota = options.quota;
    const project = document.project;
    const checkedInsert = async (transaction: Executor) => {
      await serialiseOn(this.store, transaction, `palaver:quota:${this.kind}:${project}:${human}`);
      const owned = await transaction
        .selectFrom('documents')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('kind', '=', this.kind)
        .where('project', '=', project)
        .where('human', '=', human)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(owned.count) >= quota) {
        throw new BadRequestError(`limit reached: a human may own at most ${quota} objects of kind '${this.kind}'; delete some first`);
      }
      return this.insertRow(document, transaction);
    };
    return executor.isTransaction ? checkedInsert(executor) : this.store.transaction(checkedInsert);
  }

  /** The table row of a new document (used by both insert and upsert). */
  private rowOf(document: NewDocument<T>, createdAt: string, updatedAt: string): DocumentRow {
    return {
      kind: this.kind,
      id: document.id,
      project: document.project,
      human: document.human ?? null,
      parent: document.parent ?? null,
      name: document.name ?? null,
      tags: tagsColumn(document.tags),
      data: JSON.stringify(document.data),
      created_at: createdAt,
      updated_at: updatedAt,
      deleted_at: null,
    };
  }

  private async insertRow(document: NewDocument<T>, executor: Executor): Promise<StoredDocument<T>> {
    const now = document.createdAt ?? nowIso();
    const row = this.rowOf(document, now, now);
    await executor.insertInto('documents').values(row).execute();
    this.forget(row.id);
    return this.toDocument(row);
  }

  /**
   * Inserts or replaces a document by id in one statement (used to seed built-ins), so instances starting
   * together on one database never collide.
   */
  async upsert(document: NewDocument<T>): Promise<void> {
    const now = nowIso();
    await this.store.db
      .insertInto('documents')
      .values(this.rowOf(document, document.createdAt ?? now, now))
      .onConflict((conflict) =>
        conflict.columns(['kind', 'id']).doUpdateSet((eb) => ({
          data: eb.ref('excluded.data'),
          name: eb.ref('excluded.name'),
          tags: eb.ref('excluded.tags'),
          parent: eb.ref('excluded.parent'),
          updated_at: eb.ref('excluded.updated_at'),
          deleted_at: null,
        })),
      )
      .execute();
    this.forget(document.id);
  }

  async find(id: string, scope: AccessScope, executor: Executor = this.store.db): Promise<StoredDocument<T> | undefined> {
    // The hottest read of the API (every GET by id): its SQL is built once per scope shape, then only run.
    const shape = `${scope.includeGlobal ? 'global' : 'project'}:${scope.human === null ? 'all' : 'human'}`;
    let prepared = this.findQueries.get(shape);
    if (!prepared) {
      const compiled = this.store.db
        .selectFrom('documents')
        .selectAll()
        .where('id', '=', SLOT.id)
        .where(
          this.visible({ project: SLOT.project, human: scope.human === null ? null : SLOT.human, ...(scope.includeGlobal ? { includeGlobal: true } : {}) }),
        )
        .compile();
      prepared = { sql: compiled.sql, parameters: compiled.parameters };
      this.findQueries.set(shape, prepared);
    }
    const values: Record<string, unknown> = { [SLOT.id]: id, [SLOT.project]: scope.project, [SLOT.human]: scope.human };
    const parameters = prepared.parameters.map((parameter) =>
      typeof parameter === 'string' && Object.hasOwn(values, parameter) ? values[parameter] : parameter,
    );
    if (executor === this.store.db && this.store.readNow) {
      const reads = this.store.documentReads;
      const readScope = `${shape}\u0000${scope.project}\u0000${scope.human ?? ''}`;
      const kept = reads?.get(this.kind, id, readScope);
      if (kept) return this.toDocument(kept);
      // Undefined while a transaction is open on the connection: then read through Kysely (and keep nothing).
      const rows = this.store.readNow(prepared.sql, parameters) as DocumentRow[] | undefined;
      if (rows) {
        const row = rows[0];
        if (row) reads?.set(this.kind, id, readScope, row);
        return row ? this.toDocument(row) : undefined;
      }
    }
    const row = (await executor.executeQuery<DocumentRow>(CompiledQuery.raw(prepared.sql, parameters))).rows[0];
    return row ? this.toDocument(row) : undefined;
  }

  /** The document changed: its next read goes to the database (see {@link DocumentReadCache}). */
  private forget(id: string): void {
    this.store.documentReads?.forget(this.kind, id);
  }

  /** Replaces the data (and optionally name/tags) of a visible document; undefined when absent. */
  async replace(
    id: string,
    scope: AccessScope,
    data: T,
    extra: DocumentColumns = {},
    executor: Executor = this.store.db,
  ): Promise<StoredDocument<T> | undefined> {
    const updatedAt = nowIso();
    const result = await executor
      .updateTable('documents')
      .set({
        data: JSON.stringify(data),
        updated_at: updatedAt,
        ...(extra.name !== undefined ? { name: extra.name } : {}),
        ...(extra.tags !== undefined ? { tags: tagsColumn(extra.tags) } : {}),
      })
      .where('id', '=', id)
      .where(this.visible(scope))
      .executeTakeFirst();
    this.forget(id);
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.find(id, scope, executor);
  }

  /**
   * Read-modify-write of one visible document in one transaction: the row is read under a row lock
   * (`SELECT ... FOR UPDATE` on PostgreSQL, with the scope condition inside the locking query so a caller
   * never locks another tenant's row; SQLite transactions are serialised on Kysely's single connection),
   * `mutate` computes the new data from the current document, and the result is written before the lock
   * is released. Concurrent updates of one document therefore apply one after the other and never lose
   * each other's fields. `mutate` may throw (e.g. 403) to abort without writing; it receives the
   * transaction for related writes. Undefined when no visible document has the id.
   *
   * @example
   * await documents.update(id, scope, (current) => ({ ...current.data, name: 'New' }), (data) => ({ name: data.name }));
   */
  async update(
    id: string,
    scope: AccessScope,
    mutate: (current: StoredDocument<T>, transaction: Transaction<Database>) => T | Promise<T>,
    extra: DocumentColumns | ((data: T) => DocumentColumns) = {},
  ): Promise<StoredDocument<T> | undefined> {
    return this.store.transaction(async (transaction) => {
      const locking = transaction.selectFrom('documents').selectAll().where('id', '=', id).where(this.visible(scope));
      const row = await lockedRead(this.store, locking).executeTakeFirst();
      if (!row) return undefined;
      const current = this.toDocument(row);
      const data = await mutate(current, transaction);
      const columns = typeof extra === 'function' ? extra(data) : extra;
      const updatedAt = nowIso();
      await transaction
        .updateTable('documents')
        .set({
          data: JSON.stringify(data),
          updated_at: updatedAt,
          ...(columns.name !== undefined ? { name: columns.name } : {}),
          ...(columns.tags !== undefined ? { tags: tagsColumn(columns.tags) } : {}),
        })
        .where('kind', '=', this.kind)
        .where('id', '=', id)
        .execute();
      // Inside the transaction is enough: until it ends no read is kept (`readNow` answers undefined meanwhile).
      this.forget(id);
      return { ...current, data, updatedAt };
    });
  }

  /** Deletes a visible document (soft: keeps the row with `deleted_at`). Returns whether it existed. */
  async delete(id: string, scope: AccessScope, options: { soft?: boolean } = {}, executor: Executor = this.store.db): Promise<boolean> {
    if (options.soft) {
      const result = await executor.updateTable('documents').set({ deleted_at: nowIso() }).where('id', '=', id).where(this.visible(scope)).executeTakeFirst();
      this.forget(id);
      return Number(result.numUpdatedRows) > 0;
    }
    const result = await executor.deleteFrom('documents').where('id', '=', id).where(this.visible(scope)).executeTakeFirst();
    this.forget(id);
    return Number(result.numDeletedRows) > 0;
  }

  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- Kysely's type of a query that selects nothing yet
  private filtered(scope: AccessScope, options: ListOptions, executor: Executor): SelectQueryBuilder<Database, 'documents', {}> {
    let query = executor.selectFrom('documents').where(this.visible(scope, options.includeDeleted));
    if (options.parent !== undefined) query = query.where('parent', '=', options.parent);
    if (options.builtInOnly) query = query.where('project', 'is', null);
    if (options.ids !== undefined) query = query.where('id', 'in', options.ids.length > 0 ? [...options.ids] : ['']);
    for (const tag of options.tags ?? []) query = query.where('tags', 'like', `% ${tag.replace(/[%_\\]/g, '')} %`);
    return query;
  }

  async list(scope: AccessScope, options: ListOptions = {}, executor: Executor = this.store.db): Promise<Page<StoredDocument<T>>> {
    return keysetPage(this.filtered(scope, options, executor), options, options.order ?? 'desc', (row) => this.toDocument(row));
  }

  /**
   * Visible documents without pagination, newest first unless `order` says otherwise, at most `limit`
   * (default and ceiling {@link MAX_ARRAY_ANSWER}). An `ids` filter is bound in chunks, so no statement
   * carries more than a few hundred variables.
   */
  async all(scope: AccessScope, options: Omit<ListOptions, 'page' | 'pageSize'> & { limit?: number } = {}): Promise<StoredDocument<T>[]> {
    const limit = Math.min(Math.max(options.limit ?? MAX_ARRAY_ANSWER, 0), MAX_ARRAY_ANSWER);
    const order = options.order ?? 'desc';
    const chunks = options.ids === undefined ? [undefined] : chunked(options.ids, ID_CHUNK_SIZE);
    const rows: DocumentRow[] = [];
    for (const ids of chunks) {
      const filter = ids === undefined ? options : { ...options, ids };
      rows.push(...(await this.filtered(scope, filter, this.store.db).selectAll().orderBy('created_at', order).orderBy('id', order).limit(limit).execute()));
    }
    if (chunks.length > 1) rows.sort((left, right) => compareRows(left, right) * (order === 'desc' ? -1 : 1));
    return rows.slice(0, limit).map((row) => this.toDocument(row));
  }
}

function chunked<T>(values: readonly T[], size: number): T[][] {
  if (values.length === 0) return [[]];
  const chunks: T[][] = [];
  for (let start = 0; start < values.length; start += size) chunks.push(values.slice(start, start + size));
  return chunks;
}

function compareRows(left: DocumentRow, right: DocumentRow): number {
  if (left.created_at !== right.created_at) return left.created_at < right.created_at ? -1 : 1;
  return left.id < right.id ? -1 : left.id > right.id ? 1 : 0;
}
