import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeCalls } from '../../src/server/edge/openai-realtime/realtime-call-server.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { AUDIBLE_RMS, offlineAnswer, rms } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { pocketsphinxAvailable } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { spoken } from './realtime-test-client.js';
import { CallClient, placeCall } from './webrtc-call-client.js';

const sttAvailable = pocketsphinxAvailable();

describe("OpenAI's Realtime API over WebRTC (POST /v1/realtime/calls), with a werift client peer and the built-in engines", () => {
  let test: TestServer;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    url = await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  const call = (client: CallClient, key: string, query?: string) => placeCall(client, `${url}/v1`, key, query);

  it('an ephemeral key calls; a typed message is answered on the data channel, its speech on the agent track; hang-up ends the call', async () => {
    const openai = new OpenAI({ apiKey: test.server.apiKey, baseURL: `${url}/v1`, defaultHeaders: { 'x-human-id': 'webrtc-human' } });
    const { value } = await openai.realtime.clientSecrets.create({ session: { type: 'realtime', model: 'builtin-offline' } });
    const client = new CallClient();
    // As OpenAIRealtimeWebRTC: no ?model=, the model comes in session.update.
    const response = await call(client, value, '');
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toContain('application/sdp');
    const callId = response.headers.get('location')!.split('/').pop()!;
    expect(callId).toMatch(/^rtc_/);
    await client.connect(await response.text());
    await client.next('session.created');
    client.send({ type: 'session.update', session: { type: 'realtime', model: 'builtin-offline', instructions: 'Be brief.' } });
    await client.next('session.updated');

    client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What time is it?' }] } });
    client.send({ type: 'response.create' });
    const done = await client.next('response.done');
    expect(done.response).toMatchObject({ status: 'completed', output_modalities: ['audio'] });
    const transcript = (await client.next('response.output_audio_transcript.done')).transcript as string;
    expect(transcript).toBe(offlineAnswer('What time is it?'));
    await client.next('output_audio_buffer.started');
    await client.next('output_audio_buffer.stopped');
    // Over WebRTC the speech is the track, not audio deltas.
    expect(client.events.filter((event) => event.type === 'response.output_audio.delta')).toEqual([]);
    await eventually(() => expect(rms(client.heardPcm())).toBeGreaterThan(AUDIBLE_RMS), 10_000);
    expect(client.heardPcm().length / 48_000).toBeGreaterThan(1);

    const hangup = await fetch(`${url}/v1/realtime/calls/${callId}/hangup`, { method: 'POST', headers: { authorization: `Bearer ${value}` } });
    expect(hangup.status).toBe(200);
    expect(realtimeCalls(test.server.services).size).toBe(0);
    const again = await fetch(`${url}/v1/realtime/calls/${callId}/hangup`, { method: 'POST', headers: { authorization: `Bearer ${value}` } });
    expect(again.status).toBe(404);
    // The human's time on the call is metered once, at its end, as the socket's is.
    const records = await test.server.services.store.db
      .selectFrom('usage_records')
      .select(['value'])
      .where('human', '=', 'webrtc-human')
      .where('type', '=', 'conversational_seconds')
      .execute();
    expect(records).toHaveLength(1);
    expect(Number(records[0]!.value)).toBeGreaterThan(0);
    await client.close();
  }, 90_000);

  it.skipIf(!sttAvailable)(
    'a spoken question on the microphone track: the words are transcribed and answered in speech',
    async () => {
      const client = new CallClient();
      const response = await call(client, test.server.apiKey);
      expect(response.status).toBe(201);
      await client.connect(await response.text());
      client.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' } } } } });
      await client.next('session.updated');
      await client.speak(await spoken(test.server.services.speech, 'Please call me tomorrow morning.'));
      const heard = (await client.next('conversation.item.input_audio_transcription.completed')).transcript as string;
      expect(wordErrorRate('please call me tomorrow morning', heard), heard).toBeLessThan(0.3);
      const done = await client.next('response.done');
      expect(done.response).toMatchObject({ status: 'completed' });
      expect((await client.next('response.output_audio_transcript.done')).transcript).toBe(offlineAnswer(heard));
      await eventually(() => expect(rms(client.heardPcm())).toBeGreaterThan(AUDIBLE_RMS), 10_000);
      // The peer closing ends the call.
      await client.close();
      await eventually(() => expect(realtimeCalls(test.server.services).size).toBe(0), 15_000);
    },
    90_000,
  );

  it('an offer as a form is taken; a bad offer or session, a missing credential, an unknown model and a used-up limit are refused with the error shape', async () => {
    const bad = await fetch(`${url}/v1/realtime/calls?model=builtin-offline`, {
      method: 'POST',
      headers: { 'content-type': 'application/sdp', authorization: `Bearer ${test.server.apiKey}` },
      body: 'this is not SDP',
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ type: expect.any(String), message: expect.stringMatching(/SDP/) });

    const json = await fetch(`${url}/v1/realtime/calls`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${test.server.apiKey}` },
      body: '{}',
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ type: 'invalid_input', message: expect.stringMatching(/application\/sdp/) });

    const anonymous = await fetch(`${url}/v1/realtime/calls`, { method: 'POST', headers: { 'content-type': 'application/sdp' }, body: 'v=0' });
    expect(anonymous.status).toBe(401);

    // OpenAI's form: the offer in `sdp`, the model in `session` (JSON).
    const formClient = new CallClient();
    const form = new FormData();
    form.set('sdp', await formClient.offer());
    form.set('session', JSON.stringify({ type: 'realtime', model: 'builtin-offline' }));
    const byForm = await fetch(`${url}/v1/realtime/calls`, { method: 'POST', headers: { authorization: `Bearer ${test.server.apiKey}` }, body: form });
    expect(byForm.status).toBe(201);
    await formClient.connect(await byForm.text());
    await formClient.close();
    form.set('session', JSON.stringify({ type: 'realtime', voice: 'alloy' }));
    const badSession = await fetch(`${url}/v1/realtime/calls`, { method: 'POST', headers: { authorization: `Bearer ${test.server.apiKey}` }, body: form });
    expect(badSession.status).toBe(400);
    expect(await badSession.json()).toMatchObject({ type: 'invalid_input', message: expect.stringMatching(/^session: .*voice/) });

    const limited = await test.client.usage.createToken({ human: 'webrtc-limited', limits: [{ type: 'conversational_seconds', value: 0 }] });
    const refusedClient = new CallClient();
    const refused = await call(refusedClient, limited.token);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'usage_limit_exceeded' });
    await refusedClient.close();

    const open = realtimeCalls(test.server.services).size;
    const client = new CallClient();
    const unknown = await call(client, test.server.apiKey, '?model=no-such-llm');
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ message: expect.stringMatching(/no-such-llm/) });
    await client.close();
    expect(realtimeCalls(test.server.services).size).toBe(open);
  }, 60_000);
});
