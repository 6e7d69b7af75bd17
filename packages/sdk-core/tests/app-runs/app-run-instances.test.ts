import { describe, expect, it } from 'vitest';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { redisUrl, withRedis } from '../support/redis.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** The run of a lost host ends once its lease (15 s, reaped every 5 s) is past: waited for this long at most, not timed. */
const HOST_LOSS_WAIT_MS = 60_000;

async function call<T>(server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': server.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

type DebugGraph = { graph: { nodes: Array<{ id: string; pads: Array<{ id: string; value: unknown }> }> } };

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres && (await withRedis()))('app runs across instances (PostgreSQL + Redis)', () => {
  it("push_pad_value and debug on another instance reach the host; a killed host's run is ended by the other instance", async () => {
    const schema = uniqueSchema();
    const config = { databaseUrl: postgresUrl, redisUrl, apiKey: 'pk_shared_run_key_0123456789abcdef' };
    const [host, other] = await Promise.all([startServerProcess(config, { databaseSchema: schema }), startServerProcess(config, { databaseSchema: schema })]);
    try {
      const created = await call<{ app_run: { id: string } }>(host, 'POST', '/v1/app/run', { app: 'app_example_typed_chat' });
      expect(created.status).toBe(200);
      const runId = created.body.app_run.id;

      const pushed = await call(other, 'POST', `/v1/app/run/${runId}/push_pad_value`, {
        node: 'system_prompt',
        pad: 'content',
        value: { type: 'string', value: 'Pushed through the other instance.' },
      });
      expect(pushed.status).toBe(200);
      const debug = await call<DebugGraph>(other, 'POST', '/v1/app/debug', { run_id: runId });
      expect(debug.status).toBe(200);
      const content = debug.body.graph.nodes.find((node) => node.id === 'system_prompt')!.pads.find((pad) => pad.id === 'content');
      expect(content?.value).toEqual({ type: 'string', value: 'Pushed through the other instance.' });
      const refused = await call<{ type: string; message: string }>(other, 'POST', `/v1/app/run/${runId}/push_pad_value`, {
        node: 'context',
        pad: 'max_non_system_messages',
        value: { type: 'string', value: 'many' },
      });
      expect(refused).toMatchObject({
        status: 400,
        body: { type: 'invalid_input', message: expect.stringMatching(/node 'context' pad 'max_non_system_messages'/) },
      });

      await host.kill('SIGKILL');
      // The other instance ends the run once the lost host's lease is past.
      const deadline = performance.now() + HOST_LOSS_WAIT_MS;
      let ended: { status: number; body: { message: string } } | undefined;
      while (ended === undefined && performance.now() < deadline) {
        const answer = await call<{ message: string }>(other, 'POST', '/v1/app/debug', { run_id: runId });
        if (answer.status === 404) ended = answer;
        else await new Promise((resolve) => setTimeout(resolve, 500));
      }
      expect(ended, `the run of the killed instance did not end within ${HOST_LOSS_WAIT_MS / 1000} s`).toMatchObject({
        status: 404,
        body: { message: expect.stringMatching(/has ended/) },
      });
    } finally {
      await Promise.all([host.kill('SIGKILL'), other.kill('SIGKILL')]);
      await dropSchema(schema);
    }
  }, 120_000);
});
