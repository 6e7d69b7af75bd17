import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { redisUrl, withRedis } from '../support/redis.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** Generous deadline for a loaded machine: it bounds waiting, it is not what the test measures. */
const DEADLINE_MS = 30_000;
const ROUNDS = 3;

interface RedisClientInfo {
  id: string;
  name: string;
  subscriptions: number;
}

async function clients(admin: Redis): Promise<RedisClientInfo[]> {
  const list = (await admin.client('LIST')) as string;
  return list
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const fields = new Map(line.split(' ').map((field) => [field.slice(0, field.indexOf('=')), field.slice(field.indexOf('=') + 1)]));
      return { id: fields.get('id') ?? '', name: fields.get('name') ?? '', subscriptions: Number(fields.get('sub') ?? 0) };
    });
}

async function eventually<T>(what: string, server: ServerProcess, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (!server.alive()) throw new Error(`the server exited while waiting for ${what}:\n${server.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no ${what} within ${DEADLINE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Sends a change notice on the bus as an instance would and waits until every subscriber confirmed it (PUBLISH
 * answers how many received it): the server's subscriber heard it and its publisher answered.
 */
async function noticeConfirmed(acknowledgements: Redis, publisher: Redis, server: ServerProcess): Promise<number> {
  const acknowledge = `palaver.test-acknowledged.${randomUUID()}`;
  let confirmed = 0;
  const count = (channel: string) => {
    if (channel === `palaver:${acknowledge}`) confirmed += 1;
  };
  acknowledgements.on('message', count);
  await acknowledgements.subscribe(`palaver:${acknowledge}`);
  try {
    const receivers = await publisher.publish('palaver:palaver.changes', JSON.stringify({ topic: 'llms', origin: 'redis-connections-test', acknowledge }));
    expect(receivers, 'subscribers of the change notices').toBeGreaterThanOrEqual(1);
    await eventually(`${receivers} confirmations (${confirmed} so far)`, server, async () => (confirmed >= receivers ? true : undefined));
    return receivers;
  } finally {
    acknowledgements.off('message', count);
    await acknowledgements.unsubscribe(`palaver:${acknowledge}`);
  }
}

describe.runIf(await withRedis())('Redis connections closed under the server (CLIENT KILL)', () => {
  it('its bus publisher and subscriber killed round after round: it reconnects, subscribes again, confirms change notices and answers', async () => {
    const server = await startServerProcess({ redisUrl });
    const admin = new Redis(redisUrl);
    const acknowledgements = new Redis(redisUrl);
    const names = { publisher: `palaver-publisher-${server.child.pid}`, subscriber: `palaver-subscriber-${server.child.pid}` };
    const killed = { publisher: 0, subscriber: 0 };
    try {
      const connected = () =>
        eventually('both bus connections, the subscriber subscribed', server, async () => {
          const all = await clients(admin);
          const publisher = all.find((client) => client.name === names.publisher);
          const subscriber = all.find((client) => client.name === names.subscriber && client.subscriptions >= 1);
          return publisher && subscriber ? { publisher, subscriber } : undefined;
        });
      let connections = await connected();
      await noticeConfirmed(acknowledgements, admin, server);
      for (let round = 1; round <= ROUNDS; round += 1) {
        for (const role of ['publisher', 'subscriber'] as const) {
          killed[role] += Number(await admin.client('KILL', 'ID', connections[role].id));
        }
        const before = connections;
        connections = await connected();
        expect(connections.publisher.id, `round ${round}: a new publisher connection`).not.toBe(before.publisher.id);
        expect(connections.subscriber.id, `round ${round}: a new subscriber connection`).not.toBe(before.subscriber.id);
        await noticeConfirmed(acknowledgements, admin, server);
        const answer = await fetch(`${server.url}/v1/voice/list`, { headers: { 'x-api-key': server.apiKey } });
        expect(answer.status, `round ${round}`).toBe(200);
        expect(server.alive(), `round ${round}: the server exited:\n${server.stderr()}`).toBe(true);
      }
      console.info(`bus connections killed: ${JSON.stringify(killed)} in ${ROUNDS} rounds; a change notice confirmed after each`);
      expect(killed).toEqual({ publisher: ROUNDS, subscriber: ROUNDS });
    } finally {
      admin.disconnect();
      acknowledgements.disconnect();
      await server.kill();
    }
  }, 120_000);
});
