import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/server/store/database.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';

const available = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(available)('stores opening on a PostgreSQL database whose other schemas are dropped meanwhile', () => {
  it('migrate and open while other schemas with tables are dropped (Kysely introspects every schema)', async () => {
    // Other tenants of the database: schemas with a few tables each, dropped while the stores migrate.
    const others = Array.from({ length: 24 }, () => uniqueSchema());
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      for (const schema of others) {
        await client.query(`CREATE SCHEMA "${schema}"`);
        for (const table of ['a', 'b', 'c']) await client.query(`CREATE TABLE "${schema}"."${table}" (id serial primary key, name text, value int)`);
      }
    } finally {
      await client.end();
    }
    const own = Array.from({ length: 4 }, () => uniqueSchema());
    try {
      const dropping = (async () => {
        for (const schema of others) await dropSchema(schema);
      })();
      const opened = await Promise.allSettled(own.map((schema) => openStore({ url: postgresUrl, schema })));
      await dropping;
      const failures = opened.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
      expect(failures).toEqual([]);
      for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
    } finally {
      for (const schema of [...others, ...own]) await dropSchema(schema);
    }
  }, 120_000);
});
