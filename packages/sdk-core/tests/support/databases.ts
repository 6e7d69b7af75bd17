import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requireComponent } from './components.js';

export const postgresUrl = process.env.PALAVER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let probe: Promise<boolean> | undefined;

/** Whether the test PostgreSQL answers (checked once per process). */
export function postgresReachable(): Promise<boolean> {
  probe ??= (async () => {
    const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => {});
    }
  })();
  return probe;
}

export type StoreKind = 'sqlite' | 'postgres';

/** The stores a store-backed suite runs against: SQLite always, PostgreSQL when reachable (required in CI). */
export async function storeKinds(): Promise<StoreKind[]> {
  const postgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);
  return postgres ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** A fresh schema name, so parallel suites never share tables. */
export function uniqueSchema(): string {
  return `t_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/** Drops a test schema. */
export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
