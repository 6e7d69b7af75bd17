import { describe, expect, it, vi } from 'vitest';
import { createServer } from '../../src/server.js';
import { VERIFIED_KEY_TTL_MS } from '../../src/server/domain/auth/api-keys.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { redisUrl, withRedis } from '../support/redis.js';
import { createClient } from '../../src/client/create-client.js';
import { startFakeOpenAiUpstream } from '../../src/testing/fake-openai-upstream.js';

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres)('several instances on one PostgreSQL database', () => {
  it('start together (migrations, secret and seeds do not collide) and share state', async () => {
    const schema = uniqueSchema();
    const options = {
      env: {},
      databaseSchema: schema,
      config: { logLevel: 'silent' as const, databaseUrl: postgresUrl, apiKey: 'pk_shared_instance_key_0123456789' },
    };
    try {
      const servers = await Promise.all([createServer(options), createServer(options), createServer(options)]);
      const created = await servers[0].fetch(
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

  it('a key revoked by another instance is refused once the verified-key time (1 s) has passed on its clock', async () => {
    const schema = uniqueSchema();
    const options = { env: {}, databaseSchema: schema, config: { logLevel: 'silent' as const, databaseUrl: postgresUrl } };
    try {
      const [first, second] = await Promise.all([createServer(options), createServer(options)]);
      const { id, key } = await first.services.apiKeys.create(first.project, 'short-lived');
      const list = () => second.fetch(new Request('http://palaver.test/v1/voice/list', { headers: { 'x-api-key': key } }));
      // Only the clock that times remembered verifications (performance.now) is faked: timers stay real for the servers.
      vi.useFakeTimers({ toFake: ['performance'] });
      try {
        expect((await list()).status).toBe(200);
        await first.services.apiKeys.revoke(id);
        // Without a bus between them, the second instance trusts the key it verified for VERIFIED_KEY_TTL_MS...
        vi.advanceTimersByTime(VERIFIED_KEY_TTL_MS - 1);
        expect((await list()).status).toBe(200);
        // ...and reads it again, revoked, once that time has passed.
        vi.advanceTimersByTime(1);
        expect((await list()).status).toBe(401);
      } finally {
        vi.useRealTimers();
      }
      await Promise.all([first.close(), second.close()]);
    } finally {
      await dropSchema(schema);
    }
  });
});

describe.runIf(withPostgres && (await withRedis()))('several instances on PostgreSQL + Redis: caches follow changes made elsewhere', () => {
  it("a changed LLM, a changed secret, a deleted LLM and a revoked key are seen by another instance's next request", async () => {
    const schema = uniqueSchema();
    const options = {
      env: {},
      databaseSchema: schema,
      config: { logLevel: 'silent' as const, databaseUrl: postgresUrl, redisUrl, apiKey: 'pk_shared_cache_key_0123456789abc', llm: { allowLoopback: true } },
    };
    const upstreams = await Promise.all([startFakeOpenAiUpstream(), startFakeOpenAiUpstream()]);
    const [first, second] = await Promise.all([createServer(options), createServer(options)]);
    try {
      // Over real sockets, as a load balancer would spread one user's calls over two instances.
      const [urlA, urlB] = await Promise.all([first.listen(0, '127.0.0.1'), second.listen(0, '127.0.0.1')]);
      const onA = createClient({ baseUrl: urlA, apiKey: options.config.apiKey, maxRetries: 0 });
      const onB = createClient({ baseUrl: urlB, apiKey: options.config.apiKey, maxRetries: 0 });
      await onA.secrets.create({ name: 'UPSTREAM_KEY', value: 'value-0' });
      const definition = (index: number) => ({
        name: 'shared',
        description: '',
        model: 'fake-gpt',
        post_url: upstreams[index]!.chatUrl,
        headers: [{ key: 'authorization', value: 'Bearer {{secret:UPSTREAM_KEY}}' }],
      });
      const llm = (await onA.llms.create(definition(0))).id;
      const ask = () => onB.chat.completions.create({ model: llm, messages: [{ role: 'user', content: 'hi' }] });
      const lastRequest = () => [...upstreams[0].requests, ...upstreams[1].requests].sort((x, y) => x.receivedAt - y.receivedAt).at(-1)!;
      await ask(); // B now remembers the resolved LLM and the verified key

      for (let trial = 1; trial <= 10; trial += 1) {
        await onA.llms.update(llm, definition(trial % 2));
        await ask();
        expect(lastRequest().url.length > 0 && upstreams[trial % 2]!.requests.includes(lastRequest()), `trial ${trial}: B used the old post_url`).toBe(true);
        await onA.secrets.update('UPSTREAM_KEY', { name: 'UPSTREAM_KEY', value: `value-${trial}` });
        await ask();
        expect(lastRequest().headers.authorization, `trial ${trial}: B used the old secret`).toBe(`Bearer value-${trial}`);
      }

      await onA.llms.delete(llm);
      const refused = await ask().catch((caught: unknown) => caught);
      expect((refused as { status?: number }).status, 'B still answered with a deleted LLM').toBe(400);

      const { id, key } = await first.services.apiKeys.create(first.project, 'short-lived');
      const list = () => fetch(`${urlB}/v1/voice/list`, { headers: { 'x-api-key': key } });
      expect((await list()).status).toBe(200);
      await first.services.apiKeys.revoke(id);
      expect((await list()).status, 'B still accepted a key revoked on A').toBe(401);
    } finally {
      await Promise.all([first.close(), second.close(), ...upstreams.map((upstream) => upstream.close())]);
      await dropSchema(schema);
    }
  });
});
