import { randomBytes } from 'node:crypto';
import type PgModule from 'pg';

async function pgClient(url: string, connectionTimeoutMillis?: number): Promise<PgModule.Client> {
  const { default: pg } = await import('pg');
  return new pg.Client({ connectionString: url, ...(connectionTimeoutMillis ? { connectionTimeoutMillis } : {}) });
}

/**
 * Whether a PostgreSQL server answers at `url` (within 2 s).
 *
 * @example
 * if (await postgresReachable('postgres://postgres@127.0.0.1:5432/test')) runAgainstPostgres();
 */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = await pgClient(url, 2000);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A fresh schema name, so parallel suites and benches never share tables (pass it as `databaseSchema`).
 *
 * @example
 * const schema = uniqueSchema();
 * const server = await createServer({ config: { databaseUrl: url }, databaseSchema: schema });
 */
export function uniqueSchema(): string {
  return `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Drops a schema made by {@link uniqueSchema} and everything in it.
 *
 * @example
 * await dropSchema(url, schema);
 */
export async function dropSchema(url: string, schema: string): Promise<void> {
  if (!/^[a-zA-Z_][a-zA-Z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid schema name: ${schema}`);
  const client = await pgClient(url);
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
