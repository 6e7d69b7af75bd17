import { randomBytes, randomUUID } from 'node:crypto';
import {
  AddTrackRequest,
  DisconnectReason,
  LeaveRequest_Action,
  Ping,
  SessionDescription,
  SignalRequest,
  SignalResponse,
  TrackType,
  TrickleRequest,
  UpdateSubscription,
} from '@livekit/protocol';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../../../../../tests/support/test-server.js';
import { DEVELOPMENT_API_SECRET, type MediaService } from '../media-service.js';
import { eventually } from '../../../../testing/media-test-support.js';

type Request = SignalRequest['message'];

/** A raw signalling client: what a misbehaving or minimal client can do with the protocol. */
class RawSignalClient {
  readonly messages: SignalResponse[] = [];
  closed: { code: number; reason: string } | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => this.messages.push(SignalResponse.fromBinary(data)));
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<RawSignalClient | { status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new RawSignalClient(socket)));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      socket.once('error', (error) => reject(error));
    });
  }

  send(message: Request): void {
    this.socket.send(new SignalRequest({ message }).toBinary());
  }

  async next(kind: NonNullable<SignalResponse['message']['case']>, timeoutMs = 5000): Promise<SignalResponse['message']> {
    return eventually(() => {
      const found = this.messages.find((message) => message.message.case === kind);
      if (!found) throw new Error(`no ${kind} message`);
      return found.message;
    }, timeoutMs);
  }

  async waitClosed(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    return eventually(() => {
      if (!this.closed) throw new Error('still open');
      return this.closed;
    }, timeoutMs);
  }

  close(): void {
    this.socket.close();
  }
}

describe('embedded media endpoint: signalling, auth and misbehaving clients', () => {
  let test: TestServer;
  let media: MediaService;
  let base: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    base = await test.server.listen(0, '127.0.0.1');
    media = test.server.services.media;
  });

  afterAll(async () => {
    await test?.close();
  });

  async function newRoom(): Promise<string> {
    const room = `room_${randomUUID().slice(0, 8)}`;
    await media.transport.ensureRoom({ room });
    return room;
  }

  const v0Url = (token: string, extra = '') => `${media.clientUrl()}/rtc?access_token=${token}&protocol=16&auto_subscribe=1${extra}`;

  async function joined(room: string, identity: string): Promise<RawSignalClient> {
    const client = await RawSignalClient.open(v0Url(await media.createJoinToken({ room, identity })));
    if (!(client instanceof RawSignalClient)) throw new Error(`refused: ${client.status}`);
    await client.next('join');
    return client;
  }

  it('serves the validate routes like LiveKit: 200 (an unknown room is created on join), 401 for bad/expired tokens', async () => {
    const room = await newRoom();
    const good = await media.createJoinToken({ room, identity: 'validator' });
    const validate = (path: string, token?: string) => fetch(`${base}${path}${token ? `?access_token=${token}` : ''}`);
    let response = await validate('/rtc/validate', good);
    expect([response.status, await response.text()]).toEqual([200, 'success']);

    response = await validate('/rtc/validate');
    expect(response.status).toBe(401);
    const wrongSecret = new AccessToken('devkey', 'another-secret-that-is-long-enough-000', { identity: 'x' });
    wrongSecret.addGrant({ roomJoin: true, room });
    response = await validate('/rtc/validate', await wrongSecret.toJwt());
    expect(response.status).toBe(401);
    expect(await response.text()).toMatch(/invalid token/);
    const expired = await media.createJoinToken({ room, identity: 'late', ttlSeconds: -60 });
    response = await validate('/rtc/validate', expired);
    expect(response.status).toBe(401);
    const noJoin = new AccessToken('devkey', DEVELOPMENT_API_SECRET, { identity: 'x' });
    noJoin.addGrant({ roomList: true });
    response = await validate('/rtc/validate', await noJoin.toJwt());
    expect(response.status).toBe(401);

    response = await validate('/rtc/validate', await media.createJoinToken({ room: `new_room_${randomUUID().slice(0, 8)}`, identity: 'x' }));
    expect([response.status, await response.text()]).toEqual([200, 'success']);
    response = await validate('/rtc/v1/validate', good);
    expect(response.status).toBe(400);
  });

  it('refuses upgrades with bad or expired tokens and accepts a Bearer header', async () => {
    const room = await newRoom();
    const refused = await RawSignalClient.open(v0Url('not-a-jwt'));
    expect(refused).toMatchObject({ status: 401 });
    const expired = await RawSignalClient.open(v0Url(await media.createJoinToken({ room, identity: 'late', ttlSeconds: -60 })));
    expect(expired).toMatchObject({ status: 401 });

    const bearer = await RawSignalClient.open(`${media.clientUrl()}/rtc?protocol=16`, {
      Authorization: `Bearer ${await media.createJoinToken({ room, identity: 'bearer', metadata: 'm' })}`,
    });
    if (!(bearer instanceof RawSignalClient)) throw new Error('refused');
    const join = await bearer.next('join');
    expect(join.case === 'join' && join.value.participant?.identity).toBe('bearer');
    expect(join.case === 'join' && join.value.participant?.metadata).toBe('m');
    expect(join.case === 'join' && join.value.serverInfo?.version).not.toBe('');
    expect(join.case === 'join' && join.value.subscriberPrimary).toBe(true);
    bearer.close();
  });

  it('answers pings, survives out-of-order and nonsensical requests', async () => {
    const room = await newRoom();
    const client = await joined(room, 'odd');
    client.send({ case: 'answer', value: new SessionDescription({ type: 'answer', sdp: 'v=0 garbage' }) });
    client.send({ case: 'offer', value: new SessionDescription({ type: 'offer', sdp: 'not an sdp at all' }) });
    client.send({ case: 'trickle', value: new TrickleRequest({ candidateInit: '{not json' }) });
    client.send({ case: 'trickle', value: new TrickleRequest({ candidateInit: JSON.stringify({ candidate: 'candidate:bogus' }) }) });
    client.send({ case: 'addTrack', value: new AddTrackRequest({ cid: 'video', type: TrackType.VIDEO }) });
    client.send({ case: 'subscription', value: new UpdateSubscription({ trackSids: ['TR_unknown'], subscribe: true }) });
    client.send({ case: 'mute', value: { sid: 'TR_unknown', muted: true } as never });
    client.send({ case: 'pingReq', value: new Ping({ timestamp: 42n }) });
    const pong = await client.next('pongResp');
    expect(pong.case === 'pongResp' && pong.value.lastPingTimestamp).toBe(42n);
    expect(client.closed).toBeUndefined();
    client.close();
  });

  it('closes the socket on repeated garbage protobuf, and keeps serving others', async () => {
    const room = await newRoom();
    const client = await joined(room, 'garbage');
    for (let index = 0; index < 3; index += 1) client.socket.send(Buffer.concat([Buffer.from([0xff, 0xff, 0xff]), randomBytes(64)]));
    expect((await client.waitClosed()).code).toBe(1007);
    const other = await joined(room, 'after_garbage');
    expect(other.closed).toBeUndefined();
    other.close();
  });

  it('closes a flooding client and an oversized message', async () => {
    const room = await newRoom();
    const flooder = await joined(room, 'flooder');
    for (let index = 0; index < 2000; index += 1) flooder.send({ case: 'pingReq', value: new Ping({ timestamp: BigInt(index) }) });
    expect((await flooder.waitClosed()).code).toBe(1008);
    const big = await joined(room, 'big');
    big.socket.send(Buffer.alloc(600 * 1024));
    expect((await big.waitClosed()).code).toBe(1009);
  });

  it('removes a participant that stops pinging, and a duplicate identity replaces the first session', async () => {
    const room = await newRoom();
    const agent = await media.transport.join({ room });
    const left: string[] = [];
    agent.on('participantLeft', (participant) => left.push(participant.identity));
    const endpoint = media.endpoint!;
    const previous = endpoint.settings.pingTimeoutSeconds;
    endpoint.settings.pingTimeoutSeconds = 1;
    try {
      const silent = await joined(room, 'silent');
      await eventually(() => expect(agent.participants().map((participant) => participant.identity)).toContain('silent'));
      await eventually(() => expect(left).toContain('silent'), 5000);
      await silent.waitClosed();
    } finally {
      endpoint.settings.pingTimeoutSeconds = previous;
    }

    const first = await joined(room, 'twin');
    const second = await joined(room, 'twin');
    const leave = await first.next('leave');
    expect(leave.case === 'leave' && leave.value.reason).toBe(DisconnectReason.DUPLICATE_IDENTITY);
    expect(second.closed).toBeUndefined();
    second.close();
    await agent.leave();
  });

  it('answers a resume of an unknown session with a full-reconnect leave', async () => {
    const room = await newRoom();
    const client = await RawSignalClient.open(v0Url(await media.createJoinToken({ room, identity: 'ghost' }), '&reconnect=1&sid=PA_doesnotexist'));
    if (!(client instanceof RawSignalClient)) throw new Error('refused');
    const leave = await client.next('leave');
    expect(leave.case === 'leave' && leave.value.action).toBe(LeaveRequest_Action.RECONNECT);
    expect(client.messages[0]?.message.case).toBe('leave');
  });

  it('serves the RoomService subset to livekit-server-sdk with admin tokens only', async () => {
    const rooms = new RoomServiceClient(media.clientUrl(), media.apiKey, DEVELOPMENT_API_SECRET);
    const name = `room_${randomUUID().slice(0, 8)}`;
    const created = await rooms.createRoom({ name, metadata: 'first' });
    expect(created.name).toBe(name);
    await rooms.updateRoomMetadata(name, 'second');
    expect((await rooms.listRooms([name])).map((room) => room.metadata)).toEqual(['second']);
    expect(await rooms.listParticipants(name)).toEqual([]);
    await rooms.deleteRoom(name);
    expect(await rooms.listRooms([name])).toEqual([]);
    const response = await fetch(`${base}/twirp/livekit.RoomService/CreateRoom`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await media.createJoinToken({ room: name, identity: 'x' })}` },
      body: JSON.stringify({ name }),
    });
    expect(response.status).toBe(403);
    const unauthenticated = await fetch(`${base}/twirp/livekit.RoomService/ListRooms`, { method: 'POST', body: '{}' });
    expect(unauthenticated.status).toBe(401);
  });
});
