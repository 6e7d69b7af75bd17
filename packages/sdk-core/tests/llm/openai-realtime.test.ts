import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { OPENAI_KEY_SUBPROTOCOL, OPENAI_REALTIME_PATH } from '../../src/contract/wire.js';
import { wordErrorRate } from '../../src/server/engines/speech/stt/word-error-rate.js';
import { AUDIBLE_RMS, offlineAnswer, rms } from '../../src/testing/agent-harness.js';
import { pocketsphinxAvailable, transcribe } from '../speech/speech-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { openSession, RATE, realtimeClient, ReceivedEvents, speakInto, spoken } from './realtime-test-client.js';

const sttAvailable = pocketsphinxAvailable();

describe("OpenAI's Realtime API on /v1/realtime, with the openai package's OpenAIRealtimeWS and the built-in engines", () => {
  let test: TestServer;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    url = await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  it.skipIf(!sttAvailable)(
    'a spoken turn: server VAD ends it, the words are transcribed, the answer comes as audio with its transcript',
    async () => {
      const { socket, events } = await openSession(url, test.server.apiKey);
      socket.send({
        type: 'session.update',
        session: { type: 'realtime', instructions: 'Be brief.', audio: { input: { transcription: { model: 'gpt-4o-mini-transcribe' } } } },
      });
      await events.next('session.updated');
      await speakInto(socket, await spoken(test.server.services.speech, 'Please call me tomorrow morning.'));

      const started = await events.next('input_audio_buffer.speech_started');
      const stopped = await events.next('input_audio_buffer.speech_stopped');
      expect(stopped.item_id).toBe(started.item_id);
      expect(stopped.audio_end_ms).toBeGreaterThan(started.audio_start_ms);
      await events.next('input_audio_buffer.committed', (event) => event.item_id === started.item_id);
      const heard = await events.next('conversation.item.input_audio_transcription.completed');
      expect(wordErrorRate('please call me tomorrow morning', heard.transcript), heard.transcript).toBeLessThan(0.3);

      const done = await events.next('response.done');
      expect(done.response.status).toBe('completed');
      const [message] = done.response.output!;
      expect(message).toMatchObject({ type: 'message', role: 'assistant', status: 'completed' });
      const transcript = events
        .of('response.output_audio_transcript.delta')
        .map((event) => event.delta)
        .join('');
      expect(transcript.replace(/\s+/g, ' ').trim()).toBe(offlineAnswer(heard.transcript));
      expect(await events.next('response.output_audio_transcript.done')).toMatchObject({ transcript: offlineAnswer(heard.transcript) });
      expect(done.response.usage!.output_tokens).toBeGreaterThan(0);

      // The audio is the answer, spoken (decoded and recognised).
      const audio = events.audioOf(done.response.id!);
      expect(audio.length / RATE).toBeGreaterThan(2);
      expect(rms(audio)).toBeGreaterThan(AUDIBLE_RMS);
      const recognised = await transcribe(test.server.services.speech, audio, RATE);
      expect(wordErrorRate(offlineAnswer(heard.transcript), recognised), recognised).toBeLessThan(0.5);
      socket.close();
    },
    90_000,
  );

  it('a text-only response to a typed item, without server VAD; the usage is in response.done', async () => {
    const { socket, events } = await openSession(url, test.server.apiKey);
    socket.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input: { turn_detection: null } } } });
    expect((await events.next('session.updated')).session).toMatchObject({ output_modalities: ['text'], audio: { input: { turn_detection: null } } });
    socket.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What time is it?' }] } });
    const added = await events.next('conversation.item.added');
    expect(added.item).toMatchObject({ type: 'message', role: 'user', status: 'completed' });
    socket.send({ type: 'response.create' });
    const done = await events.next('response.done');
    expect(done.response).toMatchObject({ status: 'completed', output_modalities: ['text'] });
    const text = events
      .of('response.output_text.delta')
      .map((event) => event.delta)
      .join('');
    expect(text).toBe(offlineAnswer('What time is it?'));
    expect(await events.next('response.output_text.done')).toMatchObject({ text: offlineAnswer('What time is it?') });
    expect(events.of('response.output_audio.delta')).toEqual([]);
    expect(done.response.usage).toMatchObject({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(done.response.usage!.total_tokens).toBe(done.response.usage!.input_tokens! + done.response.usage!.output_tokens!);
    socket.close();
  }, 30_000);

  it.skipIf(!sttAvailable)(
    "an input_audio item's audio is transcribed for the model when it comes without a transcript",
    async () => {
      const { socket, events } = await openSession(url, test.server.apiKey);
      socket.send({ type: 'session.update', session: { type: 'realtime', output_modalities: ['text'], audio: { input: { turn_detection: null } } } });
      await events.next('session.updated');
      const pcm = await spoken(test.server.services.speech, 'Please call me tomorrow morning.');
      const audio = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
      socket.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_audio', audio }] } });
      const added = await events.next('conversation.item.added');
      const transcript = added.item.type === 'message' ? (added.item.content[0] as { transcript?: string }).transcript : undefined;
      expect(wordErrorRate('please call me tomorrow morning', transcript ?? ''), transcript).toBeLessThan(0.3);
      socket.send({ type: 'response.create' });
      expect((await events.next('response.output_text.done')).text).toBe(offlineAnswer(transcript!));
      socket.close();
    },
    30_000,
  );

  it('a function call round trip: the model calls the tool, the client answers with function_call_output, the model says it', async () => {
    const { socket, events } = await openSession(url, test.server.apiKey);
    socket.send({
      type: 'session.update',
      session: {
        type: 'realtime',
        output_modalities: ['text'],
        audio: { input: { turn_detection: null } },
        tools: [
          {
            type: 'function',
            name: 'get_weather',
            description: 'The weather in a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          },
        ],
      },
    });
    await events.next('session.updated');
    socket.send({
      type: 'conversation.item.create',
      item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'What is the weather in Paris?' }] },
    });
    socket.send({ type: 'response.create' });
    const call = await events.next('response.function_call_arguments.done');
    expect(call.name).toBe('get_weather');
    expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
    const first = await events.next('response.done');
    expect(first.response.output).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'get_weather', call_id: call.call_id, status: 'completed' }),
    ]);

    socket.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id, output: '{"forecast":"sunny"}' } });
    socket.send({ type: 'response.create' });
    const second = await events.next('response.done', () => true, 2);
    expect(second.response.status).toBe('completed');
    expect(events.of('response.output_text.done').at(-1)!.text).toBe('The get_weather tool returned: {"forecast":"sunny"}');
    socket.close();
  }, 30_000);

  it.skipIf(!sttAvailable)(
    'interruption: speech during the answer cancels the response (turn_detected), and the client truncates the item',
    async () => {
      const { socket, events } = await openSession(url, test.server.apiKey);
      const question = 'Tell me a long story about the sea, the ships, the sailors and the storms they met on their way home.';
      socket.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: question }] } });
      socket.send({ type: 'response.create' });
      const firstAudio = await events.next('response.output_audio.delta');
      const interruption = await spoken(test.server.services.speech, 'Wait, stop please.');
      await speakInto(socket, interruption);

      const cancelled = await events.next('response.done', (event) => event.response.id === firstAudio.response_id);
      expect(cancelled.response).toMatchObject({ status: 'cancelled', status_details: { type: 'cancelled', reason: 'turn_detected' } });
      expect(cancelled.response.output![0]).toMatchObject({ type: 'message', status: 'incomplete' });
      const sentMs = (events.audioOf(firstAudio.response_id).length / RATE) * 1000;
      expect(sentMs).toBeLessThan((offlineAnswer(question).split(' ').length / 2) * 1000);

      socket.send({ type: 'conversation.item.truncate', item_id: firstAudio.item_id, content_index: 0, audio_end_ms: 800 });
      expect(await events.next('conversation.item.truncated')).toMatchObject({ item_id: firstAudio.item_id, audio_end_ms: 800 });
      socket.send({ type: 'conversation.item.retrieve', item_id: firstAudio.item_id });
      const retrieved = await events.next('conversation.item.retrieved');
      const kept = retrieved.item.type === 'message' ? (retrieved.item.content[0] as { transcript?: string }).transcript : undefined;
      expect(offlineAnswer(question).startsWith(kept ?? 'missing')).toBe(true);
      expect(kept!.split(' ').length).toBeLessThan(offlineAnswer(question).split(' ').length / 2);

      // The words that interrupted are the next turn, answered.
      const next = await events.next('response.done', (event) => event.response.id !== firstAudio.response_id);
      expect(next.response.status).toBe('completed');
      socket.close();
    },
    90_000,
  );

  it('bad events are error events with type, code, message and param; the session goes on', async () => {
    const { socket, events } = await openSession(url, test.server.apiKey);
    const raw = (socket as unknown as { socket: WebSocket }).socket;
    raw.send('not json');
    expect(await events.error(1)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_json', message: expect.any(String) });
    raw.send(JSON.stringify({ type: 'session.explode', event_id: 'evt_1' }));
    expect(await events.error(2)).toMatchObject({ type: 'invalid_request_error', code: 'invalid_value', param: 'type', event_id: 'evt_1' });
    raw.send(JSON.stringify({ type: 'session.update', session: { type: 'realtime', prompt: { id: 'pmpt_1' } } }));
    expect(await events.error(3)).toMatchObject({ code: 'unknown_parameter', param: 'session.prompt' });
    raw.send(JSON.stringify({ type: 'conversation.item.truncate', item_id: 'item_missing', content_index: 0, audio_end_ms: 10 }));
    expect(await events.error(4)).toMatchObject({ code: 'item_not_found', param: 'item_id' });
    raw.send(JSON.stringify({ type: 'response.cancel' }));
    expect(await events.error(5)).toMatchObject({ code: 'response_cancel_not_active' });
    socket.send({ type: 'session.update', session: { type: 'realtime', audio: { input: { turn_detection: null } } } });
    await events.next('session.updated');
    socket.send({ type: 'input_audio_buffer.commit' });
    expect(await events.error(6)).toMatchObject({ code: 'input_audio_buffer_commit_empty' });
    raw.send(JSON.stringify({ type: 'input_audio_buffer.append', audio: 'AAAA' }));
    expect(await events.error(7)).toMatchObject({ code: 'invalid_value', param: 'audio' });
    raw.send(Buffer.from([1, 2, 3]));
    expect(await events.error(8)).toMatchObject({ code: 'invalid_value' });
    socket.send({ type: 'session.update', session: { type: 'realtime', audio: { output: { voice: 'alloy' } } } });
    expect(await events.error(9)).toMatchObject({ param: 'session.audio.output.voice' });
    socket.send({ type: 'conversation.item.create', item: { type: 'function_call_output', call_id: 'call_unknown', output: '{}' } });
    expect(await events.error(10)).toMatchObject({ param: 'item.call_id' });

    raw.send(JSON.stringify({ type: 'conversation.item.delete' }));
    expect(await events.error(11)).toMatchObject({ code: 'missing_required_parameter', param: 'item_id' });
    raw.send(JSON.stringify({ type: 'session.update', session: { type: 'realtime', tracing: 42 } }));
    expect(await events.error(12)).toMatchObject({ code: 'invalid_value', param: 'session.tracing' });

    // Still serving.
    socket.send({ type: 'session.update', session: { type: 'realtime', instructions: 'Still here.' } });
    const updated = await events.next('session.updated', (event) => 'instructions' in event.session && event.session.instructions === 'Still here.');
    expect(updated.session).toMatchObject({ instructions: 'Still here.' });
    socket.close();
  }, 30_000);

  it('authenticates like the other /v1 routes: no key 4401, a key in the browser subprotocol, a usage token; an unknown model is an error then 4400', async () => {
    const address = `${url.replace('http', 'ws')}${OPENAI_REALTIME_PATH}?model=builtin-offline`;
    const closeOf = (socket: WebSocket) => new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    expect(await closeOf(new WebSocket(address))).toBe(4401);

    const browser = new WebSocket(address, ['realtime', `${OPENAI_KEY_SUBPROTOCOL}${test.server.apiKey}`]);
    const first = await new Promise<{ type: string }>((resolve) =>
      browser.once('message', (data) => resolve(JSON.parse((data as Buffer).toString('utf8')) as { type: string })),
    );
    expect(first.type).toBe('session.created');
    expect(browser.protocol).toBe('realtime');
    browser.close();

    const { token } = await test.client.usage.createToken({ human: 'realtime-human' });
    const { socket: byToken } = await openSession(url, token);
    byToken.close();

    const unknown = realtimeClient(url, test.server.apiKey, 'gpt-realtime');
    const events = new ReceivedEvents(unknown);
    const closed = closeOf((unknown as unknown as { socket: WebSocket }).socket);
    expect(await events.error(1)).toMatchObject({ type: 'invalid_request_error', code: 'model_not_found', param: 'model' });
    expect(await closed).toBe(4400);
  }, 30_000);

  it('an ephemeral key from openai.realtime.clientSecrets.create is a usage token of the x-human-id human, taken by the socket', async () => {
    const openai = new OpenAI({ apiKey: test.server.apiKey, baseURL: `${url}/v1`, defaultHeaders: { 'x-human-id': 'browser-human' } });
    const secret = await openai.realtime.clientSecrets.create({
      expires_after: { anchor: 'created_at', seconds: 120 },
      session: { type: 'realtime', model: 'builtin-offline' },
    });
    expect(secret.value).toMatch(/^ek_/);
    expect(secret.expires_at).toBeGreaterThan(Date.now() / 1000 + 100);

    // A browser: the key in the subprotocol, as OpenAI's clients send it.
    const address = `${url.replace('http', 'ws')}${OPENAI_REALTIME_PATH}?model=builtin-offline`;
    const browser = new WebSocket(address, ['realtime', `${OPENAI_KEY_SUBPROTOCOL}${secret.value}`]);
    const first = await new Promise<{ type: string }>((resolve) =>
      browser.once('message', (data) => resolve(JSON.parse((data as Buffer).toString('utf8')) as { type: string })),
    );
    expect(first.type).toBe('session.created');
    browser.close();
    // The openai client in Node: the key as its bearer.
    const { socket } = await openSession(url, secret.value);
    socket.close();
    await expect
      .poll(
        async () => (await test.server.services.store.db.selectFrom('usage_records').select('human').where('human', '=', 'browser-human').execute()).length,
        { timeout: 10_000 },
      )
      .toBeGreaterThan(0);

    // Without a human, or with a model that does not exist: 400 naming the field, shown by the openai package.
    const anonymous = new OpenAI({ apiKey: test.server.apiKey, baseURL: `${url}/v1`, maxRetries: 0 });
    await expect(anonymous.realtime.clientSecrets.create({})).rejects.toThrow(/x-human-id:/);
    await expect(openai.realtime.clientSecrets.create({ session: { type: 'realtime', model: 'gpt-realtime' } })).rejects.toThrow(/session\.model:/);
  }, 30_000);

  it("meters the human's time on the socket as conversational_seconds, once, and refuses a human whose seconds are used up", async () => {
    const { token } = await test.client.usage.createToken({ human: 'realtime-talker' });
    const { socket } = await openSession(url, token);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    socket.close();
    const records = async () =>
      test.server.services.store.db
        .selectFrom('usage_records')
        .select(['value'])
        .where('human', '=', 'realtime-talker')
        .where('type', '=', 'conversational_seconds')
        .execute();
    await expect.poll(async () => (await records()).length, { timeout: 10_000 }).toBe(1);
    expect(Number((await records())[0]!.value)).toBeGreaterThanOrEqual(1);

    const limited = await test.client.usage.createToken({ human: 'realtime-limited', limits: [{ type: 'conversational_seconds', value: 0 }] });
    const refused = new ReceivedEvents(realtimeClient(url, limited.token));
    expect(await refused.error(1)).toMatchObject({ code: 'usage_limit_exceeded' });
  }, 30_000);
});
