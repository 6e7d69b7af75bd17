import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeSession } from '../../src/contract/realtime.js';
import { requireComponent } from '../support/components.js';
import { dropSchema, postgresReachable, postgresUrl, uniqueSchema } from '../support/databases.js';
import { redisUrl, withRedis } from '../support/redis.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { WebhookReceiver } from '../webhooks/webhook-receiver.js';
import { HumanParticipant } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer } from '../support/test-server.js';

/**
 * A session of a lost host ends once its lease is past: with the default lease (15 s, renewed and reaped every 5 s)
 * 15-20 s after the host died. The tests wait for that this long at most; they do not time it.
 */
const HOST_LOSS_WAIT_MS = 60_000;

const sessionConfig = { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } };

async function call<T>(server: ServerProcess, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'x-api-key': server.apiKey, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Starts a session with a real voice agent (it waits in the room for its human). */
async function startSession(server: ServerProcess): Promise<RealtimeSession> {
  const started = await call<{ session: RealtimeSession }>(server, 'POST', '/v1/realtime/start', { config: sessionConfig });
  expect(started.status).toBe(200);
  expect(started.body.session.state).toBe('in_progress');
  return started.body.session;
}

/** Polls the session until it ended, for at most `timeoutMs`. */
async function waitUntilEnded(server: ServerProcess, id: string, timeoutMs: number): Promise<RealtimeSession> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    const { body } = await call<RealtimeSession>(server, 'GET', `/v1/realtime/${id}`);
    if (body.state === 'ended') return body;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`session ${id} did not end within ${timeoutMs} ms`);
}

function endedEventsOf(receiver: WebhookReceiver, id: string): RealtimeSession[] {
  return receiver.requests
    .map((request) => JSON.parse(request.body) as { type: string; payload: { current_realtime_session?: RealtimeSession } })
    .filter((event) => event.type === 'realtime_session.state_changed' && event.payload.current_realtime_session?.id === id)
    .map((event) => event.payload.current_realtime_session!)
    .filter((session) => session.state === 'ended');
}

describe('sessions whose host is lost (SQLite: the instance is killed and restarted)', () => {
  let receiver: WebhookReceiver;
  let folder: string;
  beforeAll(async () => {
    receiver = new WebhookReceiver();
    await receiver.start();
    folder = mkdtempSync(join(tmpdir(), 'palaver-leases-'));
  });
  afterAll(async () => {
    await receiver.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('the restarted instance ends the lost session (host_lost, ended_at, state_changed), and end answers without waiting for the dead host', async () => {
    const config = { database: join(folder, 'palaver.db'), webhook: { url: receiver.url, secret: 'whsec_bGVhc2UtdGVzdC1zZWNyZXQ=' } };
    const first = await startServerProcess(config);
    const lost = await startSession(first);
    const endedByCaller = await startSession(first);
    await first.kill('SIGKILL');

    const restarted = await startServerProcess(config);
    try {
      // Nobody hosts the session any more: ending it does not wait for an answer (it took 10 s; that a command nobody
      // can receive fails at once is hosted-control.test.ts's, on a fake clock).
      const ended = await call<RealtimeSession>(restarted, 'POST', `/v1/realtime/${endedByCaller.id}/end`);
      expect(ended.status).toBe(200);
      expect(ended.body).toMatchObject({ state: 'ended', ended_at: expect.any(String), _extra: { stop_reason: 'ended' } });

      const session = await waitUntilEnded(restarted, lost.id, HOST_LOSS_WAIT_MS);
      expect(session).toMatchObject({ state: 'ended', ended_at: expect.any(String), _extra: { stop_reason: 'host_lost' } });
      await expect
        .poll(() => endedEventsOf(receiver, lost.id), { timeout: 10_000 })
        .toEqual([expect.objectContaining({ _extra: { stop_reason: 'host_lost' } })]);
    } finally {
      await restarted.kill('SIGKILL');
    }
  }, 120_000);
});

const withPostgres = requireComponent('PostgreSQL', await postgresReachable(), `cannot connect to ${postgresUrl}`);

describe.runIf(withPostgres && (await withRedis()))('sessions whose host is lost (PostgreSQL + Redis: one of two instances is killed)', () => {
  it('the surviving instance ends the lost session, and end called there answers without waiting for the dead host', async () => {
    const schema = uniqueSchema();
    const receiver = new WebhookReceiver();
    await receiver.start();
    const config = {
      databaseUrl: postgresUrl,
      redisUrl,
      apiKey: 'pk_shared_lease_key_0123456789abcd',
      webhook: { url: receiver.url, secret: 'whsec_bGVhc2UtdGVzdC1zZWNyZXQ=' },
    };
    const [doomed, survivor] = await Promise.all([
      startServerProcess(config, { databaseSchema: schema }),
      startServerProcess(config, { databaseSchema: schema }),
    ]);
    try {
      const lost = await startSession(doomed);
      const endedByCaller = await startSession(doomed);
      // While its host lives, the session is ended through it, from the other instance.
      const alive = await startSession(doomed);
      const endedAlive = await call<RealtimeSession>(survivor, 'POST', `/v1/realtime/${alive.id}/end`);
      expect(endedAlive.body).toMatchObject({ state: 'ended', _extra: { stop_reason: 'ended' } });

      await doomed.kill('SIGKILL');
      const ended = await call<RealtimeSession>(survivor, 'POST', `/v1/realtime/${endedByCaller.id}/end`);
      expect(ended.body).toMatchObject({ state: 'ended', _extra: { stop_reason: 'ended' } });

      const session = await waitUntilEnded(survivor, lost.id, HOST_LOSS_WAIT_MS);
      expect(session).toMatchObject({ state: 'ended', ended_at: expect.any(String), _extra: { stop_reason: 'host_lost' } });
      await expect
        .poll(() => endedEventsOf(receiver, lost.id), { timeout: 10_000 })
        .toEqual([expect.objectContaining({ _extra: { stop_reason: 'host_lost' } })]);
    } finally {
      await Promise.all([doomed.kill('SIGKILL'), survivor.kill('SIGKILL')]);
      await receiver.close();
      await dropSchema(schema);
    }
  }, 120_000);
});

describe('a host that stalled past its lease (the room still exists)', () => {
  it('the session ends as host_lost, the human in the room is told, and the agent leaves', async () => {
    const test = await startTestServer('sqlite');
    try {
      await test.server.listen(0, '127.0.0.1');
      const asHana = test.clientWith({ apiKey: test.server.apiKey, humanId: 'hana' });
      const { session } = await asHana.realtime.start({ config: sessionConfig });
      const human = await HumanParticipant.join(test.server.services.media.transport, session.id, 'hana');
      await human.waitForState('listening');
      // The host stops renewing (an event loop stalled longer than the lease): its lease is past.
      await test.server.services.store.db
        .updateTable('session_leases')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .where('session_id', '=', session.id)
        .execute();
      expect(await test.server.services.realtime.reapLostSessions()).toBe(1);
      expect(await asHana.realtime.retrieve(session.id)).toMatchObject({ state: 'ended', _extra: { stop_reason: 'host_lost' } });
      await eventually(() => expect(human.errors).toEqual(['This session has ended: the server running its agent stopped responding.']));
      await eventually(() => expect(human.agentLeft).toBe(true));
      // Claimed once: nothing is left to reap.
      expect(await test.server.services.realtime.reapLostSessions()).toBe(0);
      await human.leave().catch(() => undefined);
    } finally {
      await test.close();
    }
  }, 60_000);
});
