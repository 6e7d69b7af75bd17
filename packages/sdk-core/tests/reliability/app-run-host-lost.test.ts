import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type PalaverServer } from '../../src/server.js';
import { dropSchema, postgresUrl, storeKinds, uniqueSchema } from '../support/databases.js';
import { startServerProcess } from '../support/server-process.js';

/** How long the restarted instance is given to end the lost run: its lease's lifetime and a reap, many times over. */
const REAP_WAIT_MS = 30_000;

const API_KEY = 'pk_run_host_lost_key_0123456789abcdef';

/**
 * App runs whose instance is killed (SIGKILL) and restarted on the same database: the run is charged to its human
 * up to the last time it was known to run, and its run_id is not answered as a live run.
 */
describe.each(await storeKinds())('app runs of a killed instance (%s)', (kind) => {
  let folder: string;
  const schemas: string[] = [];
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'palaver-run-lost-'));
  });
  afterAll(async () => {
    rmSync(folder, { recursive: true, force: true });
    for (const schema of schemas) await dropSchema(schema);
  });

  /** One database for a killed instance and its successor; `leaseSeconds` as both are configured. */
  function storage(name: string, leaseSeconds: number) {
    const schema = kind === 'postgres' ? uniqueSchema() : undefined;
    if (schema) schemas.push(schema);
    const store = kind === 'postgres' ? { databaseUrl: postgresUrl } : { database: join(folder, `${name}.db`) };
    return { config: { ...store, apiKey: API_KEY, realtime: { leaseSeconds } }, options: schema ? { databaseSchema: schema } : {} };
  }

  /** The restarted instance, in this process (its store is read directly). */
  async function restart(at: ReturnType<typeof storage>): Promise<PalaverServer> {
    return createServer({ env: {}, config: { ...at.config, logLevel: 'silent', webhook: { dispatch: false } }, ...at.options });
  }

  async function runAs(
    url: string,
    human: string,
    body: Record<string, unknown>,
    path = '/v1/app/run',
  ): Promise<{ status: number; body: { app_run?: { id: string }; type?: string; message?: string } }> {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': API_KEY, 'x-human-id': human, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as { app_run?: { id: string } } };
  }

  async function conversationalSeconds(server: PalaverServer, runId: string) {
    const rows = await server.services.store.db
      .selectFrom('usage_records')
      .select(['human', 'value', 'metadata'])
      .where('type', '=', 'conversational_seconds')
      .execute();
    return rows.filter((row) => (JSON.parse(row.metadata) as { app_run?: string }).app_run === runId);
  }

  async function waitForCharge(server: PalaverServer, runId: string) {
    const deadline = performance.now() + REAP_WAIT_MS;
    for (;;) {
      const rows = await conversationalSeconds(server, runId);
      if (rows.length > 0 || performance.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  it("charges the run's human, up to its lease's last renewal (not up to the clean-up)", async () => {
    // Leases of 3 s, renewed every second: the run is renewed at least once before the kill.
    const at = storage('charge', 3);
    const killed = await startServerProcess(at.config, at.options);
    const createdFrom = Date.now();
    const created = await runAs(killed.url, 'crash-human', { app: 'app_example_typed_chat' });
    expect(created.status).toBe(200);
    const runId = created.body.app_run!.id;
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await killed.kill('SIGKILL');
    // The run lived at most this long: from before its creation was asked to after its process was gone.
    const livedAtMost = (Date.now() - createdFrom) / 1000;

    const restarted = await restart(at);
    try {
      const charged = await waitForCharge(restarted, runId);
      expect(charged.map((row) => row.human)).toEqual(['crash-human']);
      expect(charged[0]!.value).toBeGreaterThan(0);
      // Not the time until the restarted instance cleaned up (restart + the lease running out come on top).
      expect(charged[0]!.value).toBeLessThanOrEqual(livedAtMost);
      const stored = await restarted.services.store.db.selectFrom('documents').select('data').where('id', '=', runId).executeTakeFirstOrThrow();
      expect(JSON.parse(stored.data)).toMatchObject({ status: 'ended', stop_reason: 'host_lost' });
    } finally {
      await restarted.close();
    }
  }, 90_000);

  it('run_from_graph with the run_id of a run lost with its instance answers as for an ended run (409), before its lease ran out', async () => {
    // Leases of 60 s: the killed instance's lease is still valid when its successor is asked.
    const at = storage('reuse', 60);
    const killed = await startServerProcess(at.config, at.options);
    const created = await runAs(killed.url, 'reuse-human', { app: 'app_example_typed_chat', run_id: 'run_lost_with_host' });
    expect(created.status).toBe(200);
    await killed.kill('SIGKILL');

    const restarted = await restart(at);
    try {
      const url = await restarted.listen(0, '127.0.0.1');
      const again = await runAs(url, 'reuse-human', { graph: { nodes: [], portals: [] }, run_id: 'run_lost_with_host' }, '/v1/app/run_from_graph');
      expect(again).toMatchObject({ status: 409, body: { type: 'conflict', message: expect.stringMatching(/has ended/) } });
      // An ended run's id answers the same.
      expect(await runAs(url, 'reuse-human', { app: 'app_example_typed_chat', run_id: 'run_lost_with_host' })).toMatchObject({ status: 409 });
      // The lost run was ended then.
      const stored = await restarted.services.store.db.selectFrom('documents').select('data').where('id', '=', 'run_lost_with_host').executeTakeFirstOrThrow();
      expect(JSON.parse(stored.data)).toMatchObject({ status: 'ended', stop_reason: 'host_lost' });
    } finally {
      await restarted.close();
    }
  }, 90_000);
});
