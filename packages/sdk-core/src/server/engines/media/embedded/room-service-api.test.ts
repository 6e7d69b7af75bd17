import { randomUUID } from 'node:crypto';
import { AudioSource, LocalAudioTrack, Room, RoomEvent, TrackPublishOptions, TrackSource, type RemoteTrack } from '@livekit/rtc-node';
import { DataPacket_Kind } from '@livekit/protocol';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../../../tests/support/test-server.js';
import { eventually } from '../../../../testing/media-test-support.js';
import { DEVELOPMENT_API_SECRET } from '../media-service.js';

/**
 * LiveKit's RoomService as `livekit-server-sdk` calls it, against rooms with `@livekit/rtc-node` clients in them:
 * what a LiveKit user's backend does to a room, unmodified.
 */
describe('embedded endpoint: RoomService with livekit-server-sdk, clients on @livekit/rtc-node', () => {
  let test: TestServer;
  let rooms: RoomServiceClient;
  const clients: Room[] = [];

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    rooms = new RoomServiceClient(test.server.services.media.clientUrl(), test.server.services.media.apiKey, DEVELOPMENT_API_SECRET);
  });
  afterAll(async () => {
    for (const client of clients) await client.disconnect().catch(() => undefined);
    await test?.close();
  });

  /** Joins `room` (which need not exist: rooms are created on join) as `identity`. */
  async function join(room: string, identity: string, options: { autoSubscribe?: boolean } = {}): Promise<Room> {
    const token = new AccessToken(test.server.services.media.apiKey, DEVELOPMENT_API_SECRET, { identity });
    token.addGrant({ roomJoin: true, room, canPublish: true, canSubscribe: true, canPublishData: true });
    const client = new Room();
    clients.push(client);
    await client.connect(test.server.services.media.clientUrl(), await token.toJwt(), { autoSubscribe: options.autoSubscribe ?? true, dynacast: false });
    return client;
  }

  it('creates a room on join, like LiveKit, and answers HEAD / (what livekit-client sends before connecting)', async () => {
    const name = `room_${randomUUID().slice(0, 8)}`;
    expect(await rooms.listRooms([name])).toEqual([]);
    const client = await join(name, 'early-bird');
    expect(client.isConnected).toBe(true);
    expect((await rooms.listRooms([name])).map((room) => room.numParticipants)).toEqual([1]);
    const head = await fetch(test.server.services.media.clientUrl().replace(/^ws/, 'http'), { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('GetParticipant and UpdateParticipant: metadata, attributes and name reach the participant and the others', async () => {
    const name = `room_${randomUUID().slice(0, 8)}`;
    const alice = await join(name, 'alice');
    const bob = await join(name, 'bob');
    const found = await rooms.getParticipant(name, 'alice');
    expect(found.identity).toBe('alice');
    const updated = await rooms.updateParticipant(name, 'alice', { metadata: '{"tier":"gold"}', attributes: { mood: 'happy' }, name: 'Alice A.' });
    expect(updated).toMatchObject({ identity: 'alice', metadata: '{"tier":"gold"}', name: 'Alice A.', attributes: { mood: 'happy' } });
    await eventually(() => expect(alice.localParticipant!.metadata).toBe('{"tier":"gold"}'));
    await eventually(() => expect(alice.localParticipant!.attributes).toEqual({ mood: 'happy' }));
    await eventually(() => expect(bob.remoteParticipants.get('alice')?.metadata).toBe('{"tier":"gold"}'));
    await eventually(() => expect(bob.remoteParticipants.get('alice')?.name).toBe('Alice A.'));
    await expect(rooms.getParticipant(name, 'nobody')).rejects.toThrow(/not found/);
  });

  it('UpdateParticipant permissions: revoking data publishing stops its packets reaching others', async () => {
    const name = `room_${randomUUID().slice(0, 8)}`;
    const talker = await join(name, 'talker');
    const listener = await join(name, 'listener');
    const received: string[] = [];
    listener.on(RoomEvent.DataReceived, (payload) => received.push(new TextDecoder().decode(payload)));
    await talker.localParticipant!.publishData(new TextEncoder().encode('before'), { reliable: true });
    await eventually(() => expect(received).toEqual(['before']));
    const updated = await rooms.updateParticipant(name, 'talker', { permission: { canPublish: true, canSubscribe: true, canPublishData: false } });
    expect(updated.permission?.canPublishData).toBe(false);
    await talker.localParticipant!.publishData(new TextEncoder().encode('after'), { reliable: true }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received).toEqual(['before']);
  });

  it('SendData: a server message with a topic, to everyone or to named identities', async () => {
    const name = `room_${randomUUID().slice(0, 8)}`;
    const first = await join(name, 'first');
    const second = await join(name, 'second');
    const heard = (client: Room) => {
      const packets: Array<{ text: string; topic: string | undefined; from: string | undefined }> = [];
      client.on(RoomEvent.DataReceived, (payload, participant, _kind, topic) =>
        packets.push({ text: new TextDecoder().decode(payload), topic, from: participant?.identity }),
      );
      return packets;
    };
    const toFirst = heard(first);
    const toSecond = heard(second);
    await rooms.sendData(name, new TextEncoder().encode('hello all'), DataPacket_Kind.RELIABLE, { topic: 'announcements' });
    await rooms.sendData(name, new TextEncoder().encode('just you'), DataPacket_Kind.RELIABLE, { topic: 'private', destinationIdentities: ['second'] });
    await eventually(() => expect(toSecond.map((packet) => packet.text)).toEqual(['hello all', 'just you']));
    await eventually(() => expect(toFirst).toEqual([{ text: 'hello all', topic: 'announcements', from: undefined }]));
    expect(toSecond[1]).toMatchObject({ topic: 'private' });
    await expect(rooms.sendData(`missing_${name}`, new TextEncoder().encode('x'), DataPacket_Kind.RELIABLE)).rejects.toThrow(/does not exist/);
  });

  it('MutePublishedTrack mutes a track for its publisher and everyone; UpdateSubscriptions subscribes a participant', async () => {
    const name = `room_${randomUUID().slice(0, 8)}`;
    const speaker = await join(name, 'speaker');
    const watcher = await join(name, 'watcher', { autoSubscribe: false });
    const source = new AudioSource(48_000, 1);
    const track = LocalAudioTrack.createAudioTrack('microphone', source);
    const publication = await speaker.localParticipant!.publishTrack(track, new TrackPublishOptions({ source: TrackSource.SOURCE_MICROPHONE }));
    const trackSid = publication.sid!;
    await eventually(() => expect(watcher.remoteParticipants.get('speaker')?.trackPublications.size).toBe(1));

    const subscribed: RemoteTrack[] = [];
    watcher.on(RoomEvent.TrackSubscribed, (remote) => subscribed.push(remote));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(subscribed).toEqual([]);
    await rooms.updateSubscriptions(name, 'watcher', [trackSid], true);
    await eventually(() => expect(subscribed.map((remote) => remote.sid)).toEqual([trackSid]));

    const muted = await rooms.mutePublishedTrack(name, 'speaker', trackSid, true);
    expect(muted.sid).toBe(trackSid);
    expect(muted.muted).toBe(true);
    await eventually(() => expect(watcher.remoteParticipants.get('speaker')?.trackPublications.get(trackSid)?.muted).toBe(true));
    await eventually(async () => expect((await rooms.getParticipant(name, 'speaker')).tracks[0]?.muted).toBe(true));
    // Only the publisher unmutes (LiveKit without remote unmute).
    await expect(rooms.mutePublishedTrack(name, 'speaker', trackSid, false)).rejects.toThrow(/remote unmute/);
    await expect(rooms.mutePublishedTrack(name, 'speaker', 'TR_missing', true)).rejects.toThrow(/not found/);
    await source.close();
  });
});

describe('embedded endpoint with room creation on join turned off', () => {
  it('refuses to join a room nobody created (404 requested room does not exist)', async () => {
    const test = await startTestServer('sqlite', { config: { livekit: { autoCreateRooms: false } } });
    try {
      await test.server.listen(0, '127.0.0.1');
      const token = await test.server.services.media.createJoinToken({ room: 'never_created', identity: 'x' });
      const response = await fetch(`${test.server.services.media.clientUrl().replace(/^ws/, 'http')}/rtc/validate?access_token=${token}`);
      expect([response.status, await response.text()]).toEqual([404, 'requested room does not exist']);
    } finally {
      await test.close();
    }
  });
});
