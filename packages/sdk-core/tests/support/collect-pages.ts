import { expect } from 'vitest';
import type { PageShape } from '../../src/client/page-promise.js';

/** One call of a list operation, with the paging query a client sends. */
export type ListPage = (query: { page_size: number; page?: string }) => PromiseLike<PageShape<{ id: string }>>;

export interface CollectPagesOptions {
  /** `page_size` sent with every request; no page may hold more. */
  pageSize: number;
  /** Ids the listing must contain. */
  expectedIds: Iterable<string>;
  /** Requests at the most, so a cursor that never ends cannot hang the test. */
  maxPages?: number;
}

export interface CollectedPages {
  /** Every id, in listing order. */
  ids: string[];
  /** `total_count` of the last page. */
  total: number;
  /** How many pages were requested. */
  pages: number;
}

/**
 * Walks a list page by page, following `next_page` as a client would, and checks that the listing is
 * whole: no page larger than `pageSize`, no id twice, as many ids as `total_count`, and every expected
 * id among them.
 *
 * @example
 * const { pages, total } = await collectPages((query) => client.tools.list(query), { pageSize: 8, expectedIds: created });
 */
export async function collectPages(list: ListPage, options: CollectPagesOptions): Promise<CollectedPages> {
  const maxPages = options.maxPages ?? 50;
  const ids: string[] = [];
  let page: string | undefined;
  let pages = 0;
  let total = 0;
  do {
    const result = await list({ page_size: options.pageSize, ...(page ? { page } : {}) });
    expect(result.values.length).toBeLessThanOrEqual(options.pageSize);
    ids.push(...result.values.map((item) => item.id));
    total = result.total_count;
    page = result.next_page ?? undefined;
    pages += 1;
  } while (page && pages < maxPages);
  expect(new Set(ids).size).toBe(ids.length);
  expect(ids.length).toBe(total);
  for (const id of options.expectedIds) expect(ids).toContain(id);
  return { ids, total, pages };
}
