import { describe, expect, it } from 'vitest';
import { cacheTime, timedCache } from './timed-cache.js';

describe('timedCache', () => {
  it('answers an entry until its time to live has passed, not at that moment', () => {
    let now = 5_000;
    const cache = timedCache<string, number>({ max: 10, ttlMs: 1000, now: () => now });
    cache.set('a', 1);
    now += 999.999;
    expect(cache.get('a')).toBe(1);
    now = 6_000;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('expires entries set when the clock reads 0 (a faked performance.now starts there)', () => {
    let now = 0;
    const cache = timedCache<string, number>({ max: 10, ttlMs: 1000, now: () => now });
    cache.set('a', 1);
    now = 999;
    expect(cache.get('a')).toBe(1);
    now = 1000;
    expect(cache.get('a')).toBeUndefined();
  });

  it("counts the time to live from set's start when given", () => {
    let now = 5_000;
    const cache = timedCache<string, number>({ max: 10, ttlMs: 1000, now: () => now });
    cache.set('a', 1, { start: cacheTime(4_500) });
    now = 5_499;
    expect(cache.get('a')).toBe(1);
    now = 5_500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most max entries, the least recently used going first; without a ttl entries stay', () => {
    const cache = timedCache<string, number>({ max: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a');
    cache.set('c', 3);
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
  });
});
