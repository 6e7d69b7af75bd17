import { FliteEngine } from '../src/server/speech/tts/flite-engine.js';
import { EspeakEngine } from '../src/server/speech/tts/espeak-engine.js';
const flite = new FliteEngine(); const espeak = new EspeakEngine();
let t = performance.now(); await flite.warmUp(); await espeak.warmUp(); console.log('warm', performance.now() - t);
for (const [engine, voice] of [[flite, 'slt'], [flite, 'kal'], [espeak, 'en-us'], [espeak, 'de']] as const) {
  t = performance.now(); let first = 0; let n = 0; let sr = 0; const words: string[] = [];
  for await (const c of engine.synthesize({ text: 'Hello there, this is a test of the speech system. How are you today?', voice })) {
    if (!first) first = performance.now() - t; n += c.pcm.length; sr = c.sampleRate; c.wordTimings?.forEach(w => words.push(`${w.word}@${w.start.toFixed(2)}-${w.end.toFixed(2)}`));
  }
  console.log(engine.service, voice, 'first', first.toFixed(1), 'total', (performance.now() - t).toFixed(1), 'dur', (n / sr).toFixed(2), words.join(' '));
}
try { for await (const c of espeak.synthesize({ text: 'x', voice: 'zz-bad' })) {} } catch (e) { console.log('bad voice:', (e as Error).message); }
console.log(await flite.worker.injectFault('exit').catch(e => e.message));
for await (const c of flite.synthesize({ text: 'after crash', voice: 'rms' })) console.log('after crash ok', c.pcm.length);
console.log(await flite.worker.injectFault('hang', 500).catch(e => e.message));
for await (const c of flite.synthesize({ text: 'after hang', voice: 'rms' })) console.log('after hang ok', c.pcm.length, flite.worker.stats);
await flite.close(); await espeak.close();
