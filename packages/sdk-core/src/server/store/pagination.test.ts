import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError } from '../../errors/api-error.js';
import { storeKinds } from '../../../tests/support/databases.js';
import { openTestStore } from '../../../tests/support/open-store.js';
import type { Store } from './database.js';
import { encodeCursor, keysetPage, type Page } from './pagination.js';
import type { CreditRow } from './tables.js';

/** 45 credits of one project, created in three instants (15 share each `created_at`), plus one of another project. */
function credits(): CreditRow[] {
  const rows: CreditRow[] = [];
  for (let index = 0; index < 45; index += 1) {
    const instant = `2026-01-0${1 + Math.floor(index / 15)}T00:00:00.000Z`;
    // Ids out of insertion order, so only the ORDER BY gives the order.
    rows.push({
      id: `credit_${String((index * 17) % 45).padStart(2, '0')}`,
      project: 'project_a',
      name: `c${index}`,
      description: '',
      allow_negative_balance: 0,
      created_at: instant,
    });
  }
  rows.push({ id: 'credit_other', project: 'project_b', name: 'other', description: '', allow_negative_balance: 0, created_at: '2026-01-01T00:00:00.000Z' });
  return rows;
}

const byKey = (order: 'asc' | 'desc') => (left: CreditRow, right: CreditRow) => {
  const compared = left.created_at === right.created_at ? left.id.localeCompare(right.id) : left.created_at.localeCompare(right.created_at);
  return order === 'asc' ? compared : -compared;
};

describe.each(await storeKinds())('keysetPage (%s)', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  const rows = credits();
  const ofProject = rows.filter((row) => row.project === 'project_a');

  beforeAll(async () => {
    ({ store, close } = await openTestStore(kind));
    await store.db.insertInto('credits').values(rows).execute();
  });
  afterAll(async () => close?.());

  const base = () => store.db.selectFrom('credits').where('project', '=', 'project_a');

  async function walk(order: 'asc' | 'desc', pageSize: number): Promise<Array<Page<string>>> {
    const pages: Array<Page<string>> = [];
    let page: string | undefined;
    do {
      const answer = await keysetPage(base(), { page, pageSize }, order, (row) => row.id);
      pages.push(answer);
      page = answer.next_page ?? undefined;
    } while (page && pages.length < 100);
    return pages;
  }

  for (const order of ['asc', 'desc'] as const) {
    it(`walks every row once in (created_at, id) ${order} order, ties on created_at broken by id, across pages`, async () => {
      const pages = await walk(order, 7);
      expect(pages).toHaveLength(7);
      expect(pages.flatMap((page) => page.values)).toEqual([...ofProject].sort(byKey(order)).map((row) => row.id));
      expect(pages.every((page) => page.total_count === 45)).toBe(true);
      expect(pages.at(-1)!.next_page).toBeNull();
      expect(pages.slice(0, -1).every((page) => page.values.length === 7 && typeof page.next_page === 'string')).toBe(true);
    });
  }

  it('issues the tokens clients already hold: base64url of [created_at, id] of the last row shown', async () => {
    const first = await keysetPage(base(), { pageSize: 3 }, 'asc', (row) => row);
    const last = first.values.at(-1)!;
    expect(first.next_page).toBe(encodeCursor({ createdAt: last.created_at, id: last.id }));
    expect(JSON.parse(Buffer.from(first.next_page!, 'base64url').toString('utf8'))).toEqual([last.created_at, last.id]);
    // A token made before this helper existed (the same encoding) continues where it says.
    const token = Buffer.from(JSON.stringify(['2026-01-02T00:00:00.000Z', 'credit_00'])).toString('base64url');
    const next = await keysetPage(base(), { page: token, pageSize: 100 }, 'asc', (row) => row.id);
    const expected = [...ofProject]
      .sort(byKey('asc'))
      .filter((row) => row.created_at > '2026-01-02T00:00:00.000Z' || (row.created_at === '2026-01-02T00:00:00.000Z' && row.id > 'credit_00'));
    expect(next.values).toEqual(expected.map((row) => row.id));
  });

  it('bounds the page size: default 20, at least 1, at most 100', async () => {
    expect((await keysetPage(base(), {}, 'asc', (row) => row.id)).values).toHaveLength(20);
    expect((await keysetPage(base(), { pageSize: 0 }, 'asc', (row) => row.id)).values).toHaveLength(1);
    expect((await keysetPage(base(), { pageSize: -5 }, 'asc', (row) => row.id)).values).toHaveLength(1);
    const all = await keysetPage(base(), { pageSize: 1000 }, 'asc', (row) => row.id);
    expect(all.values).toHaveLength(45);
    expect(all.next_page).toBeNull();
  });

  it("answers a page token it did not issue with the spec's 400 (type and message)", async () => {
    for (const page of [
      'not-a-token',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('["only one"]').toString('base64url'),
      Buffer.from('[1, 2]').toString('base64url'),
    ]) {
      const failure = await keysetPage(base(), { page }, 'asc', (row) => row.id).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(BadRequestError);
      expect((failure as BadRequestError).status).toBe(400);
      expect((failure as BadRequestError).toJSON()).toEqual({ type: 'invalid_input', message: 'page: not a page token returned by this API' });
    }
  });

  it('counts only what the base query selects, and answers an empty page', async () => {
    const none = await keysetPage(store.db.selectFrom('credits').where('project', '=', 'project_none'), {}, 'desc', (row) => row.id);
    expect(none).toEqual({ values: [], total_count: 0, next_page: null });
    const other = await keysetPage(store.db.selectFrom('credits').where('project', '=', 'project_b'), {}, 'desc', (row) => row.name);
    expect(other).toEqual({ values: ['other'], total_count: 1, next_page: null });
  });
});
