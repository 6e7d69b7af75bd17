import type { Store } from '../../src/server/store/database.js';
import type { DocumentRow } from '../../src/server/store/tables.js';

/** Rows per INSERT: 11 columns each keeps a statement far below SQLite's 32,766 variables. */
const ROWS_PER_STATEMENT = 500;

/**
 * Writes many document rows straight into the table (fast set-up for limit tests, which would otherwise
 * need thousands of API calls). `created_at` counts up by one millisecond per row from `start`, so the
 * last row is the newest.
 *
 * @example
 * await seedDocuments(store, 1200, (index) => ({ kind: 'persona', id: `persona_seed_${index}`, project, human: 'alice', data: '{}' }));
 */
export async function seedDocuments(
  store: Store,
  count: number,
  row: (index: number) => Pick<DocumentRow, 'kind' | 'id' | 'project' | 'data'> & Partial<DocumentRow>,
  start = Date.parse('2024-01-01T00:00:00.000Z'),
): Promise<void> {
  for (let first = 0; first < count; first += ROWS_PER_STATEMENT) {
    const rows: DocumentRow[] = [];
    for (let index = first; index < Math.min(count, first + ROWS_PER_STATEMENT); index += 1) {
      const createdAt = new Date(start + index).toISOString();
      rows.push({ human: null, parent: null, name: null, tags: null, created_at: createdAt, updated_at: createdAt, deleted_at: null, ...row(index) });
    }
    await store.db.insertInto('documents').values(rows).execute();
  }
}
