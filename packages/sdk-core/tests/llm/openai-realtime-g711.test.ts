import * as alawmulawModule from 'alawmulaw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resampleHighQuality } from '../../src/server/engines/speech/codecs/resample.js';
import { AUDIBLE_RMS, offlineAnswer, rms } from '../../src/testing/agent-harness.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { openSession, RATE, spoken } from './realtime-test-client.js';

// A CommonJS build under Node's ESM loader: the codecs sit on `default`.
const alawmulaw = (alawmulawModule as unknown as { default?: typeof alawmulawModule }).default ?? alawmulawModule;
const sttAvailable = pocketsphinxAvailable();
const G711_RATE = 8000;

/**
 * The Realtime API's G.711 formats with the `openai` package's realtime client: µ-law in (decoded and heard by the
 * STT), A-law out (decoded here: the whole answer, audible), each as the session reports it.
 */
describe.skipIf(!sttAvailable)("OpenAI's Realtime API in G.711 (audio/pcmu in, audio/pcma out)", () => {
  let test: TestServer;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    url = await test.server.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await test?.close();
  });

  it('hears µ-law speech and answers in A-law at 8 kHz', async () => {
    const { socket, events } = await openSession(url, test.server.apiKey);
    socket.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        audio: {
          input: { format: { type: 'audio/pcmu' }, turn_detection: null, transcription: { model: 'whisper-1' } },
          output: { format: { type: 'audio/pcma' } },
        },
      },
    });
    const updated = await events.next('session.updated');
    expect(updated.session).toMatchObject({ audio: { input: { format: { type: 'audio/pcmu' } }, output: { format: { type: 'audio/pcma' } } } });

    const narrow = await resampleHighQuality(await spoken(test.server.services.speech, 'Please call me tomorrow morning.'), RATE, G711_RATE);
    const ulaw = alawmulaw.mulaw.encode(narrow);
    for (let offset = 0; offset < ulaw.length; offset += 320) {
      socket.send({ type: 'input_audio_buffer.append', audio: Buffer.from(ulaw.subarray(offset, offset + 320)).toString('base64') });
    }
    socket.send({ type: 'input_audio_buffer.commit' });
    const heard = await events.next('conversation.item.input_audio_transcription.completed');
    // Telephone-band speech costs the wideband recogniser some words; garbled µ-law would give none of them.
    expect(heard.transcript).toContain('tomorrow morning');

    socket.send({ type: 'response.create' });
    const done = await events.next('response.done', () => true, 1, 60_000);
    expect(done.response.status).toBe('completed');
    expect(done.response.audio).toMatchObject({ output: { format: { type: 'audio/pcma' } } });
    const alaw = Buffer.concat(
      events
        .of('response.output_audio.delta')
        .filter((event) => event.response_id === done.response.id)
        .map((event) => Buffer.from(event.delta, 'base64')),
    );
    const answer = alawmulaw.alaw.decode(new Uint8Array(alaw));
    expect(answer.length / G711_RATE).toBeGreaterThan(1.5);
    expect(rms(answer)).toBeGreaterThan(AUDIBLE_RMS);
    // One byte a sample at 8 kHz: the whole answer, as long as the same words spoken at 24 kHz.
    const wide = await spoken(test.server.services.speech, offlineAnswer(heard.transcript));
    expect(answer.length / G711_RATE).toBeCloseTo(wide.length / RATE, 0);
    socket.close();
  }, 90_000);

  it('refuses a format OpenAI does not define, naming it', async () => {
    const { socket, events } = await openSession(url, test.server.apiKey);
    socket.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { format: { type: 'audio/g729' } } } } } as never);
    const error = await events.error(1);
    expect(error.param ?? error.message).toContain('format');
    socket.close();
  });
});
