import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const serverSource = join(root, 'packages/sdk-core/src/server');
const storeFolder = join(serverSource, 'store');

/**
 * A TypeScript source in two views of equal shape (line breaks kept, so line numbers hold): `code` without its
 * comments (a comment may speak of `FOR UPDATE`), and `literals`, only the contents of its string and template
 * literals (where SQL lives). Regular expression literals are skipped whole, so a quote or slashes inside one start
 * nothing.
 */
export function sourceViews(text: string): { code: string; literals: string } {
  let code = '';
  let literals = '';
  let index = 0;
  const blank = (part: string) => part.replace(/[^\n]/g, ' ');
  const take = (part: string, asCode: boolean, asLiteral: boolean) => {
    code += asCode ? part : blank(part);
    literals += asLiteral ? part : blank(part);
  };
  while (index < text.length) {
    const char = text[index]!;
    const next = text[index + 1];
    let stop = index + 1;
    if (char === '/' && (next === '/' || next === '*')) {
      const end = next === '/' ? text.indexOf('\n', index) : text.indexOf('*/', index + 2);
      stop = end < 0 ? text.length : next === '/' ? end : end + 2;
      take(text.slice(index, stop), false, false);
    } else if (char === "'" || char === '"' || char === '`') {
      stop = index + 1;
      while (stop < text.length && text[stop] !== char) stop += text[stop] === '\\' ? 2 : 1;
      take(char, true, false);
      take(text.slice(index + 1, stop), true, true);
      take(text.slice(stop, stop + 1), true, false);
      stop += 1;
    } else if (char === '/' && /(?:[(,=:[!&|?{};]|^|\breturn)\s*$/.test(code.slice(-40))) {
      let inClass = false;
      while (stop < text.length && text[stop] !== '\n' && (inClass || text[stop] !== '/')) {
        if (text[stop] === '\\') stop += 1;
        else if (text[stop] === '[') inClass = true;
        else if (text[stop] === ']') inClass = false;
        stop += 1;
      }
      stop += 1;
      take(text.slice(index, stop), true, false);
    } else {
      take(char, true, false);
    }
    index = stop;
  }
  return { code, literals };
}

/** What only the store may say in code (comments left out), each with the reason. */
const DIALECT_IN_CODE: ReadonlyArray<{ pattern: RegExp; what: string }> = [
  { pattern: /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)['"](?:pg|better-sqlite3|pg-[\w-]+)['"]/, what: 'imports a database driver' },
  { pattern: /\b(?:PostgresDialect|SqliteDialect|DialectName|SqliteHandle)\b/, what: 'names a dialect type' },
  { pattern: /\.dialect\b/, what: 'reads the store dialect' },
  {
    pattern: /[=!]==?\s*['"](?:postgres|sqlite)['"]|['"](?:postgres|sqlite)['"]\s*[=!]==?|\bcase\s+['"](?:postgres|sqlite)['"]/,
    what: 'branches on the database',
  },
  { pattern: /\bstore\.sqlite\b|\.readNow\b/, what: "uses the store's SQLite-only handle" },
  { pattern: /\.(?:forUpdate|forShare|forNoKeyUpdate|skipLocked|noWait)\(/, what: 'takes a row lock itself' },
];

/** SQL only one of the databases speaks (or that says how the store locks and conflicts), in string literals. */
const DIALECT_SQL =
  /\bFOR\s+(?:NO\s+KEY\s+)?UPDATE\b|\bSKIP\s+LOCKED\b|\bON\s+CONFLICT\b|\bRETURNING\b|\bINSERT\s+OR\s+(?:IGNORE|REPLACE)\b|\bPRAGMA\b|\bpg_\w+\(|\bjson_extract\(|\bdatetime\(|(?<![.\w])now\(\)|->>|::(?:bigint|int|integer|text|jsonb?|numeric|timestamptz)\b/;

/** `line: reason: code` for every dialect mention in a source. */
export function dialectMentionsIn(text: string): string[] {
  const { code, literals } = sourceViews(text);
  const literalLines = literals.split('\n');
  const found: string[] = [];
  code.split('\n').forEach((line, index) => {
    for (const { pattern, what } of DIALECT_IN_CODE) if (pattern.test(line)) found.push(`${index + 1}: ${what}: ${line.trim()}`);
    if (DIALECT_SQL.test(literalLines[index]!)) found.push(`${index + 1}: writes dialect SQL: ${line.trim()}`);
  });
  return found;
}

function serverFilesOutsideStore(): string[] {
  return readdirSync(serverSource, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.startsWith(storeFolder + '/'));
}

describe('dialect SQL lives in store/ (decision 0088)', () => {
  it('finds what it looks for in planted code', () => {
    const planted = [
      "import pg from 'pg';",
      "import type BetterSqlite3 from 'better-sqlite3';",
      "const { default: pg } = await import('pg');",
      "if (this.store.dialect === 'postgres') due = due.forUpdate('delivery').skipLocked();",
      "const locking = store.kind === 'sqlite' ? query : query;",
      "switch (kind) { case 'postgres': break; }",
      'const sqlite = this.store.sqlite;',
      'function prepare(database: SqliteHandle) {}',
      "database.prepare('INSERT INTO t (a) VALUES (?) ON CONFLICT (a) DO NOTHING');",
      'await sql`SELECT balance FROM credit_balances WHERE credit = ${id} FOR UPDATE`.execute(db);',
      'await sql`select pg_advisory_xact_lock(hashtext(${key}))`.execute(trx);',
      "const q = sql`select data->>'name' from documents`;",
      "const q = sql`select json_extract(data, '$.name') from documents where created_at < datetime('now')`;",
      'const q = sql`UPDATE t SET a = 1 RETURNING *`;',
      'const q = sql`select ${amount}::bigint`;',
    ];
    for (const line of planted) expect(dialectMentionsIn(line), line).not.toEqual([]);
  });

  it('leaves comments, ordinary code and look-alikes alone', () => {
    const innocent = [
      '/** Locks the row (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite serialises). */',
      "// await import('pg') when DATABASE_URL is set",
      '/**\n * if (store.dialect === "postgres") { ... }\n */',
      "export const ENGINE_PACKAGES = ['pg', 'ioredis'];",
      'const { $schema: _dialect, ...rest } = schema;',
      'const started = performance.now(); const at = Date.now();',
      "const host = '::1'; const url = 'http://example.com/a//b';",
      "const file = options.file ?? 'palaver.sqlite';",
      "await trx.insertInto('usage_counters').values(row).onConflict((conflict) => conflict.doNothing()).returningAll().execute();",
      "throw new BadRequestError('returning customers need an update');",
      "const pattern = /['\"]/g; const other = text.replace(/\\/\\/.*$/, '');",
      "await startTestServer('sqlite');",
    ];
    for (const line of innocent) expect(dialectMentionsIn(line), line).toEqual([]);
  });

  it('sees the real thing: the store itself is full of it', () => {
    const store = ['database.ts', 'dialect/ledger-append.ts', 'dialect/outbox.ts', 'dialect/locks.ts'].map((name) =>
      readFileSync(join(storeFolder, name), 'utf8'),
    );
    for (const text of store) expect(dialectMentionsIn(text).length).toBeGreaterThan(0);
  });

  it('no server file outside store/ branches on the database, imports a driver or writes dialect SQL', () => {
    const offenders = serverFilesOutsideStore().flatMap((file) => dialectMentionsIn(readFileSync(file, 'utf8')).map((hit) => `${relative(root, file)}:${hit}`));
    expect(offenders, offenders.join('\n')).toEqual([]);
  });
});
