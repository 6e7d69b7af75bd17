import { createSocket, type Socket } from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { startUdpRelay, type UdpRelay } from './udp-relay.js';

const open: Array<{ close: () => unknown }> = [];
afterEach(async () => {
  for (const item of open.splice(0)) await item.close();
});

async function udp(address: string, port = 0): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(port, address, resolve));
  open.push({ close: () => new Promise<void>((resolve) => socket.close(() => resolve())) });
  return socket;
}

const next = (socket: Socket, timeoutMs = 500) =>
  new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    socket.once('message', (message) => {
      clearTimeout(timer);
      resolve(message.toString());
    });
  });

describe('startUdpRelay', () => {
  it('passes datagrams both ways on the same port, and drops all of them while cut', async () => {
    const relay: UdpRelay = await startUdpRelay({ ports: 2 });
    open.push(relay);
    const [first, last] = relay.portRange;
    expect(last - first).toBe(1);
    // The endpoint's socket, bound where the relay forwards to, on a port of the range.
    const endpoint = await udp('127.0.0.1', last);
    endpoint.on('message', (message, from) => endpoint.send(`echo ${message.toString()}`, from.port, from.address));
    const client = await udp('127.0.0.1');

    const answer = next(client);
    client.send('hello', last, relay.address);
    expect(await answer).toBe('echo hello');

    relay.cut();
    const lost = next(client);
    client.send('asleep', last, relay.address);
    expect(await lost).toBeUndefined();
    relay.restore();
    const again = next(client);
    client.send('awake', last, relay.address);
    expect(await again).toBe('echo awake');
    expect(relay.counts()).toEqual({ forwarded: 4, dropped: 1, flows: 1 });
  });
});
