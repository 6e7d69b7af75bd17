import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requireComponent } from '../../../../tests/support/components.js';
import type { EventBus } from '../../kernel/event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { RedisBus } from './redis-bus.js';
import { redisReachable, redisUrl } from '../../../../tests/support/redis.js';

const withRedis = requireComponent('Redis', await redisReachable(), `cannot connect to ${redisUrl}`);

function waitFor<T>(promise: Promise<T>, ms = 2000): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms))]);
}

const factories: Array<[string, () => [EventBus, EventBus]]> = [
  [
    'in-process',
    () => {
      const bus = new InProcessBus();
      return [bus, bus];
    },
  ],
];
if (withRedis) factories.push(['redis (two instances)', () => [new RedisBus(redisUrl), new RedisBus(redisUrl)]]);

describe.each(factories)('event bus: %s', (_name, create) => {
  it('delivers a published message to subscribers of that channel only, as a copy', async () => {
    const [first, second] = create();
    const channel = `test-${randomUUID()}`;
    const received = new Promise<unknown>((resolve) => void second.subscribe(channel, resolve));
    await new Promise((resolve) => setTimeout(resolve, 50));
    let otherChannelCalls = 0;
    await second.subscribe(`${channel}-other`, () => {
      otherChannelCalls += 1;
    });
    const message = { type: 'session.end', session: 'abc', nested: { n: 1 } };
    await first.publish(channel, message);
    const got = await waitFor(received);
    expect(got).toEqual(message);
    expect(got).not.toBe(message);
    expect(otherChannelCalls).toBe(0);
    await first.close();
    if (second !== first) await second.close();
  });

  it('stops delivering after unsubscribe and survives a throwing handler', async () => {
    const [first, second] = create();
    const channel = `test-${randomUUID()}`;
    const seen: unknown[] = [];
    await second.subscribe(channel, () => {
      throw new Error('handler failure must not break the bus');
    });
    const unsubscribe = await second.subscribe(channel, (message) => void seen.push(message));
    await first.publish(channel, 1);
    await waitFor(
      (async () => {
        while (seen.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
      })(),
    );
    await unsubscribe();
    await first.publish(channel, 2);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(seen).toEqual([1]);
    await first.close();
    if (second !== first) await second.close();
  });
});
