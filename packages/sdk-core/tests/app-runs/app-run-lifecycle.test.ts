import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { HumanParticipant } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { APP_RUN_KIND } from '../../src/server/domain/apps/app-run-service.js';

describe('app runs: how they end and what they cost', () => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer('sqlite', { config: { realtime: { leaseSeconds: 15, appRunEmptySeconds: 0.5 } } });
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  /** When the run started and ended, as it is stored. */
  async function lifetimeOf(runId: string): Promise<{ startedAt: number; endedAt: number }> {
    const row = await test.server.services.store.db
      .selectFrom('documents')
      .select('data')
      .where('kind', '=', APP_RUN_KIND)
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    const data = JSON.parse(row.data) as { started_at: string; ended_at: string | null };
    return { startedAt: Date.parse(data.started_at), endedAt: Date.parse(data.ended_at!) };
  }

  async function consumed(human: string): Promise<number> {
    const { used } = await test.server.services.usage.consumption(test.server.services.store.db, test.server.project, human, 'conversational_seconds');
    return used;
  }

  it('ends once everyone left, and records its conversational seconds for the human', async () => {
    const { token } = await test.client.usage.createToken({ human: 'leaver' });
    const client = test.clientWith({ usageToken: token });
    const app = await client.appTemplates.apply('app_template_echo', { name: 'Echo for leaver' });
    const run = await client.appRuns.create({ app: app.id });
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, 'leaver');
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    const joinedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await human.leave();
    const leftAt = Date.now();
    await eventually(() => expect(test.server.services.appRuns.hosts(run.app_run.id)).toBe(false), 20_000);
    await eventually(async () => expect(await consumed('leaver')).toBeGreaterThan(0), 20_000);
    // The seconds recorded are the run's lifetime, from its start to its end, which held the human's stay in it.
    const lifetime = await lifetimeOf(run.app_run.id);
    expect(lifetime.startedAt).toBeLessThanOrEqual(joinedAt);
    expect(lifetime.endedAt).toBeGreaterThanOrEqual(leftAt);
    expect(await consumed('leaver')).toBeCloseTo((lifetime.endedAt - lifetime.startedAt) / 1000, 3);
    await expect(
      client.appRuns.pushPadValue(run.app_run.id, { node: 'publish', pad: 'audio_enabled', value: { type: 'boolean', value: true } }),
    ).rejects.toMatchObject({
      status: 404,
      message: expect.stringMatching(/has ended/),
    });
  });

  it("refuses to start past the human's conversational_seconds limit, and ends a run that reaches it", async () => {
    const { token } = await test.client.usage.createToken({ human: 'limited', limits: [{ type: 'conversational_seconds', value: 2 }] });
    const client = test.clientWith({ usageToken: token });
    const app = await client.appTemplates.apply('app_template_echo', { name: 'Echo for limited' });
    const run = await client.appRuns.create({ app: app.id });
    const human = await HumanParticipant.join(test.server.services.media.transport, run.app_run.id, 'limited');
    await eventually(() => expect(human.errors.join('\n')).toMatch(/usage limit \(conversational_seconds\) is reached/), 10_000);
    await eventually(() => expect(human.agentLeft).toBe(true), 5000);
    // The run's seconds are recorded as it finishes, after the agent left the room.
    await eventually(async () => expect(await consumed('limited')).toBeGreaterThanOrEqual(2), 5000);
    await expect(client.appRuns.create({ app: app.id })).rejects.toMatchObject({ status: 400, type: 'usage_limit_exceeded' });
    await human.leave();
  });

  it('ends as server_shutdown when the server closes: the human is told, the run recorded as ended', async () => {
    const own = await startTestServer('sqlite');
    await own.server.listen(0, '127.0.0.1');
    const app = await own.client.appTemplates.apply('app_template_echo', { name: 'Echo at shutdown' });
    const run = await own.client.appRuns.create({ app: app.id });
    const human = await HumanParticipant.join(own.server.services.media.transport, run.app_run.id, 'shutdown-human');
    await eventually(() => expect(human.connection.participants().map((participant) => participant.identity)).toContain('agent'), 10_000);
    const { store } = own.server.services;
    let stored: unknown;
    const original = own.server.services.appRuns.close.bind(own.server.services.appRuns);
    own.server.services.appRuns.close = async () => {
      await original();
      const row = await store.db.selectFrom('documents').select('data').where('id', '=', run.app_run.id).executeTakeFirst();
      stored = row && JSON.parse(row.data);
    };
    await own.close();
    expect(human.errors).toContain('The server is shutting down: the run has ended.');
    expect(stored).toMatchObject({ status: 'ended', stop_reason: 'server_shutdown', ended_at: expect.any(String) });
    await human.leave().catch(() => undefined);
  });

  it('a run_id of a live run joins it (the graph is ignored); unknown runs answer 404', async () => {
    const app = await test.client.appTemplates.apply('app_template_echo', { name: 'Shared echo' });
    const first = await test.client.appRuns.create({ app: app.id, run_id: 'run_shared_1' });
    const human = await HumanParticipant.join(test.server.services.media.transport, first.app_run.id, 'first-human');
    const second = await test.client.appRuns.createFromGraph({ graph: { nodes: [], portals: [] }, run_id: 'run_shared_1' });
    expect(second.app_run).toEqual(first.app_run);
    expect(second.connection_details.token).not.toBe(first.connection_details.token);
    await expect(test.client.appRuns.debug({ run_id: 'run_missing' })).rejects.toMatchObject({ status: 404 });
    await expect(test.client.appRuns.pushPadValue('run_missing', { node: 'a', pad: 'b', value: { type: 'string', value: 'x' } })).rejects.toMatchObject({
      status: 404,
    });
    await human.leave();
  });
});
