import { describe, expect, it } from 'vitest';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { redisUrl, withRedis } from '../support/redis.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** A run of a lost host ends within this (lease 15 s, reaped every 5 s). */
const HOST_LOSS_BOUND_MS = 30_000;

async function call<T>(server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: T; ms: number }> {
  const started = performance.now();
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': server.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, ms: performance.now() - started };
}

type DebugGraph = { graph: { nodes: Array<{ id: string; pads: Array<{ id: string; value: unknown }> }> } };

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres && (await withRedis()))('app runs across instances (PostgreSQL + Redis)', () => {
  it('push_pad_value and debug on another instance reach the host; a killed host\'s run ends within 30 s', async () => {
    const schema = uniqueSchema();
    const config = { databaseUrl: postgresUrl, redisUrl, apiKey: 'pk_shared_run_key_0123456789abcdef' };
    const [host, other] = await Promise.all([startServerProcess(config, { databaseSchema: schema }), startServerProcess(config, { databaseSchema: schema })]);
    try {
      const created = await call<{ app_run: { id: string } }>(host!, 'POST', '/v1/app/run', { app: 'app_example_typed_chat' });
      expect(created.status).toBe(200);
      const runId = created.body.app_run.id;

      const pushed = await call(other!, 'POST', `/v1/app/run/${runId}/push_pad_value`, { node: 'system_prompt', pad: 'content', value: { type: 'string', value: 'Pushed through the other instance.' } });
      expect(pushed.status).toBe(200);
      const debug = await call<DebugGraph>(other!, 'POST', '/v1/app/debug', { run_id: runId });
      expect(debug.status).toBe(200);
      const content = debug.body.graph.nodes.find((node) => node.id === 'system_prompt')!.pads.find((pad) => pad.id === 'content');
      expect(content?.value).toEqual({ type: 'string', value: 'Pushed through the other instance.' });
      const refused = await call<{ type: string; message: string }>(other!, 'POST', `/v1/app/run/${runId}/push_pad_value`, { node: 'context', pad: 'max_non_system_messages', value: { type: 'string', value: 'many' } });
      expect(refused).toMatchObject({ status: 400, body: { type: 'invalid_input', message: expect.stringMatching(/node 'context' pad 'max_non_system_messages'/) } });

      await host!.kill('SIGKILL');
      const killedAt = performance.now();
      let endedAt: number | undefined;
      while (performance.now() - killedAt < HOST_LOSS_BOUND_MS + 5000) {
        const answer = await call<{ message: string }>(other!, 'POST', '/v1/app/debug', { run_id: runId });
        if (answer.status === 404) {
          expect(answer.body.message).toMatch(/has ended/);
          endedAt = performance.now();
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(endedAt).toBeDefined();
      console.log(`PostgreSQL + Redis: the run of the killed instance ended ${((endedAt! - killedAt) / 1000).toFixed(1)} s after the kill`);
      expect(endedAt! - killedAt).toBeLessThan(HOST_LOSS_BOUND_MS);
    } finally {
      await Promise.all([host!.kill('SIGKILL'), other!.kill('SIGKILL')]);
      await dropSchema(schema);
    }
  }, 90_000);
});
