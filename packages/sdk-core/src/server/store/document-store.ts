import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import { nowIso } from './ids.js';
import type { Store } from './database.js';
import { decodeCursor, pageSizeOf, toPage, type Page, type PageRequest } from './pagination.js';
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
}

type Executor = Kysely<Database>;

function tagsColumn(tags: readonly string[] | undefined): string | null {
  return tags && tags.length > 0 ? ` ${tags.join(' ')} ` : null;
}

/** Typed access to one `kind` of the document table. */
export class DocumentStore<T> {
  constructor(
    private readonly store: Store,
    readonly kind: string,
  ) {}

  private visible(scope: AccessScope, includeDeleted = false) {
    return (eb: ExpressionBuilder<Database, 'documents'>) => {
      const conditions = [eb('kind', '=', this.kind)];
      conditions.push(
        scope.includeGlobal
          ? eb.or([eb('project', '=', scope.project), eb('project', 'is', null)])
          : eb('project', '=', scope.project),
      );
      if (scope.human !== null) conditions.push(eb.or([eb('human', 'is', null), eb('human', '=', scope.human)]));
      if (!includeDeleted) conditions.push(eb('deleted_at', 'is', null));
      return eb.and(conditions);
    };
  }

  private toDocument(row: DocumentRow): StoredDocument<T> {
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

  async insert(document: NewDocument<T>, executor: Executor = this.store.db): Promise<StoredDocument<T>> {
    const now = document.createdAt ?? nowIso();
    const row: DocumentRow = {
      kind: this.kind,
      id: document.id,
      project: document.project,
      human: document.human ?? null,
      parent: document.parent ?? null,
      name: document.name ?? null,
      tags: tagsColumn(document.tags),
      data: JSON.stringify(document.data),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
    await executor.insertInto('documents').values(row).execute();
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
      .values({
        kind: this.kind,
        id: document.id,
        project: document.project,
        human: document.human ?? null,
        parent: document.parent ?? null,
        name: document.name ?? null,
        tags: tagsColumn(document.tags),
        data: JSON.stringify(document.data),
        created_at: document.createdAt ?? now,
        updated_at: now,
        deleted_at: null,
      })
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
  }

  async find(id: string, scope: AccessScope, executor: Executor = this.store.db): Promise<StoredDocument<T> | undefined> {
    const row = await executor
      .selectFrom('documents')
      .selectAll()
      .where('id', '=', id)
      .where(this.visible(scope))
      .executeTakeFirst();
    return row ? this.toDocument(row) : undefined;
  }

  /** Replaces the data (and optionally name/tags) of a visible document; undefined when absent. */
  async replace(
    id: string,
    scope: AccessScope,
    data: T,
    extra: { name?: string | null; tags?: readonly string[] } = {},
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
    if (Number(result.numUpdatedRows) === 0) return undefined;
    return this.find(id, scope, executor);
  }

  /** Deletes a visible document (soft: keeps the row with `deleted_at`). Returns whether it existed. */
  async delete(id: string, scope: AccessScope, options: { soft?: boolean } = {}, executor: Executor = this.store.db): Promise<boolean> {
    if (options.soft) {
      const result = await executor
        .updateTable('documents')
        .set({ deleted_at: nowIso() })
        .where('id', '=', id)
        .where(this.visible(scope))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    }
    const result = await executor.deleteFrom('documents').where('id', '=', id).where(this.visible(scope)).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  private filtered(scope: AccessScope, options: ListOptions, executor: Executor): SelectQueryBuilder<Database, 'documents', {}> {
    let query = executor.selectFrom('documents').where(this.visible(scope, options.includeDeleted));
    if (options.parent !== undefined) query = query.where('parent', '=', options.parent);
    if (options.ids !== undefined) query = query.where('id', 'in', options.ids.length > 0 ? [...options.ids] : ['']);
    for (const tag of options.tags ?? []) query = query.where('tags', 'like', `% ${tag.replace(/[%_\\]/g, '')} %`);
    return query;
  }

  async list(scope: AccessScope, options: ListOptions = {}, executor: Executor = this.store.db): Promise<Page<StoredDocument<T>>> {
    const limit = pageSizeOf(options);
    const order = options.order ?? 'desc';
    const base = this.filtered(scope, options, executor);
    let query = base.selectAll();
    if (options.page) {
      const cursor = decodeCursor(options.page);
      const comparison = order === 'desc' ? '<' : '>';
      query = query.where((eb) =>
        eb.or([
          eb('created_at', comparison, cursor.createdAt),
          eb.and([eb('created_at', '=', cursor.createdAt), eb('id', comparison, cursor.id)]),
        ]),
      );
    }
    const rows = await query.orderBy('created_at', order).orderBy('id', order).limit(limit + 1).execute();
    const count = await base.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow();
    return toPage(rows, limit, Number(count.count), (row) => this.toDocument(row));
  }

  /** Every visible document (no pagination), for small built-in catalogs. */
  async all(scope: AccessScope, options: Omit<ListOptions, 'page' | 'pageSize'> = {}): Promise<StoredDocument<T>[]> {
    const rows = await this.filtered(scope, options, this.store.db)
      .selectAll()
      .orderBy('created_at', options.order ?? 'desc')
      .orderBy('id', options.order ?? 'desc')
      .execute();
    return rows.map((row) => this.toDocument(row));
  }
}
