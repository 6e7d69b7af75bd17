import { Room, RoomEvent } from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDENTITY, ERROR_TOPIC } from '../../src/contract/wire.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const sessionConfig = { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } };

/**
 * A realtime session's `conversational_seconds`: the seconds its human spent in the room, recorded once per session,
 * and the human's limit enforced while they talk (as app runs do). The human is on a real client (`@livekit/rtc-node`).
 */
describe.each(await storeKinds())('realtime sessions record and limit conversational_seconds (%s)', (kind) => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer(kind);
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  /** The human in the session's room, with what arrives on the `error` topic and the agent's metadata. */
  async function humanIn(details: { url: string; token: string }): Promise<{ room: Room; errors: string[]; agentStates: string[] }> {
    const room = new Room();
    const errors: string[] = [];
    const agentStates: string[] = [];
    room.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      if (topic === ERROR_TOPIC) errors.push((JSON.parse(new TextDecoder().decode(payload)) as { message: string }).message);
    });
    room.on(RoomEvent.ParticipantMetadataChanged, (_previous, participant) => {
      if (participant.identity === AGENT_IDENTITY && participant.metadata)
        agentStates.push((JSON.parse(participant.metadata) as { agent_state: string }).agent_state);
    });
    await room.connect(details.url, details.token, { autoSubscribe: true, dynacast: false });
    await expect.poll(() => [...room.remoteParticipants.keys()], { timeout: 15_000 }).toContain(AGENT_IDENTITY);
    return { room, errors, agentStates };
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

  it('records the seconds the human was in the session, once, for that human', async () => {
    const { token } = await test.client.usage.createToken({ human: 'talker' });
    const client = test.clientWith({ usageToken: token });
    const { session, connection_details } = await client.realtime.start({ config: sessionConfig });
    const joiningFrom = Date.now();
    const human = await humanIn(connection_details);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await client.realtime.end(session.id);
      await client.realtime.end(session.id);
      // The seconds are recorded as the agent stops: wait for the record, then for any second one.
      await expect.poll(() => recordsOf('talker'), { timeout: 10_000 }).toHaveLength(1);
      const endedBy = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const records = await recordsOf('talker');
      expect(records).toEqual([{ value: expect.any(Number), metadata: { realtime_session: session.id, stop_reason: 'ended' } }]);
      // Between 0 and the time from before the human joined to after the session ended.
      expect(records[0]!.value).toBeGreaterThan(0);
      expect(records[0]!.value).toBeLessThanOrEqual((endedBy - joiningFrom) / 1000);
      const { used } = await test.server.services.usage.consumption(test.server.services.store.db, test.server.project, 'talker', 'conversational_seconds');
      expect(used).toBeCloseTo(records[0]!.value, 3);
    } finally {
      await human.room.disconnect();
    }
  });

  it("ends the session when the human's conversational_seconds run out, and refuses a new one", async () => {
    const { token } = await test.client.usage.createToken({ human: 'limited-talker', limits: [{ type: 'conversational_seconds', value: 2 }] });
    const client = test.clientWith({ usageToken: token });
    const { session, connection_details } = await client.realtime.start({ config: sessionConfig });
    const human = await humanIn(connection_details);
    try {
      await expect.poll(() => human.errors, { timeout: 15_000 }).toContain('The usage limit (conversational_seconds) is reached: the session ends.');
      await expect.poll(() => human.agentStates, { timeout: 5000 }).toContain('usage_limit_exceeded');
      await expect.poll(async () => (await client.realtime.retrieve(session.id)).state, { timeout: 10_000 }).toBe('ended');
      expect((await client.realtime.retrieve(session.id))._extra).toMatchObject({ stop_reason: 'usage_limit_exceeded' });
      await expect.poll(async () => (await recordsOf('limited-talker')).map((record) => record.value), { timeout: 10_000 }).toEqual([expect.any(Number)]);
      expect((await recordsOf('limited-talker'))[0]!.value).toBeGreaterThanOrEqual(2);
      await expect(client.realtime.start({ config: sessionConfig })).rejects.toMatchObject({ status: 400, type: 'usage_limit_exceeded' });
    } finally {
      await human.room.disconnect();
    }
  });
});
