import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('is prefixed, unique and sorts by creation order', () => {
    const ids = Array.from({ length: 10_000 }, () => newId('thing'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^thing_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('uses random characters (no two ids of different milliseconds share their random part)', async () => {
    const first = newId('x').slice(-16);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = newId('x').slice(-16);
    expect(first).not.toBe(second);
  });
});
