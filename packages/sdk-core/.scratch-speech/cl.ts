import { EspeakEngine } from '../src/server/speech/tts/espeak-engine.js';
import { collectSynthesis } from '../src/server/speech/tts/collect-synthesis.js';
import { measureVoice } from '../src/server/speech/cloning/voice-profile.js';
const espeak = new EspeakEngine();
const text = 'The weather today is quite pleasant, and we plan to walk along the river before dinner. Tomorrow we will visit the museum.';
for (const [voice, pitch, range] of [['en-us+f3', 14, 50], ['en-us+f3', 14, 20], ['en-us+f3', 0, 50], ['en-us+f3', 25, 50], ['en-us+f2', 50, 50], ['en-us+f1', 50, 50], ['en-us+f4', 50, 50],['en-us+f5', 50, 50]] as const) {
  const a = await collectSynthesis(espeak.synthesize({ text, voice, parameters: { pitch, range } }));
  const p = await measureVoice(a.pcm, a.sampleRate);
  console.log(voice, pitch, range, p.medianF0.toFixed(1), p.f0Low.toFixed(0), p.f0High.toFixed(0));
}
await espeak.close();
