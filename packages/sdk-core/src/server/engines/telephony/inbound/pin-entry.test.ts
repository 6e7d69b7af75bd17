import { describe, expect, it, vi } from 'vitest';
import { PinEntry } from './pin-entry.js';

describe('PinEntry', () => {
  it('takes the right PIN after a wrong one, keyed digit by digit or ended with #', async () => {
    const entry = new PinEntry('1234');
    for (const digit of '99#') entry.key(digit);
    for (const digit of '1234') entry.key(digit);
    expect(await entry.result).toBe(true);
  });

  it('fails after three wrong entries (each told, with the tries left), or when the time runs out', async () => {
    const wrong = new PinEntry('1234');
    const told: number[] = [];
    wrong.onWrong = (triesLeft) => told.push(triesLeft);
    for (const digit of '0000' + '1111' + '2222') wrong.key(digit);
    expect(told).toEqual([2, 1, 0]);
    wrong.key('1');
    expect(await wrong.result).toBe(false);
    vi.useFakeTimers();
    try {
      const slow = new PinEntry('1234', 1000);
      slow.key('1');
      vi.advanceTimersByTime(1000);
      expect(await slow.result).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });
});
