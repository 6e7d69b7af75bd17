import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeDeepgramLive, type FakeDeepgramLive } from '../../../../../../testing/streaming-stt/fake-deepgram-live.js';
import { loudSpan, pushPaced, silence, toneBurst } from '../../../../../../testing/streaming-stt/paced-audio.js';
import { recordStream } from '../../../../../../testing/streaming-stt/recorded-stream.js';
import { plainWord } from '../../../../../../testing/streaming-stt/seeded-word-errors.js';
import { concatPcm } from '../../../codecs/pcm.js';
import { collectSynthesis } from '../../../tts/collect-synthesis.js';
import { FliteEngine } from '../../../tts/flite-engine.js';
import type { StreamingSttUsage } from '../streaming-stt.js';
import { DeepgramLiveStt } from './deepgram-live-stt.js';

const API_KEY = 'dg-test-key-0123';
const FIRST = 'Please book a table for two tonight.';
const SECOND = 'Make it eight o clock.';

const flite = new FliteEngine();
let speech: { first: Int16Array; second: Int16Array; sampleRate: number };
beforeAll(async () => {
  const first = await collectSynthesis(flite.synthesize({ text: FIRST, voice: 'slt' }));
  const second = await collectSynthesis(flite.synthesize({ text: SECOND, voice: 'slt' }));
  speech = { first: first.pcm, second: second.pcm, sampleRate: first.sampleRate };
});
afterAll(() => flite.close());

let fake: FakeDeepgramLive | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const words = (text: string) => text.split(/\s+/).map(plainWord);

describe('Deepgram live adapter against the local Deepgram fake', () => {
  it('streams a spoken utterance: speech started, growing interims, then a speech_final with the words on the audio timeline', async () => {
    fake = await startFakeDeepgramLive({ apiKey: API_KEY, script: [FIRST] });
    const usage: StreamingSttUsage[] = [];
    const engine = new DeepgramLiveStt({ apiKey: API_KEY, url: fake.url, endpointingMs: 300, meter: (record) => usage.push(record) });
    const rate = speech.sampleRate;
    const audio = concatPcm([silence(rate, 300), speech.first, silence(rate, 800)]);
    const stream = engine.open({ sampleRate: rate });
    const recorded = recordStream(stream);

    await pushPaced(stream, audio, rate);
    const final = await recorded.next('final', (event) => event.endOfSpeech);
    await stream.close();

    // The handshake Deepgram expects.
    const request = fake.requests[0]!;
    expect(request.path).toBe('/v1/listen');
    expect(request.headers.authorization).toBe(`Token ${API_KEY}`);
    expect(request.query).toMatchObject({
      model: 'nova-3',
      encoding: 'linear16',
      sample_rate: String(rate),
      channels: '1',
      interim_results: 'true',
      endpointing: '300',
      vad_events: 'true',
      smart_format: 'true',
    });

    // Order: speech started, interims of growing prefixes of the words, then the final.
    const types = recorded.events.map((event) => event.type);
    const firstInterim = types.indexOf('interim');
    expect(types.indexOf('speech_started')).toBeLessThan(firstInterim);
    expect(firstInterim).toBeLessThan(types.indexOf('final'));
    const interims = recorded.of('interim');
    expect(interims.length).toBeGreaterThanOrEqual(3);
    const scripted = words(FIRST);
    for (const interim of interims) expect(scripted.slice(0, interim.words.length)).toEqual(interim.words.map((word) => word.word));
    expect(interims.map((interim) => interim.words.length)).toEqual([...interims.map((interim) => interim.words.length)].sort((a, b) => a - b));

    expect(final).toMatchObject({ text: FIRST, endOfSpeech: true, fromFinalize: false });
    expect(final.words.map((word) => word.word)).toEqual(scripted);
    // Word times follow the speech in the audio pushed (300 ms of silence first), in order, without overlaps.
    const bounds = loudSpan(audio, rate);
    expect(final.words[0]!.start).toBeCloseTo(bounds.start, 1);
    expect(final.words.at(-1)!.end).toBeCloseTo(bounds.end, 1);
    for (const [index, word] of final.words.entries()) {
      expect(word.end).toBeGreaterThan(word.start);
      if (index > 0) expect(word.start).toBeGreaterThanOrEqual(final.words[index - 1]!.end);
      expect(word.confidence).toBeGreaterThan(0.85);
    }
    const started = recorded.of('speech_started')[0]!;
    expect(started.at).toBeCloseTo(bounds.start, 1);

    // Closed with CloseStream (Deepgram's flush), metered once with every second sent.
    expect(fake.controls).toContain('CloseStream');
    expect(fake.violations).toEqual([]);
    const closed = recorded.of('closed');
    expect(closed).toHaveLength(1);
    expect(closed[0]!.audioSeconds).toBeCloseTo(audio.length / rate, 3);
    expect(usage).toEqual([{ provider: 'deepgram', model: 'nova-3', audioSeconds: closed[0]!.audioSeconds }]);
    expect(fake.audioSeconds).toBeCloseTo(audio.length / rate, 2);
  });

  it('fails with a clear unauthorized error on a bad key, without reconnecting', async () => {
    fake = await startFakeDeepgramLive({ apiKey: API_KEY, script: [FIRST] });
    const engine = new DeepgramLiveStt({ apiKey: 'not-the-key', url: fake.url });
    const stream = engine.open({ sampleRate: 16000 });
    const recorded = recordStream(stream);
    stream.push(toneBurst(16000, { toneMs: 200 }));

    const closed = await recorded.next('closed');
    const [error] = recorded.of('error');
    expect(error!.error).toMatchObject({ name: 'StreamingSttError', code: 'unauthorized', fatal: true });
    expect(error!.error.message).toMatch(/Deepgram refused the connection with HTTP 401.*INVALID_AUTH.*check the API key/);
    expect(closed.error).toBe(error!.error);
    expect(recorded.of('reconnecting')).toEqual([]);
    expect(fake.requests).toHaveLength(1);
  });

  it('says where it could not connect when nothing listens, after its bounded reconnects', async () => {
    fake = await startFakeDeepgramLive({ apiKey: API_KEY, script: [] });
    const url = fake.url;
    await fake.close();
    fake = undefined;
    const engine = new DeepgramLiveStt({ apiKey: API_KEY, url, reconnect: { attempts: 2, initialDelayMs: 10 } });
    const recorded = recordStream(engine.open({ sampleRate: 16000 }));

    const closed = await recorded.next('closed');
    expect(recorded.of('reconnecting').map((event) => event.attempt)).toEqual([1, 2]);
    expect(closed.error).toMatchObject({ code: 'unreachable', fatal: true });
    expect(closed.error!.message).toMatch(/could not connect to Deepgram at ws:\/\/127\.0\.0\.1:\d+\/v1\/listen: .*ECONNREFUSED.*gave up after 2 reconnect/);
  });

  it('reconnects after the server drops the connection mid-utterance, and transcribes the next utterance on the same timeline', async () => {
    fake = await startFakeDeepgramLive({ apiKey: API_KEY, script: [FIRST, SECOND] });
    const engine = new DeepgramLiveStt({ apiKey: API_KEY, url: fake.url, endpointingMs: 300, reconnect: { initialDelayMs: 50 } });
    const rate = speech.sampleRate;
    const stream = engine.open({ sampleRate: rate });
    const recorded = recordStream(stream);

    const lead = silence(rate, 200);
    const halfFirst = speech.first.subarray(0, Math.floor(speech.first.length / 2));
    await pushPaced(stream, concatPcm([lead, halfFirst]), rate);
    await recorded.next('interim');
    fake.dropConnections();
    await pushPaced(stream, silence(rate, 600), rate);
    await recorded.next('reconnected');
    const before = lead.length + halfFirst.length + Math.round(rate * 0.6);
    await pushPaced(stream, concatPcm([speech.second, silence(rate, 800)]), rate);
    const final = await recorded.next('final', (event) => event.endOfSpeech);
    await stream.close();

    expect(recorded.of('reconnecting')[0]).toMatchObject({ attempt: 1, cause: { code: 'vendor' } });
    expect(recorded.of('reconnecting')[0]!.cause.message).toMatch(/Deepgram closed the connection \(1006\)/);
    expect(fake.requests).toHaveLength(2);
    expect(final.text).toBe(SECOND);
    // The new connection's times start at zero; the adapter puts them back on the stream's timeline.
    const secondStart = (before + loudSpan(speech.second, rate).start * rate) / rate;
    expect(final.words[0]!.start).toBeCloseTo(secondStart, 1);
    expect(recorded.of('error')).toEqual([]);
  });

  it('settles ongoing speech on finalize (from_finalize) and keeps the connection alive with KeepAlive while quiet', async () => {
    fake = await startFakeDeepgramLive({ apiKey: API_KEY, script: [FIRST] });
    const usage: StreamingSttUsage[] = [];
    const engine = new DeepgramLiveStt({ apiKey: API_KEY, url: fake.url, keepAliveMs: 100 });
    const stream = engine.open({ sampleRate: 16000, meter: (record) => usage.push(record) });
    const recorded = recordStream(stream);

    // A long tone: the fake hears speech going on and reveals words at the assumed rate.
    await pushPaced(stream, toneBurst(16000, { leadMs: 100, toneMs: 900, tailMs: 0 }), 16000);
    stream.finalize();
    const final = await recorded.next('final');
    expect(final).toMatchObject({ fromFinalize: true, endOfSpeech: false });
    expect(final.words.length).toBeGreaterThan(0);
    expect(words(FIRST).slice(0, final.words.length)).toEqual(final.words.map((word) => word.word));

    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(fake.controls).toContain('Finalize');
    expect(fake.controls).toContain('KeepAlive');
    await stream.close();
    expect(usage).toEqual([{ provider: 'deepgram', model: 'nova-3', audioSeconds: 1 }]);
  });
});
