import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concatPcm } from '../codecs/pcm.js';
import { collectSynthesis } from '../tts/collect-synthesis.js';
import { FliteEngine } from '../tts/flite-engine.js';
import { SpeechSegmenter, type VadEvent } from './speech-segmenter.js';
import { VoiceActivityDetector } from './voice-activity-detector.js';

const flite = new FliteEngine();
let speech: Int16Array;
let speechSeconds: number;
beforeAll(async () => {
  const audio = await collectSynthesis(flite.synthesize({ text: 'Turn detection needs clear boundaries.', voice: 'slt' }));
  // Flite pads its output with a little silence; trim to the audible part to know the true boundaries.
  let first = 0;
  let last = audio.pcm.length - 1;
  while (Math.abs(audio.pcm[first]!) < 300) first++;
  while (Math.abs(audio.pcm[last]!) < 300) last--;
  speech = audio.pcm.slice(first, last + 1);
  speechSeconds = speech.length / 16000;
});
afterAll(() => flite.close());

async function detect(vad: VoiceActivityDetector, pcm: Int16Array, options: { hangoverMs?: number } = {}) {
  const stream = vad.createStream({ sampleRate: 16000, hangoverMs: options.hangoverMs ?? 400, minSpeechMs: 100 });
  const events: VadEvent[] = [];
  // 20 ms pushes, as a transport would deliver them.
  for (let offset = 0; offset < pcm.length; offset += 320) events.push(...(await stream.push(pcm.subarray(offset, offset + 320))));
  events.push(...(await stream.end()));
  return events;
}

describe.each(['silero', 'energy'] as const)('%s VAD', (engine) => {
  let vad: VoiceActivityDetector;
  beforeAll(async () => {
    vad = await VoiceActivityDetector.create({ engine });
  });
  afterAll(() => vad.close());

  it('finds the start and end of speech padded with silence', async () => {
    expect(vad.backend).toBe(engine);
    const silence = new Int16Array(16000);
    const events = await detect(vad, concatPcm([silence, speech, silence]));
    expect(events.map((event) => event.type)).toEqual(['speech_start', 'speech_end']);
    expect(events[0]!.at).toBeGreaterThan(0.85);
    expect(events[0]!.at).toBeLessThan(1.15);
    expect(events[1]!.at).toBeGreaterThan(1 + speechSeconds - 0.35);
    expect(events[1]!.at).toBeLessThan(1 + speechSeconds + 0.2);
  });

  it('reports nothing for silence', async () => {
    expect(await detect(vad, new Int16Array(32000))).toEqual([]);
  });

  it('ends speech within a frame of where the voice stops, however long the model holds its score up', async () => {
    const silence = new Int16Array(16000);
    const events = await detect(vad, concatPcm([silence, speech, silence]), { hangoverMs: 128 });
    const end = events.find((event) => event.type === 'speech_end')!;
    expect(Math.abs(end.at - (1 + speechSeconds))).toBeLessThan(0.04);
  });

  it('separates two utterances with a gap longer than the hangover', async () => {
    const gap = new Int16Array(16000);
    const events = await detect(vad, concatPcm([gap, speech, gap, speech, gap]), { hangoverMs: 500 });
    expect(events.map((event) => event.type)).toEqual(['speech_start', 'speech_end', 'speech_start', 'speech_end']);
  });
});

describe('SpeechSegmenter', () => {
  const frame = 0.032;
  const run = (scores: number[], options = {}) => {
    const segmenter = new SpeechSegmenter(options);
    return scores.flatMap((score) => segmenter.push(score, frame));
  };

  it('ignores speech shorter than the minimum', () => {
    expect(run([0, 0.9, 0.9, 0, 0, 0], { minSpeechMs: 100 })).toEqual([]);
  });

  it('waits for the hangover before ending speech, dating events at speech frames', () => {
    const scores = [0, ...Array(10).fill(0.9), ...Array(20).fill(0)];
    const events = run(scores, { minSpeechMs: 64, hangoverMs: 320 });
    expect(events).toHaveLength(2);
    expect(events[0]).toEqual({ type: 'speech_start', at: expect.closeTo(0.032, 5) });
    expect(events[1]).toMatchObject({ type: 'speech_end', at: expect.closeTo(0.352, 5), duration: expect.closeTo(0.32, 5) });
  });

  it('counts the hangover from the last frame loud enough to be the voice (frame levels given)', () => {
    const segmenter = new SpeechSegmenter({ minSpeechMs: 64, hangoverMs: 128, tailDropDb: 35 });
    const events: VadEvent[] = [];
    const push = (score: number, levelDb: number) => events.push(...segmenter.push(score, frame, levelDb));
    for (let index = 0; index < 10; index++) push(0.95, -12);
    // The voice stops; the model's score stays up for 4 frames (128 ms), as Silero's does.
    for (let index = 0; index < 4; index++) push(0.9, -70);
    expect(segmenter.quietMs).toBeCloseTo(128, 5);
    expect(events.map((event) => event.type)).toEqual(['speech_start']);
    push(0.1, -70);
    expect(events[1]).toMatchObject({ type: 'speech_end', at: expect.closeTo(0.32, 5) });
    expect(segmenter.quietMs).toBe(0);
  });

  it('keeps a quiet stretch the model calls speech (a soft ending) as speech within the tail', () => {
    const segmenter = new SpeechSegmenter({ minSpeechMs: 64, hangoverMs: 128, tailDropDb: 35 });
    const events: VadEvent[] = [];
    for (let index = 0; index < 10; index++) events.push(...segmenter.push(0.95, frame, -12));
    for (let index = 0; index < 5; index++) events.push(...segmenter.push(0.8, frame, -40));
    for (let index = 0; index < 5; index++) events.push(...segmenter.push(0.05, frame, -90));
    expect(events[1]).toMatchObject({ type: 'speech_end', at: expect.closeTo(0.48, 5) });
  });

  it('keeps speech going through dips shorter than the hangover', () => {
    const scores = [...Array(10).fill(0.9), ...Array(5).fill(0.1), ...Array(10).fill(0.9), ...Array(30).fill(0)];
    expect(run(scores, { hangoverMs: 320 }).map((event) => event.type)).toEqual(['speech_start', 'speech_end']);
  });
});
