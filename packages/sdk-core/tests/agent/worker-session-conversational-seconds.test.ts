import { AvailabilityResponse, JobType, RegisterWorkerRequest, ServerMessage, WorkerMessage } from '@livekit/protocol';
import { Room, RoomEvent } from '@livekit/rtc-node';
import { AccessToken } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ERROR_TOPIC } from '../../src/contract/wire.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const AGENT_NAME = 'metered-worker';
const sessionConfig = { general: { agent: { type: 'livekit_worker', agent_name: AGENT_NAME } } } as const;

/**
 * A minimal LiveKit Agents worker speaking the agent protocol by hand: it takes every job, its agent joins the job's
 * room on a real client (`@livekit/rtc-node`) with the token it was assigned and leaves when the job is terminated.
 */
async function startWorker(test: TestServer, url: string): Promise<{ close(): Promise<void> }> {
  const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  token.addGrant({ agent: true });
  const socket = new WebSocket(`${url}/agent`, { headers: { authorization: `Bearer ${await token.toJwt()}` } });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const send = (message: WorkerMessage['message']) => socket.send(new WorkerMessage({ message }).toBinary());
  const rooms = new Map<string, Room>();
  const registered = new Promise<void>((resolve) =>
    socket.on('message', (data) => {
      const message = ServerMessage.fromBinary(new Uint8Array(data as Buffer)).message;
      if (message.case === 'register') resolve();
      else if (message.case === 'availability') {
        const job = message.value.job!;
        send({ case: 'availability', value: new AvailabilityResponse({ jobId: job.id, available: true, participantIdentity: `agent-${job.id}` }) });
      } else if (message.case === 'assignment') {
        const room = new Room();
        rooms.set(message.value.job!.id, room);
        void room.connect(message.value.url || url, message.value.token, { autoSubscribe: false, dynacast: false });
      } else if (message.case === 'termination') {
        void rooms.get(message.value.jobId)?.disconnect();
        rooms.delete(message.value.jobId);
      }
    }),
  );
  send({ case: 'register', value: new RegisterWorkerRequest({ type: JobType.JT_ROOM, agentName: AGENT_NAME, version: 'test' }) });
  await registered;
  return {
    async close() {
      socket.close();
      await Promise.all([...rooms.values()].map((room) => room.disconnect()));
    },
  };
}

/**
 * A realtime session whose agent is a LiveKit Agents worker's counts its human's `conversational_seconds` as the
 * built-in agent's does (decision 0089): recorded once per session, the human's limit enforced while they are in the
 * room (the platform's hidden observer tells them and ends the session), a human at the limit refused a new one.
 */
describe.each(await storeKinds())('worker-run realtime sessions record and limit conversational_seconds (%s)', (kind) => {
  let test: TestServer;
  let worker: { close(): Promise<void> };

  beforeAll(async () => {
    test = await startTestServer(kind);
    const url = (await test.server.listen(0, '127.0.0.1')).replace(/^http/, 'ws');
    worker = await startWorker(test, url);
  });

  afterAll(async () => {
    await worker?.close();
    await test?.close();
  });

  /** The human in the session's room (with the worker's agent there), and what arrives on the `error` topic. */
  async function humanIn(details: { url: string; token: string }): Promise<{ room: Room; errors: string[] }> {
    const room = new Room();
    const errors: string[] = [];
    room.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      if (topic === ERROR_TOPIC) errors.push((JSON.parse(new TextDecoder().decode(payload)) as { message: string }).message);
    });
    await room.connect(details.url, details.token, { autoSubscribe: false, dynacast: false });
    await expect.poll(() => [...room.remoteParticipants.keys()].some((identity) => identity.startsWith('agent-')), { timeout: 15_000 }).toBe(true);
    return { room, errors };
  }

  async function recordsOf(human: string) {
    const rows = await test.server.services.store.db
      .selectFrom('usage_records')
      .select(['value', 'metadata'])
      .where('human', '=', human)
      .where('type', '=', 'conversational_seconds')
      .execute();
    return rows.map((row) => ({ value: Number(row.value), metadata: JSON.parse(row.metadata) as Record<string, unknown> }));
  }

  it('records the seconds the human was in the session (two stays), once, for that human', async () => {
    const { token } = await test.client.usage.createToken({ human: 'worker-talker' });
    const client = test.clientWith({ usageToken: token });
    const { session, connection_details } = await client.realtime.start({ config: sessionConfig });
    const joiningFrom = Date.now();
    const first = await humanIn(connection_details);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await first.room.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Nothing is recorded while the session runs.
    expect(await recordsOf('worker-talker')).toEqual([]);
    const second = await humanIn(connection_details);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await client.realtime.end(session.id);
      await client.realtime.end(session.id);
      // The seconds are recorded before the end completes; a second end records nothing more.
      const endedBy = Date.now();
      expect(await recordsOf('worker-talker')).toHaveLength(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const records = await recordsOf('worker-talker');
      expect(records).toEqual([{ value: expect.any(Number), metadata: { realtime_session: session.id, stop_reason: 'ended' } }]);
      expect(records[0]!.value).toBeGreaterThan(0);
      expect(records[0]!.value).toBeLessThanOrEqual((endedBy - joiningFrom) / 1000);
      const { used } = await test.server.services.usage.consumption(
        test.server.services.store.db,
        test.server.project,
        'worker-talker',
        'conversational_seconds',
      );
      expect(used).toBeCloseTo(records[0]!.value, 3);
    } finally {
      await second.room.disconnect();
    }
  });

  it("ends the session when the human's conversational_seconds run out, and refuses a new one", async () => {
    const { token } = await test.client.usage.createToken({
      human: 'limited-worker-talker',
      limits: [{ type: 'conversational_seconds', value: 2 }],
    });
    const client = test.clientWith({ usageToken: token });
    const { session, connection_details } = await client.realtime.start({ config: sessionConfig });
    const human = await humanIn(connection_details);
    try {
      await expect.poll(() => human.errors, { timeout: 15_000 }).toContain('The usage limit (conversational_seconds) is reached: the session ends.');
      await expect.poll(async () => (await client.realtime.retrieve(session.id)).state, { timeout: 15_000 }).toBe('ended');
      expect((await client.realtime.retrieve(session.id))._extra).toMatchObject({ stop_reason: 'usage_limit_exceeded' });
      // The worker's agent is taken out of the room.
      await expect.poll(() => [...human.room.remoteParticipants.keys()].some((identity) => identity.startsWith('agent-')), { timeout: 10_000 }).toBe(false);
      const records = await recordsOf('limited-worker-talker');
      expect(records).toEqual([{ value: expect.any(Number), metadata: { realtime_session: session.id, stop_reason: 'usage_limit_exceeded' } }]);
      expect(records[0]!.value).toBeGreaterThanOrEqual(2);
      await expect(client.realtime.start({ config: sessionConfig })).rejects.toMatchObject({ status: 400, type: 'usage_limit_exceeded' });
    } finally {
      await human.room.disconnect();
    }
  });
});
