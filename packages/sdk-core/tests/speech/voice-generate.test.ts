import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, ModerationError, NotFoundError, UsageLimitExceededError, type PalaverClient } from '../../src/index.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import type { FliteEngine } from '../../src/server/engines/speech/tts/flite-engine.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { decodeAudio, medianPitch, pocketsphinxAvailable, transcribe } from './speech-test-support.js';

const sttAvailable = pocketsphinxAvailable();

async function failure(promise: PromiseLike<unknown>): Promise<Error & { message: string; status?: number; type?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

async function generate(test: TestServer, body: unknown, headers: Record<string, string> = {}) {
  const response = await test.server.fetch(
    new Request('http://palaver.test/v1/voice/generate', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', 'x-api-key': test.server.apiKey, ...headers },
    }),
  );
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe.each(await storeKinds())('POST /v1/voice/generate (%s)', (kind) => {
  let test: TestServer;
  let alice: PalaverClient;

  beforeAll(async () => {
    test = await startTestServer(kind);
    alice = test.clientWith({ usageToken: (await test.client.usage.createToken({ human: 'alice' })).token });
  });
  afterAll(async () => test.close());

  it.each([
    ['flite-slt', 'audio/wav', 'Please call me tomorrow morning.'],
    ['flite-rms', 'audio/mpeg', 'The weather is nice today and we are going outside.'],
  ])('%s as %s: real speech the embedded STT understands (word error < 10 %%)', async (voice, accept, sentence) => {
    const { response, bytes } = await generate(test, { text: sentence, voice_id: voice }, { accept });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(accept);
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length);
    const audio = await decodeAudio(bytes, accept);
    expect(audio.sampleRate).toBe(16_000);
    const seconds = audio.pcm.length / audio.sampleRate;
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(6);
    if (sttAvailable) expect(wordErrorRate(sentence, await transcribe(test.server.services.speech, audio.pcm, audio.sampleRate))).toBeLessThan(0.1);
  });

  it('answers MP3 by default with the default voice (flite-slt, female pitch) and honours q-values', async () => {
    const blob = await test.client.voices.generate({ text: 'Good morning, everybody.' });
    expect(blob.type).toBe('audio/mpeg');
    const audio = await decodeAudio(new Uint8Array(await blob.arrayBuffer()), 'audio/mpeg');
    expect(await medianPitch(audio.pcm, audio.sampleRate)).toBeGreaterThan(150);
    const { response } = await generate(test, { text: 'Hello.' }, { accept: 'audio/mpeg;q=0.4, audio/wav;q=0.9' });
    expect(response.headers.get('content-type')).toBe('audio/wav');
  });

  it('speaks eSpeak-NG voices for other languages', async () => {
    const { response, bytes } = await generate(test, { text: 'Guten Morgen, wie geht es dir?', voice_id: 'espeak-de' }, { accept: 'audio/wav' });
    expect(response.status).toBe(200);
    const audio = await decodeAudio(bytes, 'audio/wav');
    expect(audio.sampleRate).toBe(22_050);
    expect(audio.pcm.length / audio.sampleRate).toBeGreaterThan(1);
  });

  it('records voice_synthesis_seconds for the human and enforces the human limit before synthesizing', async () => {
    const { usage } = test.server.services;
    const before = await usage.consumption(test.server.services.store.db, test.server.project, 'alice', 'voice_synthesis_seconds');
    const blob = await alice.voices.generate({ text: 'One two three four five.' }, { headers: { accept: 'audio/wav' } });
    const audio = await decodeAudio(new Uint8Array(await blob.arrayBuffer()), 'audio/wav');
    const after = await usage.consumption(test.server.services.store.db, test.server.project, 'alice', 'voice_synthesis_seconds');
    expect(after.used - before.used).toBeCloseTo(audio.pcm.length / audio.sampleRate, 2);

    await test.client.usage.updateLimits({ human: 'limited', limits: [{ type: 'voice_synthesis_seconds', value: 1 }] });
    const limited = test.clientWith({ apiKey: test.server.apiKey, humanId: 'limited' });
    await limited.voices.generate({ text: 'This sentence certainly lasts longer than one second.' });
    const jobsBefore = (test.server.services.speech.tts.engine('flite') as FliteEngine).worker.stats.jobs;
    const error = await failure(limited.voices.generate({ text: 'Again.' }));
    expect(UsageLimitExceededError.isInstance(error)).toBe(true);
    expect(error.status).toBe(400);
    expect((test.server.services.speech.tts.engine('flite') as FliteEngine).worker.stats.jobs).toBe(jobsBefore);
  });

  it('rejects empty and over-long text (400 invalid_input naming text), unknown and foreign voices (404), bad keys (401)', async () => {
    let error = await failure(test.client.voices.generate({ text: '' }));
    expect(BadRequestError.isInstance(error) && error.type === 'invalid_input').toBe(true);
    expect(error.message).toContain('text');
    error = await failure(test.client.voices.generate({ text: 'a'.repeat(5_001) }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    expect(error.message).toContain('text');
    expect((await generate(test, { text: 'a '.repeat(2_500) })).response.status).toBe(200);
    error = await failure(test.client.voices.generate({ text: '...' }));
    expect(BadRequestError.isInstance(error)).toBe(true);
    error = await failure(test.client.voices.generate({ text: 'Hello', voice_id: 'voice_does_not_exist' }));
    expect(NotFoundError.isInstance(error)).toBe(true);

    const bobs = await test.server.services.voices.createProjectVoice(
      { project: test.server.project, kind: 'token', human: 'bob', credentialId: 'test' },
      { name: 'Bob voice', language: 'en', service: 'flite', voice: 'rms' },
    );
    expect(NotFoundError.isInstance(await failure(alice.voices.generate({ text: 'Hello', voice_id: bobs.id })))).toBe(true);
    expect((await test.client.voices.generate({ text: 'Hello', voice_id: bobs.id })).size).toBeGreaterThan(0);
    error = await failure(test.clientWith({ apiKey: 'pk_wrong_key_000000000000000000' }).voices.generate({ text: 'Hello' }));
    expect(AuthenticationError.isInstance(error)).toBe(true);
  });

  it('moderation: true refuses flagged text with moderation_error (embedded word list); unmoderated or clean text passes', async () => {
    const error = await failure(test.client.voices.generate({ text: 'Listen. I will   KILL you!', moderation: true }));
    expect(ModerationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 400, type: 'moderation_error' });
    expect(error.message).toContain('violence');
    expect((await test.client.voices.generate({ text: 'The skill you need is patience.', moderation: true })).size).toBeGreaterThan(0);
  });

  it('a crashed synthesis worker fails that request with a 500 {error} and the server keeps serving', async () => {
    const flite = test.server.services.speech.tts.engine('flite') as FliteEngine;
    const supervised = flite.worker as unknown as { active?: { started: boolean }; worker?: { terminate(): Promise<number> } };
    const pending = generate(test, { text: Array.from({ length: 40 }, (_, index) => `This is sentence number ${index + 1}.`).join(' ') });
    // Kill the thread while one of this request's jobs runs, as a segfault would.
    const deadline = Date.now() + 10_000;
    while (!supervised.active?.started && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
    expect(supervised.active?.started).toBe(true);
    void supervised.worker?.terminate();
    const { response, bytes } = await pending;
    expect(response.status).toBe(500);
    const body = JSON.parse(new TextDecoder().decode(bytes)) as { error: string; type: string };
    expect(body.error).toMatch(/speech synthesis failed: flite worker exited/);
    const retry = await generate(test, { text: 'Still here.' }, { accept: 'audio/wav' });
    expect(retry.response.status).toBe(200);
  });
});

describe('OpenAI-compatible moderation endpoint', () => {
  let fake: Server;
  let test: TestServer;
  const received: Array<{ authorization?: string; body: { input: string; model: string } }> = [];
  let failNext = false;

  beforeAll(async () => {
    fake = createHttpServer((request, response) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => {
        if (request.url !== '/v1/moderations' || request.method !== 'POST') return void response.writeHead(404).end();
        const body = JSON.parse(text) as { input: string; model: string };
        received.push({ ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}), body });
        if (failNext) {
          failNext = false;
          return void response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"boom"}}');
        }
        const flagged = body.input.includes('forbidden');
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: 'modr-1',
            model: body.model,
            results: [{ flagged, categories: { harassment: flagged, violence: false }, category_scores: {} }],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    test = await startTestServer('sqlite', {
      config: { speech: { moderationBaseUrl: `http://127.0.0.1:${port}/v1`, moderationApiKey: 'sk-moderation', moderationModel: 'mod-test' } },
    });
  });
  afterAll(async () => {
    await test.close();
    await new Promise((resolve) => fake.close(resolve));
  });

  it('refuses what the endpoint flags, speaks what it passes, and answers 502 when it fails', async () => {
    const error = await failure(test.client.voices.generate({ text: 'This is forbidden talk.', moderation: true }));
    expect(ModerationError.isInstance(error)).toBe(true);
    expect(error.message).toContain('harassment');
    expect(received.at(-1)).toEqual({ authorization: 'Bearer sk-moderation', body: { input: 'This is forbidden talk.', model: 'mod-test' } });
    expect((await test.client.voices.generate({ text: 'A friendly hello.', moderation: true })).size).toBeGreaterThan(0);
    const count = received.length;
    expect((await test.client.voices.generate({ text: 'No check for this one.' })).size).toBeGreaterThan(0);
    expect(received.length).toBe(count);
    failNext = true;
    const upstream = await failure(test.client.voices.generate({ text: 'Hello.', moderation: true }));
    expect(upstream).toMatchObject({ status: 502 });
  });
});
