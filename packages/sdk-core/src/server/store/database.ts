import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import type PgModule from 'pg';
import { importOptional } from '../kernel/optional-package.js';
import { migrations } from './migrations/index.js';
import { withStatementCache } from './statement-cache.js';
import type { Database } from './tables.js';
import { DocumentReadCache } from './document-read-cache.js';

export type DialectName = 'sqlite' | 'postgres';

export interface DatabaseOptions {
  /** SQLite file or `:memory:`, used when `url` is absent. */
  file?: string;
  /** PostgreSQL connection string. */
  url?: string | undefined;
  /** PostgreSQL schema to use (created when missing); isolates test runs. */
  schema?: string | undefined;
  /**
   * Told about connection errors nobody awaits (an idle pooled connection the database closed, e.g. on a restart
   * or `pg_terminate_backend`). The pool drops such a connection and opens a new one for the next query.
   */
  onConnectionError?: (error: Error) => void;
}

/** The SQLite database handed to `Store.sqlite`'s work (better-sqlite3's, for statements prepared once). */
export type SqliteHandle = BetterSqlite3.Database;

/** The storage handle every repository uses. */
export interface Store {
  db: Kysely<Database>;
  dialect: DialectName;
  /** Runs `work` in one transaction (serialised on SQLite, row locks available on PostgreSQL). */
  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Runs `work` while holding a database-wide lock (a PostgreSQL advisory lock; SQLite has one writer anyway),
   * so instances starting together migrate and seed one after another.
   */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /**
   * SQLite only (undefined on PostgreSQL): runs synchronous statements on the database handle in one transaction
   * while holding Kysely's connection, so no other query interleaves. For hot paths where several small
   * statements would each cost a trip through the query builder (the credit ledger, usage records and their outbox rows).
   */
  sqlite?: <T>(work: (database: SqliteHandle) => T) => Promise<T>;
  /**
   * SQLite only: runs one read-only `statement` (prepared once, by its SQL) synchronously on the handle and
   * returns its rows, or `undefined` while a transaction is open on the connection (its uncommitted writes would
   * show; the caller then reads through Kysely, which waits for the transaction). Better-sqlite3 runs each call to
   * the end, so no other query interleaves. For the hottest reads: Kysely's connection handling costs more than
   * the statement itself there.
   */
  readNow?: (sql: string, parameters: readonly unknown[]) => unknown[] | undefined;
  /**
   * SQLite only: recently read documents, kept by {@link DocumentStore} (which forgets a document once it wrote it).
   * Whatever else writes the `documents` table forgets what it changed (`forgetKind`).
   */
  documentReads?: DocumentReadCache;
  close(): Promise<void>;
}

/** The embedded store's document reads: a second at most behind another process's writes, small documents only. */
const DOCUMENT_READS = { ttlMs: 1000, maxDocuments: 4096, maxDataCharacters: 16 * 1024 };

function quoteIdentifier(identifier: string): string {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]{0,62}$/.test(identifier)) throw new Error(`Invalid schema name: ${identifier}`);
  return `"${identifier}"`;
}

type Pg = typeof PgModule;

/** `pg` is loaded only when PostgreSQL is configured. */
async function loadPg(): Promise<Pg> {
  const module = await importOptional('pg', 'DATABASE_URL (PostgreSQL)', () => import('pg'));
  return (module as { default?: Pg }).default ?? (module as unknown as Pg);
}

/** The default for errors of idle connections: they are recoverable, so they must never end the process. */
function noConnectionErrorListener(): void {}

async function preparePostgresSchema(pg: Pg, url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // the awaited query reports it
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`).catch((error: { code?: string }) => {
      // Instances starting together race on IF NOT EXISTS; losing the race means the schema exists.
      if (error.code !== '23505') throw error;
    });
  } finally {
    await client.end();
  }
}

/** Arbitrary constant identifying Palaver's start-up lock among advisory locks. */
const STARTUP_LOCK_KEY = 7_344_221_901;

async function withAdvisoryLock<T>(pg: Pg, url: string, work: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined); // the awaited queries report it
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** How often migrating is tried when another schema of the database vanished under the migrator's introspection. */
const MIGRATION_ATTEMPTS = 5;

/** PostgreSQL's "schema ... does not exist" (3F000) about a schema that is not this store's own. */
function isOtherSchemaDropped(error: unknown, ownSchema: string | undefined): boolean {
  const failure = error as { code?: string; message?: string };
  if (failure.code !== '3F000') return false;
  return ownSchema === undefined || !String(failure.message).includes(`"${ownSchema}"`);
}

/** Opens the database, applies pending migrations and returns the store. */
export async function openStore(options: DatabaseOptions): Promise<Store> {
  let db: Kysely<Database>;
  let dialect: DialectName;
  let sqlite: Store['sqlite'];
  let readNow: Store['readNow'];
  let documentReads: DocumentReadCache | undefined;
  const url = options.url;
  const pg = url ? await loadPg() : undefined;
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => (pg && url ? withAdvisoryLock(pg, url, work) : work());
  if (pg && options.url) {
    if (options.schema) await preparePostgresSchema(pg, options.url, options.schema);
    const pool = new pg.Pool({
      connectionString: options.url,
      max: 10,
      // Names the connections in pg_stat_activity (with the schema, when instances are isolated by schema).
      application_name: options.schema ? `palaver ${options.schema}` : 'palaver',
      ...(options.schema ? { options: `-c search_path=${quoteIdentifier(options.schema)}` } : {}),
    });
    // Without a listener, an idle connection's error would be an unhandled 'error' event: the process would exit.
    pool.on('error', (error) => (options.onConnectionError ?? noConnectionErrorListener)(error));
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialect = 'postgres';
  } else {
    const { default: BetterSqlite3 } = await importOptional('better-sqlite3', 'The embedded SQLite store', () => import('better-sqlite3'));
    const database = new BetterSqlite3(options.file ?? ':memory:');
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    const cached = withStatementCache(database);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
    readNow = (sql, parameters) => (database.inTransaction ? undefined : (cached.prepare(sql).all(parameters) as unknown[]));
    documentReads = new DocumentReadCache(DOCUMENT_READS);
    dialect = 'sqlite';
    const kysely = db;
    sqlite = (work) => kysely.connection().execute(async () => database.transaction(() => work(database))());
  }

  const migrator = new Migrator({
    db,
    // Kysely looks for its bookkeeping tables by introspection; name the schema so tables of other schemas
    // in the same database (e.g. parallel test runs) are not mistaken for ours.
    ...(options.url && options.schema ? { migrationTableSchema: options.schema } : {}),
    provider: {
      getMigrations: async () => Object.fromEntries(migrations.map((migration) => [migration.name, { up: migration.up }])),
    },
  });
  let { error, results } = await exclusive(() => migrator.migrateToLatest());
  // Kysely's migrator looks for its tables by introspecting every schema of the database; a schema another
  // application (or a parallel test run) drops meanwhile fails that query. Nothing was migrated then: try again.
  for (let attempt = 1; error && attempt < MIGRATION_ATTEMPTS && isOtherSchemaDropped(error, options.schema); attempt += 1) {
    await sleep(25 * attempt);
    ({ error, results } = await exclusive(() => migrator.migrateToLatest()));
  }
  if (error) {
    await db.destroy();
    const failed = results?.find((result) => result.status === 'Error');
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }

  return {
    db,
    dialect,
    transaction: (work) => db.transaction().execute(work),
    exclusive,
    ...(sqlite ? { sqlite } : {}),
    ...(readNow ? { readNow } : {}),
    ...(documentReads ? { documentReads } : {}),
    close: () => db.destroy(),
  };
}
