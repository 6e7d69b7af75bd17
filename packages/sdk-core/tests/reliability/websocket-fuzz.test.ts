import { randomBytes } from 'node:crypto';
import { JoinRequest, WrappedJoinRequest } from '@livekit/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { clientFrame, closedWithin, rawConnection, rawWebSocket, upgradeRequest } from '../support/raw-websocket.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

const TEXT = 0x1;
const BINARY = 0x2;
const PING = 0x9;

/** Every websocket path, refused and accepted, as a URL for a server. */
function targets(server: ServerProcess): Array<[name: string, url: URL]> {
  const base = server.url.replace(/^http/, 'ws');
  const joinRequest = Buffer.from(new WrappedJoinRequest({ joinRequest: new JoinRequest({}).toBinary() }).toBinary()).toString('base64url');
  return [
    ['tts socket, no credentials', new URL(`${base}/v1/voice/websocket`)],
    ['tts socket, wrong key', new URL(`${base}/v1/voice/websocket?api_key=pk_wrong`)],
    ['tts socket, authenticated', new URL(`${base}/v1/voice/websocket?api_key=${server.apiKey}`)],
    ['openai realtime, no credentials', new URL(`${base}/v1/realtime?model=builtin-offline`)],
    ['openai realtime, unknown model', new URL(`${base}/v1/realtime?model=nope&api_key=${server.apiKey}`)],
    ['openai realtime, authenticated', new URL(`${base}/v1/realtime?model=builtin-offline&api_key=${server.apiKey}`)],
    ['/rtc, no token', new URL(`${base}/rtc`)],
    ['/rtc, authenticated', new URL(`${base}/rtc?access_token=${server.joinToken}&protocol=16`)],
    ['/rtc/v1, no token', new URL(`${base}/rtc/v1`)],
    ['/rtc/v1, authenticated', new URL(`${base}/rtc/v1?access_token=${server.joinToken}&join_request=${joinRequest}`)],
  ];
}

/** Sends frames over a hand-made websocket, then waits for the server to close it (or gives up). */
async function sendFrames(url: URL, frames: Buffer[], options: { destroyAfter?: boolean } = {}): Promise<void> {
  const { socket } = await rawWebSocket(url);
  for (const frame of frames) if (!socket.destroyed) socket.write(frame);
  if (options.destroyAfter) socket.destroy();
  await closedWithin(socket, 1000);
}

/** The abuse each path gets; none may stop the server. */
const abuses: Array<[name: string, run: (url: URL) => Promise<void>]> = [
  [
    'one frame over the size limit (declared 1 MiB)',
    (url) => sendFrames(url, [clientFrame({ opcode: TEXT, payload: Buffer.alloc(16), declaredLength: 1 << 20 })]),
  ],
  ['a whole frame over the size limit (600 KiB sent)', (url) => sendFrames(url, [clientFrame({ opcode: BINARY, payload: randomBytes(600 * 1024) })])],
  [
    'binary garbage',
    (url) =>
      sendFrames(
        url,
        Array.from({ length: 20 }, () => clientFrame({ opcode: BINARY, payload: randomBytes(1 + Math.floor(Math.random() * 2000)) })),
      ),
  ],
  [
    'text garbage',
    (url) =>
      sendFrames(
        url,
        ['{', 'null', '{"type":"start_session"}', 'x'.repeat(5000)].map((text) => clientFrame({ opcode: TEXT, payload: Buffer.from(text) })),
      ),
  ],
  ['invalid UTF-8 text', (url) => sendFrames(url, [clientFrame({ opcode: TEXT, payload: Buffer.from([0xc3, 0x28, 0xff]) })])],
  ['unmasked client frame', (url) => sendFrames(url, [clientFrame({ opcode: TEXT, payload: Buffer.from('hello'), masked: false })])],
  ['reserved opcode', (url) => sendFrames(url, [clientFrame({ opcode: 0x3, payload: Buffer.from('x') })])],
  ['RSV1 without an extension', (url) => sendFrames(url, [clientFrame({ opcode: TEXT, payload: Buffer.from('x'), rsv1: true })])],
  ['oversized control frame', (url) => sendFrames(url, [clientFrame({ opcode: PING, payload: randomBytes(200) })])],
  ['fragmented control frame', (url) => sendFrames(url, [clientFrame({ opcode: PING, payload: Buffer.from('x'), fin: false })])],
  ['random bytes after the handshake', (url) => sendFrames(url, [randomBytes(4096)])],
  ['connection dropped mid-frame', (url) => sendFrames(url, [clientFrame({ opcode: TEXT, payload: Buffer.alloc(10) }).subarray(0, 8)], { destroyAfter: true })],
  [
    'upgrade request cut short, then dropped',
    async (url) => {
      const socket = await rawConnection(url);
      socket.write(upgradeRequest(url).slice(0, 40));
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
    },
  ],
  [
    'dropped while the upgrade is being admitted',
    async (url) => {
      const socket = await rawConnection(url);
      socket.write(upgradeRequest(url));
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
  ],
  [
    'reset while the upgrade is being admitted',
    async (url) => {
      const socket = await rawConnection(url);
      socket.write(upgradeRequest(url));
      socket.resetAndDestroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
    },
  ],
  [
    'broken handshake (version 8, bad key)',
    async (url) => {
      for (const options of [{ version: '8' }, { key: 'short' }]) {
        const socket = await rawConnection(url);
        socket.write(upgradeRequest(url, options));
        await closedWithin(socket, 1000);
      }
    },
  ],
  [
    'half-open: opened, then silent',
    async (url) => {
      const { socket } = await rawWebSocket(url);
      await new Promise((resolve) => setTimeout(resolve, 200));
      socket.destroy();
    },
  ],
];

describe('websocket paths survive abusive clients', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    server = await startServerProcess();
  });
  afterAll(async () => {
    await server?.kill();
  });

  it('keeps serving after every path got every abuse, unauthenticated and authenticated', async () => {
    const survived: string[] = [];
    for (const [target, url] of targets(server)) {
      for (const [abuse, run] of abuses) {
        await run(url);
        expect(server.alive(), `the server died after "${abuse}" on ${target}:\n${server.stderr()}`).toBe(true);
        survived.push(`${target}: ${abuse}`);
      }
    }
    expect(survived).toHaveLength(targets(server).length * abuses.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.alive(), server.stderr()).toBe(true);

    // HTTP still answers, and a well-behaved socket client is still served.
    const health = await fetch(`${server.url}/health`);
    expect(health.status).toBe(200);
    const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/v1/voice/websocket?api_key=${server.apiKey}`);
    const reply = await new Promise<{ type: string }>((resolve, reject) => {
      socket.once('error', reject);
      socket.once('open', () => socket.send('not json'));
      socket.once('message', (data) => resolve(JSON.parse((data as Buffer).toString()) as { type: string }));
    });
    expect(reply.type).toBe('error');
    socket.close();
    expect(server.stderr()).not.toMatch(/Unhandled|uncaught/i);
  }, 120_000);
});
