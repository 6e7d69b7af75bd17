import { DisconnectReason } from '@livekit/protocol';
import { Room, RoomEvent } from '@livekit/rtc-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../../tests/support/test-server.js';

/**
 * Two clients joining at once with one identity (`@livekit/rtc-node`, the real client SDK): as in LiveKit, the newer
 * join replaces the older participant, which gets a DUPLICATE_IDENTITY leave. A client removed while still connecting
 * ignores its leave, waits out its 15 s connection timeout and joins again, replacing the newer one: the endpoint
 * must not let that happen.
 */
describe('embedded media endpoint: two simultaneous joins with one identity', () => {
  let test: TestServer;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  it.each([1, 2])('both settle, each client joined once, the newer join stays and the older is told DUPLICATE_IDENTITY (round %i)', async (round) => {
    const media = test.server.services.media;
    const name = `twins_${round}`;
    const room = media.endpoint!.rooms.ensure({ name });
    // Every join of the identity the endpoint admits, in order (a rejoin would be a third).
    const joins: string[] = [];
    room.onMembership((member, joined) => {
      if (joined && member.state.identity === 'twin') joins.push(member.state.sid);
    });
    const clients = [new Room(), new Room()];
    const disconnects = clients.map(() => [] as number[]);
    clients.forEach((client, index) => client.on(RoomEvent.Disconnected, (reason) => disconnects[index]!.push(reason as number)));
    try {
      const tokens = await Promise.all(clients.map(() => media.createJoinToken({ room: name, identity: 'twin', name: 'twin' })));
      await Promise.all(clients.map((client, index) => client.connect(media.clientUrl(), tokens[index]!, { autoSubscribe: true, dynacast: false })));

      // The older join (the first the endpoint admitted) was replaced by the newer, each client joined once.
      const sids = clients.map((client) => client.localParticipant!.sid);
      expect(joins).toHaveLength(2);
      expect(new Set(joins)).toEqual(new Set(sids));
      const [older, newer] = joins.map((sid) => sids.indexOf(sid)) as [number, number];
      await expect.poll(() => disconnects[older], { timeout: 10_000 }).toEqual([DisconnectReason.DUPLICATE_IDENTITY]);
      expect(room.list().map((member) => member.state.sid)).toEqual([joins[1]]);
      expect(disconnects[newer]).toEqual([]);
      expect(joins).toHaveLength(2);
    } finally {
      await Promise.all(clients.map((client) => client.disconnect().catch(() => undefined)));
    }
  });
});
