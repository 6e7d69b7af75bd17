import { describe, expect, it } from 'vitest';
import { DtmfReceiver, dtmfCode, dtmfPayloads } from './dtmf.js';
import { JitterBuffer } from './jitter-buffer.js';

describe('jitter buffer', () => {
  it('releases reordered packets in order, drops duplicates and late ones, across the 16-bit wrap', () => {
    const buffer = new JitterBuffer<number>(2);
    const out: number[] = [];
    for (const sequence of [65534, 0, 65535, 1, 1, 3, 2, 65533]) out.push(...buffer.push(sequence, sequence));
    out.push(...buffer.flush());
    expect(out).toEqual([65534, 65535, 0, 1, 2, 3]);
    expect(buffer.droppedCount).toBe(2);
  });
});

describe('RFC 4733 DTMF', () => {
  it('reports a key press once for all its packets', () => {
    const receiver = new DtmfReceiver();
    const events = dtmfPayloads(dtmfCode('#')!, 8000).map((payload) => receiver.receive(payload, 1234));
    expect(events.filter(Boolean)).toEqual([{ code: 11, digit: '#' }]);
    expect(receiver.receive(dtmfPayloads(5, 8000)[0]!, 5678)).toEqual({ code: 5, digit: '5' });
    const end = dtmfPayloads(1, 8000).at(-1)!;
    expect(end[1]! & 0x80).toBe(0x80);
  });
});
