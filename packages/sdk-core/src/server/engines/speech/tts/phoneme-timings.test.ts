import { afterAll, describe, expect, it } from 'vitest';
import { flitePhonemes } from '../workers/flite-protocol.js';
import { collectSynthesis } from './collect-synthesis.js';
import { EspeakEngine } from './espeak-engine.js';
import { FliteEngine } from './flite-engine.js';
import type { PhonemeTiming } from './tts-engine.js';

const flite = new FliteEngine();
const espeak = new EspeakEngine();

afterAll(async () => {
  await flite.close();
  await espeak.close();
});

/** Phonemes follow each other, each within the audio. */
function expectOrdered(phonemes: PhonemeTiming[], seconds: number): void {
  for (const [index, timing] of phonemes.entries()) {
    expect(timing.end).toBeGreaterThanOrEqual(timing.start);
    if (index > 0) expect(timing.start).toBeGreaterThanOrEqual(phonemes[index - 1]!.start);
  }
  expect(phonemes.at(-1)!.end).toBeLessThanOrEqual(seconds + 0.05);
}

describe('phoneme timings of the offline TTS engines', () => {
  it("Flite: the utterance's ARPAbet phones with their times (-psdur), later sentences offset by the audio before them", async () => {
    const result = await collectSynthesis(flite.synthesize({ text: 'Hello world. Good morning.', voice: 'slt' }));
    const seconds = result.pcm.length / result.sampleRate;
    expect(result.phonemes.every((timing) => timing.alphabet === 'arpabet')).toBe(true);
    expect(result.phonemes.map((timing) => timing.phoneme).join(' ')).toMatch(/^pau hh ax l ow w er l d pau( pau)? g uh d m ao r n ih ng pau$/);
    expectOrdered(result.phonemes, seconds);
    // 'g' of "Good" starts after the first sentence's audio.
    const good = result.phonemes.find((timing) => timing.phoneme === 'g')!;
    expect(good.start).toBeGreaterThan(result.phonemes.find((timing) => timing.phoneme === 'd')!.end);
  });

  it('eSpeak-NG: IPA phoneme events with their times, pauses as empty phonemes', async () => {
    const result = await collectSynthesis(espeak.synthesize({ text: 'Hello world.', voice: 'en-us' }));
    const seconds = result.pcm.length / result.sampleRate;
    expect(result.phonemes.every((timing) => timing.alphabet === 'ipa')).toBe(true);
    expect(result.phonemes.map((timing) => timing.phoneme.replace(/[ˈˌ]/g, '')).filter((phoneme) => phoneme !== '')).toEqual([
      'h',
      'ə',
      'l',
      'oʊ',
      'w',
      'ɜː',
      'l',
      'd',
    ]);
    expectOrdered(result.phonemes, seconds);
    // "world" starts where the word timing says.
    const world = result.wordTimings.find((timing) => timing.word === 'world')!;
    expect(result.phonemes.find((timing) => timing.phoneme === 'w')!.start).toBeCloseTo(world.start, 1);
  });

  it('reads Flite -psdur output', () => {
    expect(flitePhonemes('pau:0.164 hh:0.255 ax:0.304\n')).toEqual([
      { phoneme: 'pau', alphabet: 'arpabet', start: 0, end: 0.164 },
      { phoneme: 'hh', alphabet: 'arpabet', start: 0.164, end: 0.255 },
      { phoneme: 'ax', alphabet: 'arpabet', start: 0.255, end: 0.304 },
    ]);
    expect(flitePhonemes('')).toEqual([]);
  });
});
