import type { Selectable, SelectQueryBuilder } from 'kysely';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../contract/common.js';
import { BadRequestError } from '../../errors/api-error.js';

/** Position after which the next page starts (keyset pagination on `created_at`, `id`). */
export interface Cursor {
  createdAt: string;
  id: string;
}

export interface PageRequest {
  page?: string | undefined;
  pageSize?: number | undefined;
}

export interface Page<T> {
  values: T[];
  total_count: number;
  next_page: string | null;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

/** Decodes a `page` token; a token that was not issued by the server is a 400. */
export function decodeCursor(token: string): Cursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string') {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw new BadRequestError('page: not a page token returned by this API');
}

export function pageSizeOf(request: PageRequest): number {
  return Math.min(Math.max(request.pageSize ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
}

/** Builds a page from `limit + 1` fetched rows. */
export function toPage<Row extends { created_at: string; id: string }, T>(rows: Row[], limit: number, totalCount: number, map: (row: Row) => T): Page<T> {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return {
    values: shown.map(map),
    total_count: totalCount,
    next_page: hasMore && last ? encodeCursor({ createdAt: last.created_at, id: last.id }) : null,
  };
}

/** The one table {@link keysetPage} sees: whatever the caller's, by its keyset columns. */
interface KeysetTables {
  keyset: { created_at: string; id: string };
}

/**
 * One page of `base`'s rows in (`created_at`, `id`) order, `desc` newest first: the rows after the request's `page`
 * token (a 400 when it is not one this API issued), at most the request's page size (default 20, 1-100), the next
 * token when more follow, and the count of all rows `base` selects. `base` is a single-table query with its filters
 * (`created_at` and `id` unqualified); the page and the count run side by side.
 *
 * @example
 * return keysetPage(db.selectFrom('credits').where('project', '=', project), request, 'asc', toCredit);
 */
export async function keysetPage<DB, TB extends keyof DB, O, T>(
  base: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  order: 'asc' | 'desc',
  map: (row: Selectable<DB[TB]>) => T,
): Promise<Page<T>> {
  const limit = pageSizeOf(request);
  const cursor = request.page ? decodeCursor(request.page) : undefined;
  const keyed = base as unknown as SelectQueryBuilder<KeysetTables, 'keyset', object>;
  let query = keyed.selectAll();
  if (cursor) {
    const after = order === 'desc' ? '<' : '>';
    query = query.where((eb) =>
      eb.or([eb('created_at', after, cursor.createdAt), eb.and([eb('created_at', '=', cursor.createdAt), eb('id', after, cursor.id)])]),
    );
  }
  const [rows, count] = await Promise.all([
    query
      .orderBy('created_at', order)
      .orderBy('id', order)
      .limit(limit + 1)
      .execute(),
    keyed.select((eb) => eb.fn.countAll<number | string>().as('count')).executeTakeFirstOrThrow(),
  ]);
  return toPage(rows, limit, Number(count.count), (row) => map(row as unknown as Selectable<DB[TB]>));
}
