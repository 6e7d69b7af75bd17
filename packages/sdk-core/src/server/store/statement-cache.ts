import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Distinct SQL texts kept prepared; the application issues far fewer. */
const MAX_STATEMENTS = 1000;

/**
 * The better-sqlite3 handle Kysely uses, with prepared statements reused by SQL text. Kysely prepares every
 * query anew, and preparing dominated simple reads in profiles. Safe because better-sqlite3 runs one statement at
 * a time on this connection and the store never streams (`iterate`) results.
 */
export function withStatementCache(database: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
