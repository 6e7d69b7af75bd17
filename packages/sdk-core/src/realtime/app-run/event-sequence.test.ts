import { describe, expect, it } from 'vitest';
import { EventSequence } from './event-sequence.js';

describe('EventSequence', () => {
  it('takes each numbered event once, whatever the order, and knows up to where it has them all', () => {
    const sequence = new EventSequence();
    expect([1, 2, 4, 5].map((seq) => sequence.take(seq))).toEqual([true, true, true, true]);
    // 3 was lost with the connection: the replay asks after 2 and brings 3, 4, 5 again.
    expect(sequence.after).toBe(2);
    expect([3, 4, 5].map((seq) => sequence.take(seq))).toEqual([true, false, false]);
    expect(sequence.after).toBe(5);
    expect(sequence.take(2)).toBe(false);
    expect(sequence.take(undefined)).toBe(true);
    sequence.reset();
    expect(sequence.after).toBe(0);
    expect(sequence.take(1)).toBe(true);
  });
});
