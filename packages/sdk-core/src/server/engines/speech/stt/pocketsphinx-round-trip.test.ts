import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { requireComponent } from '../../../../../tests/support/components.js';
import { resampleLinear } from '../codecs/resample.js';
import { collectSynthesis } from '../tts/collect-synthesis.js';
import { FliteEngine } from '../tts/flite-engine.js';
import { PocketsphinxEngine } from './pocketsphinx-engine.js';
import type { TranscriptEvent } from './stt-engine.js';
import { wordErrorRate } from './word-error-rate.js';

const installed =
  existsSync('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin') &&
  ['/usr/lib/x86_64-linux-gnu/libpocketsphinx.so.3', '/usr/lib/aarch64-linux-gnu/libpocketsphinx.so.3'].some(existsSync);
const available = requireComponent('pocketsphinx', installed, 'apt install libpocketsphinx3 pocketsphinx-en-us');

const flite = new FliteEngine();
const stt = new PocketsphinxEngine();
afterAll(() => Promise.all([flite.close(), stt.close()]));

describe('embedded STT without its library', () => {
  it('reports "no STT engine" with the reason instead of failing the server', async () => {
    const missing = new PocketsphinxEngine({ libraryPath: 'libpocketsphinx-that-does-not-exist.so.9' });
    const status = await missing.status();
    expect(status.available).toBe(false);
    expect(status.reason).toMatch(/no STT engine: .*libpocketsphinx-that-does-not-exist/);
    expect(() => missing.createSession({ sampleRate: 16000 })).toThrow(/libpocketsphinx-that-does-not-exist/);
    await missing.close();
  });
});

describe.skipIf(!available)('Flite -> pocketsphinx round trip', () => {
  it.each([
    ['slt', 'Please call me tomorrow morning.'],
    ['rms', 'The weather is nice today and we are going outside.'],
    ['kal16', 'I would like to order a large pizza with mushrooms.'],
  ])('voice %s: word error below 10 %%, interim then final transcripts', async (voice, sentence) => {
    expect(await stt.status()).toEqual({ available: true });
    const audio = await collectSynthesis(flite.synthesize({ text: sentence, voice }));
    // Feed 20 ms frames at 48 kHz, as WebRTC would deliver them.
    const pcm = resampleLinear(audio.pcm, audio.sampleRate, 48000);
    const session = stt.createSession({ sampleRate: 48000 });
    const events: TranscriptEvent[] = [];
    session.on('transcript', (event) => events.push(event));
    for (let offset = 0; offset < pcm.length; offset += 960) session.push(pcm.subarray(offset, offset + 960));
    const text = await session.finish();
    expect(wordErrorRate(sentence, text)).toBeLessThan(0.1);
    const final = events.at(-1)!;
    expect(final).toMatchObject({ type: 'final', text, utterance: 0 });
    // Its words, each with the decoder's posterior: the same words as the text, confidences within 0..1.
    expect(final.words!.map(({ word }) => word).join(' ')).toBe(text);
    for (const { confidence } of final.words!) {
      expect(confidence).toBeGreaterThanOrEqual(0);
      expect(confidence).toBeLessThanOrEqual(1);
    }
    expect(Math.max(...final.words!.map(({ confidence }) => confidence))).toBeGreaterThan(0.5);
    expect(events.filter((event) => event.type === 'interim').length).toBeGreaterThan(0);
    session.close();
  });

  it('reuses the decoder for consecutive utterances in one session', async () => {
    const session = stt.createSession({ sampleRate: 16000 });
    const texts: string[] = [];
    const sentences = ['Please call me tomorrow morning.', 'The weather is nice today and we are going outside.'];
    for (const sentence of sentences) {
      const audio = await collectSynthesis(flite.synthesize({ text: sentence, voice: 'rms' }));
      session.push(audio.pcm);
      texts.push(await session.finish());
    }
    expect(wordErrorRate(sentences[0]!, texts[0]!)).toBeLessThan(0.1);
    expect(wordErrorRate(sentences[1]!, texts[1]!)).toBeLessThan(0.1);
    session.close();
  });
});
