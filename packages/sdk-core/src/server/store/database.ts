import { setTimeout as sleep } from 'node:timers/promises';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationResult, type Transaction } from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { importOptional } from '../kernel/optional-package.js';
import { migrations } from './migrations/index.js';
import {
  isConnectionLost,
  loadPg,
  openPool,
  queryOnce,
  quoteIdentifier,
  withStartupLock,
  type Pg,
  type PostgresConnectionKind,
  type PostgresSettings,
} from './postgres-connections.js';
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
   * Told about PostgreSQL connection errors nobody awaits (a connection the database closed, e.g. on a restart or
   * `pg_terminate_backend`), once per connection, with the kind of connection; the store recovers from each
   * ({@link PostgresConnectionKind} says how).
   */
  onConnectionError?: (error: Error, connection: PostgresConnectionKind) => void;
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

/**
 * How often migrating is tried when another schema of the database vanished under the migrator's introspection, or
 * the database ended the migrations' connection.
 */
const MIGRATION_ATTEMPTS = 5;

/** PostgreSQL's "schema ... does not exist" (3F000) about a schema that is not this store's own. */
function isOtherSchemaDropped(error: unknown, ownSchema: string | undefined): boolean {
  const failure = error as { code?: string; message?: string };
  if (failure.code !== '3F000') return false;
  return ownSchema === undefined || !String(failure.message).includes(`"${ownSchema}"`);
}

/** The default for errors of connections nobody awaits: the store recovers, so they must never end the process. */
function noConnectionErrorListener(): void {}

/** Creates the store's schema (instances starting together race on IF NOT EXISTS; the loser finds it made). */
async function preparePostgresSchema(pg: Pg, settings: PostgresSettings, schema: string): Promise<void> {
  await queryOnce(pg, settings, 'schema', `CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`).catch((error: { code?: string }) => {
    if (error.code !== '23505') throw error;
  });
}

/** The Kysely over which migrations run: PostgreSQL's is a connection of its own, closed once they are done. */
function migrationsDatabase(db: Kysely<Database>, postgres: { pg: Pg; settings: PostgresSettings } | undefined): Kysely<Database> {
  if (!postgres) return db;
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPool(postgres.pg, postgres.settings, 'migrations', 1) }) });
}

/** Opens the database, applies pending migrations and returns the store. */
export async function openStore(options: DatabaseOptions): Promise<Store> {
  let db: Kysely<Database>;
  let dialect: DialectName;
  let sqlite: Store['sqlite'];
  let readNow: Store['readNow'];
  let documentReads: DocumentReadCache | undefined;
  let postgres: { pg: Pg; settings: PostgresSettings } | undefined;
  if (options.url) {
    const pg = await loadPg();
    const settings: PostgresSettings = { url: options.url, schema: options.schema, onConnectionError: options.onConnectionError ?? noConnectionErrorListener };
    postgres = { pg, settings };
    if (options.schema) await preparePostgresSchema(pg, settings, options.schema);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPool(pg, settings, 'pool', 10) }) });
    dialect = 'postgres';
  } else {
    const { default: BetterSqlite3 } = await importOptional('better-sqlite3', 'The embedded SQLite store', () => import('better-sqlite3'));
    const database = new BetterSqlite3(options.file ?? ':memory:');
    database.pragma('journal_mode = WAL');
    database.pragma('busy_timeout = 5000');
    database.pragma('foreign_keys = ON');
    const cached = withStatementCache(database);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
    readNow = (sql, parameters) => (database.inTransaction ? undefined : cached.prepare(sql).all(parameters));
    documentReads = new DocumentReadCache(DOCUMENT_READS);
    dialect = 'sqlite';
    const kysely = db;
    sqlite = (work) => kysely.connection().execute(async () => database.transaction(() => work(database))());
  }
  const exclusive = <T>(work: () => Promise<T>): Promise<T> => (postgres ? withStartupLock(postgres.pg, postgres.settings, work) : work());

  const migrating = migrationsDatabase(db, postgres);
  const migrator = new Migrator({
    db: migrating,
    // Kysely looks for its bookkeeping tables by introspection; name the schema so tables of other schemas
    // in the same database (e.g. parallel test runs) are not mistaken for ours.
    ...(options.url && options.schema ? { migrationTableSchema: options.schema } : {}),
    provider: {
      getMigrations: async () => Object.fromEntries(migrations.map((migration) => [migration.name, { up: migration.up }])),
    },
  });
  let error: unknown;
  let results: MigrationResult[] | undefined;
  try {
    ({ error, results } = await exclusive(() => migrator.migrateToLatest()));
    // Kysely's migrator looks for its tables by introspecting every schema of the database; a schema another
    // application (or a parallel test run) drops meanwhile fails that query. The database may also end the
    // migrations' connection (a restart, `pg_terminate_backend`). PostgreSQL migrations run in one transaction,
    // so nothing was migrated then: try again.
    for (let attempt = 1; error && attempt < MIGRATION_ATTEMPTS && (isOtherSchemaDropped(error, options.schema) || isConnectionLost(error)); attempt += 1) {
      await sleep(25 * attempt);
      ({ error, results } = await exclusive(() => migrator.migrateToLatest()));
    }
  } catch (failure) {
    error = failure;
  } finally {
    if (migrating !== db) await migrating.destroy();
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
