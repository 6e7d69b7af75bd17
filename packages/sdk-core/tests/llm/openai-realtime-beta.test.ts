import { connect } from 'node:net';
import OpenAI from 'openai';
import { OpenAIRealtimeWS } from 'openai/beta/realtime/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offlineAnswer } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

describe("the Realtime API's beta protocol (OpenAI-Beta: realtime=v1), with the openai package's beta OpenAIRealtimeWS", () => {
  let test: TestServer;
  let url: string;

  beforeAll(async () => {
    test = await startTestServer('sqlite');
    url = await test.server.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    await test?.close();
  });

  async function open() {
    const client = new OpenAI({ apiKey: test.server.apiKey, baseURL: `${url}/v1` });
    const { hostname, port } = new URL(url);
    // The package dials `wss:`; the server under test speaks plain HTTP.
    const socket = new OpenAIRealtimeWS(
      { model: 'builtin-offline', options: { createConnection: () => connect({ host: hostname, port: Number(port) }) } },
      client,
    );
    const events: Array<{ type: string } & Record<string, unknown>> = [];
    socket.on('event', (event) => events.push(event as unknown as (typeof events)[number]));
    socket.on('error', () => undefined);
    const of = (type: string) => events.filter((event) => event.type === type);
    await eventually(() => expect(of('session.created')).toHaveLength(1));
    return { socket, events, of };
  }

  it('flat session fields, beta event names both ways: a text answer and an audio answer with its transcript', async () => {
    const { socket, of } = await open();
    expect(of('session.created')[0]!.session).toMatchObject({ modalities: ['audio', 'text'], input_audio_format: 'pcm16', output_audio_format: 'pcm16' });
    // The beta types have no null turn detection; the beta protocol takes it (as the GA one).
    const update = { type: 'session.update', session: { modalities: ['text'], instructions: 'Be brief.', turn_detection: null, input_audio_format: 'pcm16' } };
    socket.send(update as unknown as Parameters<typeof socket.send>[0]);
    await eventually(() => expect(of('session.updated')).toHaveLength(1));
    expect(of('session.updated')[0]!.session).toMatchObject({ modalities: ['text'], instructions: 'Be brief.', turn_detection: null });

    socket.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello there.' }] } });
    await eventually(() => expect(of('conversation.item.created')).toHaveLength(1));
    socket.send({ type: 'response.create' });
    await eventually(() => expect(of('response.done')).toHaveLength(1));
    expect(
      of('response.text.delta')
        .map((event) => event.delta)
        .join(''),
    ).toBe(offlineAnswer('Hello there.'));
    expect(of('response.done')[0]!.response).toMatchObject({ status: 'completed', modalities: ['text'] });
    expect(of('conversation.item.done')).toEqual([]);

    // An assistant item written the beta way (`text` content), then a spoken answer.
    socket.send({ type: 'conversation.item.create', item: { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Hi.' }] } });
    socket.send({ type: 'response.create', response: { modalities: ['audio', 'text'], output_audio_format: 'pcm16' } });
    await eventually(() => expect(of('response.done')).toHaveLength(2), 20_000);
    expect(of('response.audio.delta').length).toBeGreaterThan(0);
    expect(of('response.audio_transcript.done').at(-1)!.transcript).toBe(offlineAnswer('Hello there.'));
    const spoken = of('response.done')[1]!.response as { status: string; output: Array<{ content: Array<{ type: string }> }> };
    expect(spoken.status).toBe('completed');
    expect(spoken.output[0]!.content[0]!.type).toBe('audio');

    // A beta field with no meaning here is refused by name.
    socket.send({ type: 'session.update', session: { temperature: 0.6 } });
    await eventually(() => expect(of('error')).toHaveLength(1));
    expect(of('error')[0]!.error).toMatchObject({ param: 'session.temperature' });
    socket.close();
  }, 30_000);
});
