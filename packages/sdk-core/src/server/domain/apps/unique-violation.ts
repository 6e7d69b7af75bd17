/**
 * Whether `error` is a primary-key or unique violation (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_*).
 *
 * @example
 * try { await versions.insert(document, transaction); } catch (error) { if (!isUniqueViolation(error)) throw error; }
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
