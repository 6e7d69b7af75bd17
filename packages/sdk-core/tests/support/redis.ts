import { Redis } from 'ioredis';
import { requireComponent } from './components.js';

export const redisUrl = process.env.PALAVER_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let probe: Promise<boolean> | undefined;

/** Whether the test Redis answers (checked once per process). */
export function redisReachable(): Promise<boolean> {
  probe ??= (async () => {
    const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
    client.on('error', () => {});
    try {
      await client.connect();
      return (await client.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      client.disconnect();
    }
  })();
  return probe;
}

/** Whether Redis-backed suites run: Redis reachable, or a printed skip (a failure under CI=true). */
export async function withRedis(): Promise<boolean> {
  return requireComponent('Redis', await redisReachable(), `cannot connect to ${redisUrl}`);
}
