import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeOpenAiRealtimeTranscription,
  type FakeOpenAiRealtimeTranscription,
} from '../../../../../../testing/streaming-stt/fake-openai-realtime-transcription.js';
import { loudSpan, pushPaced, silence, toneBurst } from '../../../../../../testing/streaming-stt/paced-audio.js';
import { recordStream } from '../../../../../../testing/streaming-stt/recorded-stream.js';
import { hearWords, plainWord } from '../../../../../../testing/streaming-stt/seeded-word-errors.js';
import { concatPcm } from '../../../codecs/pcm.js';
import { collectSynthesis } from '../../../tts/collect-synthesis.js';
import { FliteEngine } from '../../../tts/flite-engine.js';
import type { StreamingSttUsage } from '../streaming-stt.js';
import { OpenAiRealtimeTranscription } from './openai-realtime-stt.js';

const API_KEY = 'sk-test-realtime-0123456789';
const FIRST = 'Could you read me the weather for Paris?';
const SECOND = 'Thank you very much.';
const VAD = { silenceDurationMs: 300, prefixPaddingMs: 300 };

const flite = new FliteEngine();
let speech: { first: Int16Array; second: Int16Array; sampleRate: number };
beforeAll(async () => {
  const first = await collectSynthesis(flite.synthesize({ text: FIRST, voice: 'slt' }));
  const second = await collectSynthesis(flite.synthesize({ text: SECOND, voice: 'slt' }));
  speech = { first: first.pcm, second: second.pcm, sampleRate: first.sampleRate };
});
afterAll(() => flite.close());

let fake: FakeOpenAiRealtimeTranscription | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const words = (text: string) => text.split(/\s+/).map(plainWord);

describe('OpenAI realtime transcription adapter against the local fake', () => {
  it('configures a transcription session and streams deltas then a completed transcript with estimated word times', async () => {
    fake = await startFakeOpenAiRealtimeTranscription({ apiKey: API_KEY, script: [FIRST] });
    const usage: StreamingSttUsage[] = [];
    const engine = new OpenAiRealtimeTranscription({
      apiKey: API_KEY,
      url: fake.url,
      turnDetection: VAD,
      language: 'en-US',
      meter: (record) => usage.push(record),
    });
    const rate = speech.sampleRate;
    const audio = concatPcm([silence(rate, 400), speech.first, silence(rate, 700)]);
    const stream = engine.open({ sampleRate: rate });
    expect(stream.vendorSampleRate).toBe(24000);
    const recorded = recordStream(stream);

    await pushPaced(stream, audio, rate);
    const final = await recorded.next('final');
    await stream.close();

    const request = fake.requests[0]!;
    expect(request.path).toBe('/v1/realtime');
    expect(request.query).toEqual({ intent: 'transcription' });
    expect(request.headers).toMatchObject({ authorization: `Bearer ${API_KEY}`, 'openai-beta': 'realtime=v1' });
    expect(fake.sessionUpdates).toEqual([
      {
        input_audio_format: 'pcm16',
        input_audio_transcription: { model: 'gpt-4o-transcribe', language: 'en' },
        turn_detection: { type: 'server_vad', threshold: 0.5, prefix_padding_ms: 300, silence_duration_ms: 300 },
        include: ['item.input_audio_transcription.logprobs'],
      },
    ]);
    expect(fake.violations).toEqual([]);

    const types = recorded.events.map((event) => event.type);
    expect(types.slice(0, 2)).toEqual(['speech_started', 'utterance_end']);
    expect(types.indexOf('interim')).toBeLessThan(types.indexOf('final'));
    const interims = recorded.of('interim');
    expect(interims.length).toBeGreaterThanOrEqual(3);
    const scripted = words(FIRST);
    for (const interim of interims) expect(scripted.slice(0, interim.words.length)).toEqual(interim.words.map((word) => plainWord(word.word)));

    expect(final).toMatchObject({ text: FIRST, endOfSpeech: true, fromFinalize: false });
    expect(final.words.map((word) => plainWord(word.word))).toEqual(scripted);
    // Times spread over the speech the server VAD reported (its padding and silence taken back out).
    const started = recorded.of('speech_started')[0]!.at;
    const ended = recorded.of('utterance_end')[0]!.lastWordEnd!;
    const bounds = loudSpan(audio, rate);
    expect(started).toBeCloseTo(bounds.start, 1);
    expect(ended).toBeCloseTo(bounds.end, 1);
    expect(final.words[0]!.start).toBe(started);
    expect(final.words.at(-1)!.end).toBeCloseTo(ended, 2);
    // Confidences from the token log probabilities the session asked for.
    for (const word of final.words) expect(word.confidence).toBeGreaterThan(0.85);

    expect(recorded.of('closed')[0]!.audioSeconds).toBeCloseTo(audio.length / rate, 2);
    expect(usage).toEqual([{ provider: 'openai-realtime', model: 'gpt-4o-transcribe', audioSeconds: recorded.of('closed')[0]!.audioSeconds }]);
    expect(fake.audioSeconds).toBeCloseTo(usage[0]!.audioSeconds, 2);
  });

  it('fails with a clear unauthorized error on a bad key (OpenAI error event, close 3000), without reconnecting', async () => {
    fake = await startFakeOpenAiRealtimeTranscription({ apiKey: API_KEY, script: [FIRST] });
    const engine = new OpenAiRealtimeTranscription({ apiKey: 'sk-wrong-key-9999', url: fake.url });
    const recorded = recordStream(engine.open({ sampleRate: 24000 }));

    const closed = await recorded.next('closed');
    expect(closed.error).toMatchObject({ code: 'unauthorized', fatal: true });
    expect(closed.error!.message).toMatch(/OpenAI realtime refused the API key: Incorrect API key provided: sk-\*+9999.*check the API key/);
    expect(recorded.of('reconnecting')).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a server error event and keeps the stream going', async () => {
    fake = await startFakeOpenAiRealtimeTranscription({ apiKey: API_KEY, script: [FIRST] });
    const engine = new OpenAiRealtimeTranscription({ apiKey: API_KEY, url: fake.url, turnDetection: null });
    const stream = engine.open({ sampleRate: 24000 });
    const recorded = recordStream(stream);
    // Nothing buffered yet: the server refuses the commit with an error event.
    await new Promise((resolve) => setTimeout(resolve, 100));
    stream.finalize();
    const error = await recorded.next('error');
    expect(error.error).toMatchObject({ code: 'vendor', fatal: false });
    expect(error.error.message).toMatch(/buffer too small.*input_audio_buffer_commit_empty/);

    // Manual turns: speech, then a commit transcribes it.
    await pushPaced(stream, toneBurst(24000, { leadMs: 100, toneMs: 1200, tailMs: 400 }), 24000, { speed: 2 });
    stream.finalize();
    const final = await recorded.next('final');
    expect(final).toMatchObject({ text: FIRST, fromFinalize: true, endOfSpeech: false });
    await stream.close();
    expect(recorded.of('closed')[0]!.error).toBeUndefined();
  });

  it('reconnects after the server drops the connection mid-utterance, and transcribes the next utterance', async () => {
    fake = await startFakeOpenAiRealtimeTranscription({ apiKey: API_KEY, script: [FIRST, SECOND] });
    const engine = new OpenAiRealtimeTranscription({ apiKey: API_KEY, url: fake.url, turnDetection: VAD, reconnect: { initialDelayMs: 50 } });
    const rate = speech.sampleRate;
    const stream = engine.open({ sampleRate: rate });
    const recorded = recordStream(stream);

    await pushPaced(stream, concatPcm([silence(rate, 200), speech.first.subarray(0, Math.floor(speech.first.length / 2))]), rate);
    await recorded.next('speech_started');
    fake.dropConnections();
    await pushPaced(stream, silence(rate, 600), rate);
    await recorded.next('reconnected');
    await pushPaced(stream, concatPcm([speech.second, silence(rate, 700)]), rate);
    const final = await recorded.next('final');
    await stream.close();

    expect(recorded.of('reconnecting')[0]!.cause.message).toMatch(/OpenAI realtime closed the connection \(1006\)/);
    expect(fake.requests).toHaveLength(2);
    // The new connection configured its session again.
    expect(fake.sessionUpdates).toHaveLength(2);
    expect(final.text).toBe(SECOND);
    expect(final.words[0]!.start).toBeGreaterThan(1);
    expect(recorded.of('error')).toEqual([]);
  });

  it('replaces words at the configured word error rate, the same way for the same seed', async () => {
    const heard = hearWords(FIRST, { rate: 0.5, seed: 11, utterance: 0 });
    expect(hearWords(FIRST, { rate: 0.5, seed: 11, utterance: 0 })).toEqual(heard);
    expect(heard.some((word) => word.substituted)).toBe(true);

    fake = await startFakeOpenAiRealtimeTranscription({ apiKey: API_KEY, script: [FIRST], wordErrorRate: 0.5, seed: 11 });
    const engine = new OpenAiRealtimeTranscription({ apiKey: API_KEY, url: fake.url, turnDetection: VAD });
    const stream = engine.open({ sampleRate: 24000 });
    const recorded = recordStream(stream);
    await pushPaced(stream, toneBurst(24000, { toneMs: 1500, tailMs: 500 }), 24000, { speed: 2 });
    const final = await recorded.next('final');
    await stream.close();

    expect(final.text).toBe(heard.map((word) => word.token).join(' '));
    expect(final.text).not.toBe(FIRST);
    for (const [index, word] of final.words.entries()) {
      if (heard[index]!.substituted) expect(word.confidence).toBeLessThan(0.65);
      else expect(word.confidence).toBeGreaterThan(0.85);
    }
  });
});
