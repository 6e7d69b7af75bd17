import type { Logger } from 'pino';
import type { EventBus } from './event-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { RedisBus } from './redis-bus.js';

/** Redis when `redisUrl` is configured, otherwise the in-process bus. */
export function createBus(redisUrl: string | undefined, logger?: Logger): EventBus {
  return redisUrl ? new RedisBus(redisUrl, logger) : new InProcessBus(logger);
}
