import { getEventListeners } from 'node:events';
import { afterAll, describe, expect, it } from 'vitest';
import { rmsDecibels } from '../codecs/pcm.js';
import { WorkerFailureError } from '../workers/supervised-worker.js';
import { collectSynthesis } from './collect-synthesis.js';
import { EspeakEngine } from './espeak-engine.js';
import { FliteEngine } from './flite-engine.js';
import { TtsRouter, TtsServiceUnavailableError } from './tts-router.js';

const flite = new FliteEngine();
const espeak = new EspeakEngine();
const router = new TtsRouter([flite, espeak]);
afterAll(() => router.close());

async function* slowText(pieces: string[], gapMs: number, log: string[]): AsyncIterable<string> {
  for (const piece of pieces) {
    log.push(`text:${piece}`);
    yield piece;
    await new Promise((resolve) => setTimeout(resolve, gapMs));
  }
}

describe('Flite engine', () => {
  it.each([
    ['kal', 8000],
    ['kal16', 16000],
    ['awb', 16000],
    ['rms', 16000],
    ['slt', 16000],
  ])('voice %s speaks at %i Hz', async (voice, sampleRate) => {
    const result = await collectSynthesis(flite.synthesize({ text: 'Good morning, everyone.', voice }));
    expect(result.sampleRate).toBe(sampleRate);
    expect(result.pcm.length / sampleRate).toBeGreaterThan(0.8);
    expect(rmsDecibels(result.pcm)).toBeGreaterThan(-35);
  });

  it('speeds up with speed > 1', async () => {
    const normal = await collectSynthesis(flite.synthesize({ text: 'This sentence is spoken twice.', voice: 'rms' }));
    const fast = await collectSynthesis(flite.synthesize({ text: 'This sentence is spoken twice.', voice: 'rms', speed: 1.5 }));
    expect(fast.pcm.length).toBeLessThan(normal.pcm.length * 0.8);
  });

  it('rejects an unknown voice before doing any work', () => {
    expect(() => flite.synthesize({ text: 'x', voice: 'nobody' })).toThrow(/unknown Flite voice/);
  });

  it('starts speaking a streamed text before the text is complete', async () => {
    const log: string[] = [];
    for await (const chunk of flite.synthesize({
      textStream: slowText(['Hello there. ', 'This part ', 'arrives later.'], 150, log),
      voice: 'slt',
    })) {
      log.push(`audio:${chunk.pcm.length > 0}`);
    }
    expect(log.indexOf('audio:true')).toBeGreaterThan(-1);
    expect(log.indexOf('audio:true')).toBeLessThan(log.indexOf('text:arrives later.'));
  });

  it('stops when the signal aborts', async () => {
    const controller = new AbortController();
    const text = Array.from({ length: 20 }, (_, index) => `Sentence number ${index} is here.`).join(' ');
    let chunks = 0;
    await expect(async () => {
      for await (const _chunk of flite.synthesize({ text, voice: 'kal16', signal: controller.signal })) {
        chunks++;
        controller.abort();
      }
    }).rejects.toThrow(/abort/i);
    expect(chunks).toBe(1);
  });

  it('leaves no abort listener behind on a long-lived signal once its jobs are done', async () => {
    const session = new AbortController();
    for (let index = 0; index < 12; index += 1) {
      await collectSynthesis(flite.synthesize({ text: `Clause ${index}.`, voice: 'kal16', signal: session.signal }));
    }
    expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  });

  it('recovers from a worker crash or hang, failing only the affected request', async () => {
    const restartsBefore = flite.worker.stats.restarts;
    const crash = flite.worker.injectFault('exit');
    const afterCrash = collectSynthesis(flite.synthesize({ text: 'Still here.', voice: 'slt' }));
    await expect(crash).rejects.toBeInstanceOf(WorkerFailureError);
    expect((await afterCrash).pcm.length).toBeGreaterThan(8000);

    await expect(flite.worker.injectFault('throw')).rejects.toBeInstanceOf(WorkerFailureError);
    await expect(flite.worker.injectFault('hang', 300)).rejects.toThrow(/timed out/);
    const afterHang = await collectSynthesis(flite.synthesize({ text: 'And still here.', voice: 'awb' }));
    expect(afterHang.pcm.length).toBeGreaterThan(8000);
    expect(flite.worker.stats.restarts - restartsBefore).toBe(3);
  });
});

describe('eSpeak-NG engine', () => {
  it('streams audio in several chunks with word timings', async () => {
    const result = await collectSynthesis(espeak.synthesize({ text: 'One two three four five six seven.', voice: 'en-us' }));
    expect(result.sampleRate).toBe(22050);
    expect(result.chunkCount).toBeGreaterThan(3);
    expect(result.wordTimings.map((timing) => timing.word)).toEqual(['One', 'two', 'three', 'four', 'five', 'six', 'seven']);
    const ends = result.wordTimings.map((timing) => timing.end);
    expect(ends).toEqual([...ends].sort((left, right) => left - right));
    expect(ends.at(-1)!).toBeLessThanOrEqual(result.pcm.length / 22050 + 0.01);
  });

  it('offsets word timings of later sentences by the audio before them', async () => {
    const result = await collectSynthesis(espeak.synthesize({ text: 'First sentence. Second sentence.', voice: 'en-us' }));
    const second = result.wordTimings.find((timing) => timing.word === 'Second')!;
    expect(second.start).toBeGreaterThan(result.wordTimings[1]!.end - 0.01);
  });

  it('speaks other languages and fails an unknown voice instead of keeping the last one', async () => {
    const german = await collectSynthesis(espeak.synthesize({ text: 'Guten Tag, wie geht es Ihnen?', voice: 'de' }));
    expect(german.pcm.length).toBeGreaterThan(22050);
    await expect(collectSynthesis(espeak.synthesize({ text: 'hello', voice: 'xx-nowhere' }))).rejects.toThrow(/unknown eSpeak-NG voice/);
  });

  it('applies rate parameters and the speed multiplier', async () => {
    const slow = await collectSynthesis(espeak.synthesize({ text: 'Counting the words here.', voice: 'en-us', parameters: { rate: 120 } }));
    const fast = await collectSynthesis(espeak.synthesize({ text: 'Counting the words here.', voice: 'en-us', parameters: { rate: 120 }, speed: 2 }));
    expect(fast.pcm.length).toBeLessThan(slow.pcm.length * 0.7);
  });
});

describe('TtsRouter', () => {
  it('routes by the voice service and passes catalog parameters', async () => {
    const fliteAudio = await collectSynthesis(router.synthesize({ voice: { service: 'flite', voice: 'kal', _extra: { duration_stretch: 1 } }, text: 'Hi.' }));
    expect(fliteAudio.sampleRate).toBe(8000);
    const espeakAudio = await collectSynthesis(
      router.synthesize({ voice: { service: 'espeak-ng', voice: 'de', _extra: { rate: 175, pitch: 50 } }, text: 'Hallo.' }),
    );
    expect(espeakAudio.sampleRate).toBe(22050);
    expect(() => router.synthesize({ voice: { service: 'openai', voice: 'alloy' }, text: 'Hi.' })).toThrow(TtsServiceUnavailableError);
    expect(await router.status()).toEqual({ flite: { available: true }, 'espeak-ng': { available: true } });
  });
});
