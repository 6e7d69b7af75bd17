import { describe, expect, it } from 'vitest';
import type { PcmChunk } from '../../engines/speech/index.js';
import { trimSilence } from './silence-trimmer.js';

const RATE = 1000;

async function* chunks(...parts: number[][]): AsyncIterable<PcmChunk> {
  for (const part of parts) yield { pcm: Int16Array.from(part), sampleRate: RATE };
}

async function collect(source: AsyncIterable<PcmChunk>): Promise<number[]> {
  const out: number[] = [];
  for await (const chunk of source) out.push(...chunk.pcm);
  return out;
}

describe('trimSilence', () => {
  it('keeps only the asked silence before the first and after the last sound, across chunks', async () => {
    const silence = (count: number) => Array<number>(count).fill(0);
    const trimmed = await collect(
      trimSilence(chunks(silence(50), [...silence(50), 1000, 2000], silence(20), [3000, ...silence(100)], silence(100)), {
        keepLeadingMs: 5,
        keepTrailingMs: 10,
      }),
    );
    expect(trimmed).toEqual([...silence(5), 1000, 2000, ...silence(20), 3000, ...silence(10)]);
  });

  it('passes sound through as soon as it arrives and drops all-silent segments', async () => {
    const source = chunks([0, 0, 500, 0], [0, 700]);
    const iterator = trimSilence(source, { keepLeadingMs: 1, keepTrailingMs: 0 })[Symbol.asyncIterator]();
    expect([...(await iterator.next()).value!.pcm]).toEqual([0, 500]);
    expect([...(await iterator.next()).value!.pcm]).toEqual([0, 0, 700]);
    expect((await iterator.next()).done).toBe(true);
    expect(await collect(trimSilence(chunks([0, 10, -10], [0]), { keepLeadingMs: 5, keepTrailingMs: 5 }))).toEqual([]);
  });

  it('moves phoneme timings earlier by the leading silence cut and sends them with the next chunk out', async () => {
    const silence = (count: number) => Array<number>(count).fill(0);
    async function* speech(): AsyncIterable<PcmChunk> {
      // 100 ms of silence (held, then cut to 5 ms), the phonemes arriving with it; then the sound.
      yield { pcm: Int16Array.from(silence(100)), sampleRate: RATE, phonemes: [{ phoneme: 'pau', alphabet: 'arpabet', start: 0, end: 0.1 }] };
      yield { pcm: Int16Array.from([1000, 2000, ...silence(10)]), sampleRate: RATE, phonemes: [{ phoneme: 'm', alphabet: 'arpabet', start: 0.1, end: 0.102 }] };
    }
    const out: PcmChunk[] = [];
    for await (const chunk of trimSilence(speech(), { keepLeadingMs: 5, keepTrailingMs: 10 })) out.push(chunk);
    expect(out[0]!.phonemes).toEqual([
      { phoneme: 'pau', alphabet: 'arpabet', start: 0, end: expect.closeTo(0.005, 6) },
      { phoneme: 'm', alphabet: 'arpabet', start: expect.closeTo(0.005, 6), end: expect.closeTo(0.007, 6) },
    ]);
    // 'm' sounds where it is placed: 5 ms in.
    expect(out[0]!.pcm[5]).toBe(1000);
  });
});
