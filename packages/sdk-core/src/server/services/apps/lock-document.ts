import type { Transaction } from 'kysely';
import { nowIso } from '../../store/ids.js';
import type { Database } from '../../store/tables.js';

/**
 * Takes the row lock of one document for the rest of `transaction` (PostgreSQL blocks other writers of the
 * row until commit; SQLite serialises whole transactions anyway). A portable stand-in for
 * `SELECT ... FOR UPDATE`, which SQLite lacks. Reads made after it see the latest committed row.
 */
export async function lockDocument(transaction: Transaction<Database>, kind: string, id: string): Promise<void> {
  await transaction
    .updateTable('documents')
    .set({ updated_at: nowIso() })
    .where('kind', '=', kind)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .execute();
}

/** Whether `error` is a primary-key or unique violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_*). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
