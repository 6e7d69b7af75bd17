import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { AbortError, ConnectionError, createTtsClient, TtsStreamError, type TtsAudioChunk, type TtsStream } from '../../src/tts.js';
import { LinearResampler, resampleHighQuality } from '../../src/server/engines/speech/codecs/resample.js';
import { collectSynthesis } from '../../src/server/engines/speech/tts/collect-synthesis.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { DEFAULT_TTS_SOCKET_LIMITS } from '../../src/server/edge/tts-socket/tts-socket-limits.js';
import { storeKinds } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { medianPitch, pocketsphinxAvailable, transcribe } from './speech-test-support.js';

const sttAvailable = pocketsphinxAvailable();

interface ServiceMessage {
  type: 'audio' | 'final' | 'error';
  session: string;
  payload: { audio?: string; sample_rate?: number; channels?: number; audio_format?: string; encoding?: string; message?: string };
}

/** A raw websocket that records what the service sends. */
async function rawSocket(url: string, headers: Record<string, string>) {
  const socket = new WebSocket(url, { headers });
  const messages: ServiceMessage[] = [];
  socket.on('message', (data) => messages.push(JSON.parse((data as Buffer).toString()) as ServiceMessage));
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('close', () => resolve());
  });
  const waitFor = async (predicate: (message: ServiceMessage) => boolean, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = messages.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    throw new Error(
      `no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages.map((message) => [message.type, message.session, message.payload.message]))}`,
    );
  };
  return { socket, messages, closed, waitFor, send: (message: unknown) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)) };
}

async function collect(stream: TtsStream): Promise<{ pcm: Int16Array; sampleRate: number; chunks: number }> {
  const chunks: TtsAudioChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  const pcm = new Int16Array(chunks.reduce((total, chunk) => total + chunk.pcm.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    pcm.set(chunk.pcm, offset);
    offset += chunk.pcm.length;
  }
  return { pcm, sampleRate: chunks[0]?.sampleRate ?? 0, chunks: chunks.length };
}

describe.each(await storeKinds())('TTS websocket /v1/voice/websocket (%s)', (kind) => {
  let test: TestServer;
  let baseUrl: string;
  let socketUrl: string;
  let aliceToken: string;

  beforeAll(async () => {
    test = await startTestServer(kind);
    baseUrl = await test.server.listen(0, '127.0.0.1');
    socketUrl = `${baseUrl.replace('http', 'ws')}/v1/voice/websocket`;
    aliceToken = (await test.client.usage.createToken({ human: 'alice' })).token;
  });
  afterAll(async () => test.close());

  it('streams three interleaved sessions on one socket, each in order and intelligible, then final', async () => {
    const tts = createTtsClient({ baseUrl, usageToken: aliceToken });
    const texts = {
      slt: 'Please call me tomorrow morning.',
      rms: 'The weather is nice today and we are going outside.',
      kal: 'I would like to order a large pizza with mushrooms.',
    };
    const streams = {
      slt: tts.stream({ voice: 'flite-slt' }),
      rms: tts.stream({ voice: 'flite-rms' }),
      kal: tts.stream({ voice: 'flite-kal16' }),
    };
    const results = Object.fromEntries(Object.entries(streams).map(([name, stream]) => [name, collect(stream)])) as Record<
      keyof typeof texts,
      ReturnType<typeof collect>
    >;
    // Interleave word by word across the three sessions, as three LLM token streams would arrive.
    const words = Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, text.split(/(?<= )/)])) as Record<keyof typeof texts, string[]>;
    for (let index = 0; index < 12; index++) {
      for (const name of ['slt', 'rms', 'kal'] as const) if (words[name][index]) streams[name].push(words[name][index]!);
    }
    for (const stream of Object.values(streams)) stream.end();
    for (const name of ['slt', 'rms', 'kal'] as const) {
      const audio = await results[name];
      expect(audio.sampleRate).toBe(24_000);
      expect(audio.chunks).toBeGreaterThan(1);
      expect(audio.pcm.length / 24_000).toBeGreaterThan(1);
      await expect(streams[name].finished).resolves.toBeUndefined();
      // Exactly the engine's audio for that text, resampled to 24 kHz: nothing lost, reordered or mixed in.
      const voice = { service: 'flite', voice: name === 'kal' ? 'kal16' : name };
      const direct = await collectSynthesis(test.server.services.speech.tts.synthesize({ voice, text: texts[name] }));
      expect(audio.pcm).toEqual(new LinearResampler(direct.sampleRate, 24_000).push(direct.pcm));
      if (sttAvailable) {
        // pocketsphinx carries its cepstral mean over between utterances, so the bar is 20 % here (10 % on fresh audio).
        const pcm16k = await resampleHighQuality(audio.pcm, 24_000, 16_000);
        const heard = await transcribe(test.server.services.speech, pcm16k, 16_000);
        expect(wordErrorRate(texts[name], heard), `${name}: ${heard}`).toBeLessThanOrEqual(0.2);
      }
    }
    // No cross-talk: the female voice stayed female, the male voices male.
    const slt = await results.slt;
    const rms = await results.rms;
    expect(await medianPitch(slt.pcm, 24_000)).toBeGreaterThan(150);
    expect(await medianPitch(rms.pcm, 24_000)).toBeLessThan(130);
    expect(tts.openStreams).toBe(0);
    tts.close();
  });

  it('delivers audio as events too, starts before the text ends, and records usage for the human', async () => {
    const { usage, store } = test.server.services;
    const before = await usage.consumption(store.db, test.server.project, 'alice', 'voice_synthesis_seconds');
    const tts = createTtsClient({ baseUrl, usageToken: aliceToken, credentials: 'query' });
    const stream = tts.stream({ voice: 'espeak-en-gb' });
    let samples = 0;
    let firstAudioBeforeEnd = false;
    let ended = false;
    stream.on('audio', (chunk) => {
      expect(chunk).toMatchObject({ sampleRate: 24_000, channels: 1 });
      if (!ended) firstAudioBeforeEnd = true;
      samples += chunk.pcm.length;
    });
    const final = new Promise<void>((resolve) => stream.once('final', resolve));
    stream.push('This first sentence is complete. ');
    // The first sentence is spoken while the second is still being written.
    const deadline = Date.now() + 10_000;
    while (samples === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    stream.push('And this one arrives later');
    ended = true;
    stream.end();
    await final;
    expect(firstAudioBeforeEnd).toBe(true);
    const after = await usage.consumption(store.db, test.server.project, 'alice', 'voice_synthesis_seconds');
    expect(after.used - before.used).toBeCloseTo(samples / 24_000, 2);
    tts.close();
  });

  it('answers malformed messages, unknown sessions and voices with an error for that session; the socket stays open', async () => {
    const raw = await rawSocket(socketUrl, { 'x-api-key': test.server.apiKey });
    raw.send('this is not json');
    expect((await raw.waitFor((message) => message.type === 'error' && message.session === '*')).payload.message).toMatch(/not JSON/);
    raw.send({ type: 'push_text', session: 'ghost', payload: { text: 'Hello.' } });
    expect((await raw.waitFor((message) => message.session === 'ghost')).payload.message).toMatch(/unknown session 'ghost'/);
    raw.send({ type: 'start_session', session: 'bad-shape', payload: {} });
    expect((await raw.waitFor((message) => message.session === 'bad-shape')).payload.message).toMatch(/malformed message: payload.voice/);
    raw.send({ type: 'sing', session: 'bad-type', payload: {} });
    expect((await raw.waitFor((message) => message.session === 'bad-type')).type).toBe('error');
    raw.send({ type: 'start_session', session: 'nobody', payload: { voice: 'voice_does_not_exist' } });
    expect((await raw.waitFor((message) => message.session === 'nobody')).payload.message).toMatch(/not_found/);
    raw.socket.send(new Uint8Array([1, 2, 3]));
    await raw.waitFor((message) => message.type === 'error' && /binary/.test(message.payload.message ?? ''));

    raw.send({ type: 'start_session', session: 'good', payload: { voice: 'flite-slt' } });
    raw.send({ type: 'start_session', session: 'good', payload: { voice: 'flite-slt' } });
    expect((await raw.waitFor((message) => message.session === 'good' && message.type === 'error')).payload.message).toMatch(/already exists/);
    raw.send({ type: 'push_text', session: 'good', payload: { text: 'Still working.' } });
    raw.send({ type: 'eos', session: 'good', payload: {} });
    raw.send({ type: 'push_text', session: 'good', payload: { text: 'Too late.' } });
    expect((await raw.waitFor((message) => message.session === 'good' && /already ended/.test(message.payload.message ?? ''))).type).toBe('error');
    await raw.waitFor((message) => message.session === 'good' && message.type === 'final');
    const audio = raw.messages.filter((message) => message.session === 'good' && message.type === 'audio');
    expect(audio.length).toBeGreaterThan(0);
    expect(audio[0]!.payload).toMatchObject({ sample_rate: 24_000, channels: 1, audio_format: 'pcm16le', encoding: 'pcm' });
    expect(raw.messages.findIndex((message) => message.session === 'good' && message.type === 'final')).toBeGreaterThan(
      raw.messages.lastIndexOf(audio.at(-1)!),
    );
    expect(raw.socket.readyState).toBe(WebSocket.OPEN);
    raw.socket.close();
  });

  it('the client reports an unknown voice as a TtsStreamError on that stream only', async () => {
    const tts = createTtsClient({ baseUrl, apiKey: test.server.apiKey });
    const bad = tts.stream({ voice: 'voice_nope' });
    const good = tts.stream({ voice: 'flite-kal16' });
    good.push('Fine.').end();
    bad.push('Hello.').end();
    const error = await bad.finished.catch((failure: unknown) => failure);
    expect(TtsStreamError.isInstance(error)).toBe(true);
    expect((error as TtsStreamError).message).toMatch(/voice/);
    expect((await collect(good)).chunks).toBeGreaterThan(0);
    tts.close();
  });

  it('refuses bad credentials: close 4401 with the reason; the client fails its streams as unauthorized', async () => {
    const raw = await rawSocket(socketUrl, { 'x-api-key': 'pk_wrong_key_000000000000000000' });
    expect(await raw.closed).toEqual({ code: 4401, reason: expect.stringMatching(/^unauthorized: Invalid API key/) });
    const anonymous = await rawSocket(socketUrl, {});
    expect((await anonymous.closed).code).toBe(4401);
    const byQuery = await rawSocket(`${socketUrl}?token=not-a-token`, {});
    expect((await byQuery.closed).reason).toMatch(/Usage token is invalid/);

    const tts = createTtsClient({ baseUrl, apiKey: 'pk_wrong_key_000000000000000000' });
    const stream = tts.stream({ voice: 'flite-slt' });
    stream.push('Hello.').end();
    const error = await stream.finished.catch((failure: unknown) => failure);
    expect(ConnectionError.isInstance(error) && error.reason === 'unauthorized').toBe(true);
    await expect(collect(stream)).rejects.toThrow(/4401/);
    tts.close();

    const viaQuery = createTtsClient({ baseUrl, apiKey: test.server.apiKey, credentials: 'query' });
    const ok = viaQuery.stream({ voice: 'flite-slt' });
    ok.push('Query credentials work.').end();
    expect((await collect(ok)).chunks).toBeGreaterThan(0);
    viaQuery.close();
  });

  it('aborts one stream with its AbortSignal while another on the same socket completes', async () => {
    const tts = createTtsClient({ baseUrl, apiKey: test.server.apiKey });
    const controller = new AbortController();
    const aborted = tts.stream({ voice: 'flite-rms', signal: controller.signal });
    const other = tts.stream({ voice: 'flite-slt' });
    aborted.push('One. Two. Three. Four. Five. Six. Seven. Eight.');
    other.push('The other stream keeps going.').end();
    let received = 0;
    const reading = (async () => {
      for await (const _chunk of aborted) {
        received++;
        controller.abort();
      }
    })();
    await expect(reading).rejects.toSatisfy((error: unknown) => AbortError.isInstance(error));
    expect(received).toBe(1);
    expect((await collect(other)).chunks).toBeGreaterThan(0);
    const already = new AbortController();
    already.abort();
    await expect(tts.stream({ voice: 'flite-slt', signal: already.signal }).finished).rejects.toSatisfy((error: unknown) => AbortError.isInstance(error));
    tts.close();
  });

  it('a slow reader pauses synthesis: bounded socket buffer, bounded text backlog, cleanup on close', async () => {
    const raw = await rawSocket(socketUrl, { 'x-api-key': test.server.apiKey });
    const sentence = 'This sentence is here to fill the socket with plenty of audio for the reader. ';
    raw.send({ type: 'start_session', session: 'slow', payload: { voice: 'flite-kal16' } });
    // The reader stops reading at once: only kernel buffers and the server's high-water mark can fill.
    raw.socket.pause();
    for (let index = 0; index < 12; index++) raw.send({ type: 'push_text', session: 'slow', payload: { text: sentence.repeat(20) } });
    const stats = () => test.server.ttsSocket.stats().find((connection) => connection.sessions.some((session) => session.id === 'slow'));
    // Wait until synthesis has stalled: the sent audio stops growing for three polls in a row (one still 300 ms can
    // be a busy machine's pause in synthesis, not the backpressure).
    let previous = -1;
    let still = 0;
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && still < 3) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const sent = stats()?.sessions[0]?.sentSeconds ?? 0;
      still = sent > 0 && sent === previous ? still + 1 : 0;
      previous = sent;
    }
    const stalled = stats()!;
    const session = stalled.sessions[0]!;
    expect(session.sentSeconds).toBeGreaterThan(0);
    expect(session.queuedCharacters).toBeGreaterThan(0); // text is waiting, not synthesized into memory
    const largestMessage = 2 * Math.ceil((DEFAULT_TTS_SOCKET_LIMITS.samplesPerMessage * 2) / 3) * 2 + 200;
    expect(stalled.peakBufferedAmount).toBeLessThanOrEqual(DEFAULT_TTS_SOCKET_LIMITS.highWaterBytes + largestMessage);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stats()!.sessions[0]!.sentSeconds).toBe(session.sentSeconds);

    // Pushing beyond the text backlog fails the session.
    for (let index = 0; index < 6; index++) raw.send({ type: 'push_text', session: 'slow', payload: { text: sentence.repeat(50) } });
    const closedSession = Date.now() + 10_000;
    while (stats() && Date.now() < closedSession) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stats()).toBeUndefined();
    raw.socket.resume();
    const error = await raw.waitFor((message) => message.session === 'slow' && message.type === 'error', 20_000);
    expect(error.payload.message).toMatch(/too much text waiting/);
    raw.socket.close();
    await raw.closed;
  });
});
