import { describe, expect, it } from 'vitest';
import { createServer } from '../../src/server.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres)('several instances on one PostgreSQL database', () => {
  it('start together (migrations, secret and seeds do not collide) and share state', async () => {
    const schema = uniqueSchema();
    const options = { env: {}, databaseSchema: schema, config: { logLevel: 'silent' as const, databaseUrl: postgresUrl, apiKey: 'pk_shared_instance_key_0123456789' } };
    try {
      const servers = await Promise.all([createServer(options), createServer(options), createServer(options)]);
      const created = await servers[0]!.fetch(
        new Request('http://palaver.test/v1/usage/token', {
          method: 'POST',
          headers: { 'x-api-key': 'pk_shared_instance_key_0123456789', 'content-type': 'application/json' },
          body: JSON.stringify({ human: 'shared' }),
        }),
      );
      const { token } = (await created.json()) as { token: string };
      // A token minted by one instance is accepted by the others: they derived the same signing key.
      for (const server of servers) {
        const response = await server.fetch(new Request('http://palaver.test/v1/voice/list', { headers: { authorization: `Bearer ${token}` } }));
        expect(response.status).toBe(200);
      }
      await Promise.all(servers.map((server) => server.close()));
    } finally {
      await dropSchema(schema);
    }
  });

  it('a key revoked by another instance is refused within the verified-key time (1 s)', async () => {
    const schema = uniqueSchema();
    const options = { env: {}, databaseSchema: schema, config: { logLevel: 'silent' as const, databaseUrl: postgresUrl } };
    try {
      const [first, second] = await Promise.all([createServer(options), createServer(options)]);
      const { id, key } = await first!.services.apiKeys.create(first!.project, 'short-lived');
      const list = () => second!.fetch(new Request('http://palaver.test/v1/voice/list', { headers: { 'x-api-key': key } }));
      expect((await list()).status).toBe(200);
      await first!.services.apiKeys.revoke(id);
      const revokedAt = performance.now();
      let status = 200;
      while (status === 200 && performance.now() - revokedAt < 3000) {
        status = (await list()).status;
        if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe(401);
      expect(performance.now() - revokedAt).toBeLessThan(1000 + 300);
      await Promise.all([first!.close(), second!.close()]);
    } finally {
      await dropSchema(schema);
    }
  });
});
