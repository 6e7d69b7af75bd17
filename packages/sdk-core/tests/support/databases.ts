import { dropSchema as dropSchemaAt, postgresReachable as reachable, uniqueSchema } from '../../src/testing/postgres-schemas.js';
import { requireComponent } from './components.js';

export { uniqueSchema };

export const postgresUrl = process.env.PALAVER_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let probe: Promise<boolean> | undefined;

/** Whether the test PostgreSQL answers (checked once per process). */
export function postgresReachable(): Promise<boolean> {
  probe ??= reachable(postgresUrl);
  return probe;
}

export type StoreKind = 'sqlite' | 'postgres';

/** The stores a store-backed suite runs against: SQLite always, PostgreSQL when reachable (required in CI). */
export async function storeKinds(): Promise<StoreKind[]> {
  const postgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);
  return postgres ? ['sqlite', 'postgres'] : ['sqlite'];
}

/** Drops a test schema. */
export function dropSchema(schema: string): Promise<void> {
  return dropSchemaAt(postgresUrl, schema);
}
