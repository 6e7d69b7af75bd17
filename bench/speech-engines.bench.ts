/**
 * Speech engine figures: time to first audio (short sentence), real-time factor per engine, STT
 * final-text latency after end of speech, VAD cost per 32 ms frame. Run: `npx tsx bench/speech-engines.ts`.
 */
import { existsSync } from 'node:fs';
import {
  resampleLinear,
  PocketsphinxEngine,
  wordErrorRate,
  collectSynthesis,
  EspeakEngine,
  FliteEngine,
  VoiceActivityDetector,
  type TtsEngine,
} from '@palaver/sdk-core/testing';

const SHORT = 'Hello, how can I help you today?';
const PARAGRAPH =
  'The platform must speak and listen on a bare machine with no keys and no downloads. ' +
  'It plugs real vendors in behind the same interfaces, so a deployment can switch providers without touching the agent. ' +
  'Every engine runs in its own worker thread and is restarted when it fails.';
const RUNS = 7;

const median = (values: number[]) => [...values].sort((left, right) => left - right)[Math.floor(values.length / 2)]!;
const format = (value: number, digits = 1) => value.toFixed(digits);

async function ttsFigures(engine: TtsEngine, voice: string) {
  await engine.warmUp?.();
  const firstAudio: number[] = [];
  for (let run = 0; run < RUNS; run++) firstAudio.push((await collectSynthesis(engine.synthesize({ text: SHORT, voice }))).firstAudioMs);
  const factors: number[] = [];
  for (let run = 0; run < 3; run++) {
    const started = performance.now();
    const result = await collectSynthesis(engine.synthesize({ text: PARAGRAPH, voice }));
    factors.push((performance.now() - started) / 1000 / (result.pcm.length / result.sampleRate));
  }
  console.log(
    `tts ${engine.service}/${voice}: first audio p50 ${format(median(firstAudio))} ms (min ${format(Math.min(...firstAudio))}), real-time factor ${format(median(factors), 3)}`,
  );
}

const flite = new FliteEngine();
const espeak = new EspeakEngine();
for (const voice of ['slt', 'kal16', 'rms']) await ttsFigures(flite, voice);
for (const voice of ['en-us', 'de']) await ttsFigures(espeak, voice);

if (existsSync('/usr/share/pocketsphinx/model/en-us/en-us.lm.bin')) {
  const stt = new PocketsphinxEngine();
  const started = performance.now();
  const status = await stt.status();
  console.log(`stt pocketsphinx: decoder start ${format(performance.now() - started, 0)} ms, ${JSON.stringify(status)}`);
  const latencies: number[] = [];
  const errors: number[] = [];
  let audioSeconds = 0;
  for (const [voice, sentence] of [
    ['slt', 'Please call me tomorrow morning.'],
    ['rms', 'The weather is nice today and we are going outside.'],
    ['kal16', 'I would like to order a large pizza with mushrooms.'],
    ['slt', 'Turn left at the next traffic light.'],
  ] as const) {
    const audio = await collectSynthesis(flite.synthesize({ text: sentence, voice }));
    const pcm = resampleLinear(audio.pcm, audio.sampleRate, 48000);
    const session = stt.createSession({ sampleRate: 48000 });
    // Frames arrive in real time (20 ms each), as from a microphone; latency is measured from the
    // last frame (end of speech) to the final text.
    const feedStarted = performance.now();
    for (let offset = 0, frame = 0; offset < pcm.length; offset += 960, frame++) {
      session.push(pcm.subarray(offset, offset + 960));
      const due = feedStarted + (frame + 1) * 20 - performance.now();
      if (due > 0) await new Promise((resolve) => setTimeout(resolve, due));
    }
    const finishStarted = performance.now();
    const text = await session.finish();
    latencies.push(performance.now() - finishStarted);
    audioSeconds += audio.pcm.length / audio.sampleRate;
    errors.push(wordErrorRate(sentence, text));
    session.close();
  }
  console.log(
    `stt pocketsphinx: final text after end of speech p50 ${format(median(latencies), 0)} ms (frames fed in real time), ` +
      `over ${format(audioSeconds)} s of speech, word error ${errors.map((error) => format(error * 100, 0) + '%').join(' ')}`,
  );
  await stt.close();
} else console.log('stt pocketsphinx: not installed, skipped');

for (const engine of ['silero', 'energy'] as const) {
  const vad = await VoiceActivityDetector.create({ engine });
  const stream = vad.createStream({ sampleRate: 16000 });
  const audio = await collectSynthesis(flite.synthesize({ text: PARAGRAPH, voice: 'slt' }));
  const started = performance.now();
  await stream.push(audio.pcm);
  const frames = Math.floor(audio.pcm.length / 512);
  console.log(`vad ${engine}: ${format((performance.now() - started) / frames, 3)} ms per 32 ms frame`);
  await vad.close();
}

await flite.close();
await espeak.close();
