/**
 * Whether `error` is a primary-key or unique-index violation, from either driver: PostgreSQL's SQLSTATE 23505,
 * better-sqlite3's `SQLITE_CONSTRAINT_UNIQUE` / `SQLITE_CONSTRAINT_PRIMARYKEY`.
 *
 * @example
 * try { await versions.insert(document, transaction); } catch (error) { if (!isUniqueViolation(error)) throw error; }
 */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
