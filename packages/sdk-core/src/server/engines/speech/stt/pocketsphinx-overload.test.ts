import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { requireComponent } from '../../../../../tests/support/components.js';
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
afterAll(() => flite.close());

/** Niceness of each thread of this process (Linux /proc), by thread id. */
function threadNiceness(): Map<string, number> {
  const result = new Map<string, number>();
  for (const task of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    result.set(task, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return result;
}

describe.skipIf(!available)('pocketsphinx under more utterances than decoders', () => {
  it('gives up the utterance that waited longest (empty final), and the others are still transcribed', async () => {
    const stt = new PocketsphinxEngine({ poolSize: 1, maxWaiting: 1 });
    try {
      const sentence = 'Please call me tomorrow morning.';
      const { pcm, sampleRate } = await collectSynthesis(flite.synthesize({ text: sentence, voice: 'slt' }));
      const [holding, oldest, newest] = [0, 1, 2].map(() => stt.createSession({ sampleRate }));
      const finals: TranscriptEvent[] = [];
      oldest!.on('transcript', (event) => finals.push(event));
      // The first takes the only decoder; the second waits; the third waits too, one more than allowed.
      for (const session of [holding!, oldest!, newest!]) session.push(pcm);
      const [first, second, third] = await Promise.all([holding!.finish(), oldest!.finish(), newest!.finish()]);
      expect(second).toBe('');
      expect(finals).toEqual([expect.objectContaining({ type: 'final', text: '' })]);
      expect(stt.stats.givenUp).toBe(1);
      expect(wordErrorRate(sentence, first)).toBeLessThan(0.25);
      expect(wordErrorRate(sentence, third)).toBeLessThan(0.25);
      for (const session of [holding!, oldest!, newest!]) session.close();
    } finally {
      await stt.close();
    }
  });

  it('does not count an utterance closed while it waited: the next one waits in its place', async () => {
    const stt = new PocketsphinxEngine({ poolSize: 1, maxWaiting: 1 });
    try {
      const sentence = 'The weather is nice today.';
      const { pcm, sampleRate } = await collectSynthesis(flite.synthesize({ text: sentence, voice: 'slt' }));
      const [holding, closed, next] = [0, 1, 2].map(() => stt.createSession({ sampleRate }));
      holding!.push(pcm);
      closed!.push(pcm);
      closed!.close();
      next!.push(pcm);
      const [first, second] = await Promise.all([holding!.finish(), next!.finish()]);
      expect(stt.stats.givenUp).toBe(0);
      expect(wordErrorRate(sentence, first)).toBeLessThan(0.25);
      expect(wordErrorRate(sentence, second)).toBeLessThan(0.25);
      for (const session of [holding!, next!]) session.close();
    } finally {
      await stt.close();
    }
  });

  it.skipIf(process.platform !== 'linux')('runs its decoders at a lower priority than the main thread (media, VAD)', async () => {
    const before = threadNiceness();
    const stt = new PocketsphinxEngine({ poolSize: 1, niceness: 7 });
    try {
      await stt.warmUp();
      const started = [...threadNiceness()].filter(([thread]) => !before.has(thread));
      expect(started.map(([, niceness]) => niceness)).toContain(7);
      expect(threadNiceness().get(String(process.pid))).toBe(0);
    } finally {
      await stt.close();
    }
  });
});
