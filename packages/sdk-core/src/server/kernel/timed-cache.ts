import { LRUCache } from 'lru-cache';

export interface TimedCacheOptions {
  /** Entries kept at most; past it the least recently used goes. */
  max: number;
  /** How long an entry is answered; it is gone once this long has passed since it was set. Without it, entries stay until pushed out. */
  ttlMs?: number;
  /** The clock in milliseconds (tests pass their own); `performance.now` by default. */
  now?: () => number;
}

/**
 * The server's one kind of in-memory cache: lru-cache, bounded by `max`, with an optional time to
 * live. Expired entries are never answered (`allowStale` off) and the clock is read on every check (`ttlResolution`
 * 0: no timers, no cached time). lru-cache counts an entry stale once its age is *over* the ttl; the caches here
 * always ended at the ttl, so the cache runs on a microsecond clock with a ttl one microsecond shorter: stale at
 * `ttlMs` to the microsecond (and exactly on an integer test clock).
 *
 * @example
 * const verified = timedCache<string, VerifiedKey>({ max: 1000, ttlMs: 1000 });
 */
export function timedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(options: TimedCacheOptions): LRUCache<K, V> {
  const clock = options.now ?? (() => performance.now());
  return new LRUCache<K, V>({
    max: options.max,
    ...(options.ttlMs === undefined
      ? {}
      : { ttl: Math.max(1, Math.round(options.ttlMs * 1000) - 1), ttlResolution: 0, perf: { now: () => cacheTime(clock()) } }),
  });
}

/**
 * A time of the clock (milliseconds, `performance.now()` or the cache's `now`) as the cache counts it, for `set`'s
 * `start`: in microseconds, one after the clock's, as lru-cache takes a start of 0 for "no time to live" (a faked
 * `performance.now()` starts at 0).
 */
export function cacheTime(ms: number): number {
  return ms * 1000 + 1;
}
