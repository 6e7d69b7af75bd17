import { EspeakEngine } from '../src/server/speech/tts/espeak-engine.js';
import { FliteEngine } from '../src/server/speech/tts/flite-engine.js';
import { concatPcm } from '../src/server/speech/codecs/pcm.js';
import { measureVoice } from '../src/server/speech/cloning/voice-profile.js';
const espeak = new EspeakEngine(); const flite = new FliteEngine();
const text = 'The weather today is quite pleasant, and we plan to walk along the river before dinner. Tomorrow we will visit the museum in the city centre.';
async function measure(engine: any, voice: string, parameters?: any) {
  const chunks: Int16Array[] = []; let sr = 0;
  for await (const c of engine.synthesize({ text, voice, parameters })) { chunks.push(c.pcm); sr = c.sampleRate; }
  const t = performance.now(); const p = await measureVoice(concatPcm(chunks), sr);
  return `${voice} ${JSON.stringify(parameters ?? {})} f0=${p.medianF0.toFixed(1)} [${p.f0Low.toFixed(0)}-${p.f0High.toFixed(0)}] syl/s=${p.syllablesPerSecond.toFixed(2)} (${(performance.now()-t).toFixed(0)}ms)`;
}
for (const pitch of [10, 30, 50, 70, 90]) console.log(await measure(espeak, 'en-us', { pitch }));
for (const pitch of [10, 50, 90]) console.log(await measure(espeak, 'en-us+f3', { pitch }));
for (const rate of [120, 180, 240]) console.log(await measure(espeak, 'en-us', { rate }));
for (const v of ['slt', 'rms', 'awb', 'kal16']) console.log(await measure(flite, v));
await espeak.close(); await flite.close();
