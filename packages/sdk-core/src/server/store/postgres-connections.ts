import { setTimeout as sleep } from 'node:timers/promises';
import type { EventEmitter } from 'node:events';
import type PgModule from 'pg';
import { importOptional } from '../kernel/optional-package.js';

export type Pg = typeof PgModule;

/**
 * The connections a PostgreSQL store opens, each named by its own `application_name` in `pg_stat_activity`
 * (followed by the schema when instances are isolated by schema; the pool is `palaver <schema>`):
 * - `pool`: every query while the server runs (a lost connection is dropped, the next query opens another);
 * - `migrations`: one connection while migrations run at start-up (a lost one: migrating is tried again);
 * - `startup-lock`: holds the advisory lock under which instances migrate and seed one after another (lost while
 *   waiting for the lock: the lock is asked for again; lost while held: start-up goes on, see {@link withStartupLock});
 * - `schema`: creates the schema at start-up (a lost one: tried again).
 */
export type PostgresConnectionKind = 'pool' | 'migrations' | 'startup-lock' | 'schema';

export interface PostgresSettings {
  url: string;
  schema?: string | undefined;
  /**
   * Told about every connection error nobody awaits (the database closing a connection: a restart,
   * `pg_terminate_backend`, a failover), once per connection. Without a listener such an error would be an
   * unhandled 'error' event and end the process.
   */
  onConnectionError: (error: Error, connection: PostgresConnectionKind) => void;
}

/** `pg` is loaded only when PostgreSQL is configured. */
export async function loadPg(): Promise<Pg> {
  const module = await importOptional('pg', 'DATABASE_URL (PostgreSQL)', () => import('pg'));
  return (module as { default?: Pg }).default ?? module;
}

export function quoteIdentifier(identifier: string): string {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]{0,62}$/.test(identifier)) throw new Error(`Invalid schema name: ${identifier}`);
  return `"${identifier}"`;
}

/** The `application_name` of a connection of `kind` (see {@link PostgresConnectionKind}). */
export function applicationName(kind: PostgresConnectionKind, schema?: string): string {
  const name = kind === 'pool' ? 'palaver' : `palaver ${kind}`;
  return schema ? `${name} ${schema}` : name;
}

/**
 * Reports `emitter`'s first error and ignores the later ones: a connection the database closed says so twice
 * (the server's message, then the socket's end).
 */
function reportFirstError(emitter: EventEmitter, report: (error: Error) => void): void {
  let reported = false;
  emitter.on('error', (error: Error) => {
    if (reported) return;
    reported = true;
    report(error);
  });
}

/** A connection of its own (not pooled), with its error listener: the awaited query fails, the rest is reported. */
export function dedicatedClient(pg: Pg, settings: PostgresSettings, kind: PostgresConnectionKind): PgModule.Client {
  const client = new pg.Client({ connectionString: settings.url, application_name: applicationName(kind, settings.schema) });
  reportFirstError(client, (error) => settings.onConnectionError(error, kind));
  return client;
}

/**
 * A pool whose connections search the store's schema, each with an error listener of its own from the moment it
 * connects. The pool's listener covers idle connections only: pg-pool takes it off a connection it lends out, and
 * a lent connection the database terminates between two queries (a transaction waiting for other work) or while
 * its transaction is rolled back emits 'error' on the client itself.
 */
export function openPool(pg: Pg, settings: PostgresSettings, kind: PostgresConnectionKind, max: number): PgModule.Pool {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max,
    application_name: applicationName(kind, settings.schema),
    ...(settings.schema ? { options: `-c search_path=${quoteIdentifier(settings.schema)}` } : {}),
  });
  pool.on('connect', (client) => reportFirstError(client, (error) => settings.onConnectionError(error, kind)));
  // The client's own listener above reported it; pg-pool has dropped the connection already.
  pool.on('error', () => undefined);
  return pool;
}

/** PostgreSQL's codes for a connection the server ended: administrator command, crash, not accepting yet. */
const CONNECTION_ENDED_CODES = new Set(['57P01', '57P02', '57P03']);
const CONNECTION_ENDED_MESSAGES = ['Connection terminated', 'not queryable', 'ECONNRESET', 'EPIPE'];

/** Whether `error` says the connection a query ran on was ended under it (a retry on a new connection may work). */
export function isConnectionLost(error: unknown): boolean {
  const failure = error as { code?: unknown; message?: unknown } | undefined;
  if (typeof failure?.code === 'string' && (CONNECTION_ENDED_CODES.has(failure.code) || failure.code === 'ECONNRESET' || failure.code === 'EPIPE')) return true;
  const message = typeof failure?.message === 'string' ? failure.message : '';
  return CONNECTION_ENDED_MESSAGES.some((part) => message.includes(part));
}

/** How often start-up work on a connection the database ended is tried again on a new one. */
export const CONNECTION_ATTEMPTS = 5;

/** Runs `work`, again on a lost connection (up to {@link CONNECTION_ATTEMPTS} in all, 25-100 ms between). */
export async function retryOnConnectionLoss<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= CONNECTION_ATTEMPTS || !isConnectionLost(error)) throw error;
      await sleep(25 * attempt);
    }
  }
}

/** Runs one query on a connection of its own (again on a new one when the database ends it). */
export function queryOnce(pg: Pg, settings: PostgresSettings, kind: PostgresConnectionKind, sql: string): Promise<void> {
  return retryOnConnectionLoss(async () => {
    const client = dedicatedClient(pg, settings, kind);
    try {
      await client.connect();
      await client.query(sql);
    } finally {
      await client.end().catch(() => {});
    }
  });
}

/** Arbitrary constant identifying Palaver's start-up lock among advisory locks. */
export const STARTUP_LOCK_KEY = 7_344_221_901;

/**
 * Runs `work` while holding the database-wide start-up lock on a `startup-lock` connection. A connection ended
 * while waiting for the lock asks for it again on a new one. One ended while the lock is held is reported and
 * `work` goes on without the lock: migrations hold Kysely's own lock, and seeding (upserts, the server secret
 * inserted or read back) tolerates another instance doing it too, except creating the development project, which
 * fails the start-up of the instance that loses that race, as a database going away would.
 */
export async function withStartupLock<T>(pg: Pg, settings: PostgresSettings, work: () => Promise<T>): Promise<T> {
  const client = await retryOnConnectionLoss(async () => {
    const candidate = dedicatedClient(pg, settings, 'startup-lock');
    try {
      await candidate.connect();
      await candidate.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
      return candidate;
    } catch (error) {
      await candidate.end().catch(() => {});
      throw error;
    }
  });
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}
