import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { startServerProcess } from '../support/server-process.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres)('PostgreSQL connections lost under the server', () => {
  it('the database closing idle pooled connections (restart, pg_terminate_backend) does not stop the server', async () => {
    const schema = uniqueSchema();
    const server = await startServerProcess({ databaseUrl: postgresUrl }, { databaseSchema: schema });
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      const list = () => fetch(`${server.url}/v1/voice/list`, { headers: { 'x-api-key': server.apiKey } });
      for (let round = 1; round <= 3; round += 1) {
        // Several requests at once leave several idle connections in the pool.
        expect((await Promise.all([list(), list(), list()])).map((response) => response.status)).toEqual([200, 200, 200]);
        const terminated = await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`palaver ${schema}`]);
        expect(terminated.rowCount, `round ${round}: connections to terminate`).toBeGreaterThan(0);
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(server.alive(), `round ${round}: the server exited:\n${server.stderr()}`).toBe(true);
      }
      expect((await list()).status).toBe(200);
    } finally {
      await admin.end();
      await server.kill();
      await dropSchema(schema);
    }
  }, 60_000);
});
