import { DataPacket_Kind } from '@livekit/protocol';
import { Room, RoomEvent } from '@livekit/rtc-node';
import { RoomServiceClient } from 'livekit-server-sdk';
import { describe, expect, it } from 'vitest';
import { AGENT_IDENTITY, ERROR_TOPIC } from '../../src/contract/wire.js';
import { DEVELOPMENT_API_SECRET } from '../../src/server/engines/media/media-service.js';
import { sendRoomData } from '../../src/server/domain/realtime/room-data.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startTestServer } from '../support/test-server.js';

/** The embedded endpoint's development key pair (the server child configures no other). */
const MEDIA_API_KEY = 'devkey';
const BACKLOG_PACKETS = 40;
const BACKLOG_PACKET_BYTES = 50_000;
/** Packets queued just before the notice in process: ~300 kB, a few hundred ms on loopback, well within the 1 s bound. */
const QUEUED_PACKETS = 6;

/**
 * SIGTERM with a human in the room on a real client (`@livekit/rtc-node` on the embedded endpoint of the server in a
 * child process): the "server is shutting down" notice on the `error` topic reaches them before their room closes and
 * the process exits.
 */
describe('the shutdown notice reaches the human in the room (SIGTERM)', () => {
  async function post<T>(server: ServerProcess, path: string, body: unknown): Promise<T> {
    const response = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': server.apiKey, 'x-human-id': 'listener', 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  }

  /** A human on the real client SDK, recording what arrives on the `error` topic. */
  async function humanIn(details: { url: string; token: string }): Promise<{ room: Room; errors: string[] }> {
    const room = new Room();
    const errors: string[] = [];
    room.on(RoomEvent.DataReceived, (payload, _participant, _kind, topic) => {
      if (topic === ERROR_TOPIC) errors.push((JSON.parse(new TextDecoder().decode(payload)) as { message: string }).message);
    });
    await room.connect(details.url, details.token, { autoSubscribe: true, dynacast: false });
    await expect.poll(() => [...room.remoteParticipants.keys()], { timeout: 15_000 }).toContain(AGENT_IDENTITY);
    return { room, errors };
  }

  /**
   * Data the server is still sending to the human when the signal comes (a packet backlog on their reliable channel,
   * as a chatty agent leaves it): the notice is queued behind it, and the room must not close before it went out.
   */
  async function backlog(server: ServerProcess, details: { url: string }, room: string): Promise<void> {
    const rooms = new RoomServiceClient(details.url, MEDIA_API_KEY, DEVELOPMENT_API_SECRET);
    const chunk = new Uint8Array(BACKLOG_PACKET_BYTES).fill(120);
    await Promise.all(
      Array.from({ length: BACKLOG_PACKETS }, () =>
        rooms.sendData(room, chunk, DataPacket_Kind.RELIABLE, { topic: 'backlog', destinationIdentities: ['listener'] }),
      ),
    );
    expect(server.alive()).toBe(true);
  }

  it.each(['session', 'run'] as const)(
    'a %s whose human still has data coming',
    async (kind) => {
      const server = await startServerProcess();
      let human: { room: Room; errors: string[] } | undefined;
      try {
        const answer =
          kind === 'session'
            ? await post<{ session: { id: string }; connection_details: { url: string; token: string } }>(server, '/v1/realtime/start', {
                config: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } },
              })
            : await post<{ app_run: { id: string }; connection_details: { url: string; token: string } }>(server, '/v1/app/run', {
                app: 'app_example_typed_chat',
              });
        const room = 'session' in answer ? answer.session.id : answer.app_run.id;
        human = await humanIn(answer.connection_details);
        await backlog(server, answer.connection_details, room);
        expect(await server.kill('SIGTERM')).toBe(0);
        await expect
          .poll(() => human!.errors, { timeout: 2000 })
          .toContain(kind === 'session' ? 'The server is shutting down; this session has ended.' : 'The server is shutting down: the run has ended.');
      } finally {
        await human?.room.disconnect().catch(() => undefined);
        await server.kill('SIGKILL');
      }
    },
    60_000,
  );

  it.each(['session', 'run'] as const)('in process: a %s whose human has data queued just before the notice', async (kind) => {
    const test = await startTestServer('sqlite');
    await test.server.listen(0, '127.0.0.1');
    const { services } = test.server;
    let human: { room: Room; errors: string[] } | undefined;
    try {
      const { token } = await test.client.usage.createToken({ human: 'listener' });
      const client = test.clientWith({ usageToken: token });
      const answer =
        kind === 'session'
          ? await client.realtime.start({ config: { general: {}, input: {}, output: {}, generative: { llm: 'builtin-offline' } } })
          : await client.appRuns.create({ app: 'app_example_typed_chat' });
      const room = 'session' in answer ? answer.session.id : answer.app_run.id;
      human = await humanIn(answer.connection_details);
      // As the shutdown begins, the human's reliable channel still has a backlog (a few hundred ms of sending): the
      // notice queues behind it.
      const chunk = new TextDecoder().decode(new Uint8Array(BACKLOG_PACKET_BYTES).fill(120));
      const ending = kind === 'session' ? services.realtime : services.appRuns;
      const close = ending.close.bind(ending);
      ending.close = async () => {
        for (let index = 0; index < QUEUED_PACKETS; index++) await sendRoomData(services.media, room, 'backlog', chunk);
        await close();
      };
      await test.close();
      await expect
        .poll(() => human!.errors, { timeout: 2000 })
        .toContain(kind === 'session' ? 'The server is shutting down; this session has ended.' : 'The server is shutting down: the run has ended.');
    } finally {
      await human?.room.disconnect().catch(() => undefined);
    }
  });
});
