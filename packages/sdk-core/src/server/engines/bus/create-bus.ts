import type { Logger } from 'pino';
import type { EventBus } from '../../kernel/event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { importOptional } from '../../kernel/optional-package.js';

/** Redis when `redisUrl` is configured (`ioredis` is loaded then), otherwise the in-process bus. */
export async function createBus(redisUrl: string | undefined, logger?: Logger): Promise<EventBus> {
  if (!redisUrl) return new InProcessBus(logger);
  const { RedisBus } = await importOptional('ioredis', 'REDIS_URL (the Redis event bus)', () => import('./redis-bus.js'));
  return new RedisBus(redisUrl, logger);
}
