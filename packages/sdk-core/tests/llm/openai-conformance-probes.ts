import { connect } from 'node:net';
import type OpenAI from 'openai';
import { OpenAIRealtimeWS as BetaRealtimeWS } from 'openai/beta/realtime/ws';
import type { RealtimeClientEvent as BetaClientEvent } from 'openai/resources/beta/realtime/realtime';
import type { OpenAIRealtimeWS } from 'openai/realtime/ws';
import type { RealtimeClientEvent } from 'openai/resources/realtime/realtime';
import type { Speech } from '../../src/server/engines/speech/index.js';
import { expect } from 'vitest';
import { AUDIBLE_RMS, rms } from '../../src/testing/agent-harness.js';
import { eventually } from '../../src/testing/media-test-support.js';
import { RATE, spoken, type ReceivedEvents } from './realtime-test-client.js';
import { CallClient, placeCall } from './webrtc-call-client.js';

const CALLS = 'POST /v1/realtime/calls';

/** A call with the `openai` package and the target's model (Responses API, client secrets); `field` is what a refusal must name. */
export interface CallProbe {
  kind: 'call';
  field: string;
  run: (openai: OpenAI, model: string) => Promise<unknown>;
}

/** A Realtime API probe on a fresh session: resolves when the feature worked; `field` is what an error event must name. */
export interface RealtimeProbe {
  kind: 'realtime';
  field: string;
  needsStt?: boolean;
  run: (socket: OpenAIRealtimeWS, events: ReceivedEvents, speech: Speech) => Promise<unknown>;
}

const respond = (field: string, run: CallProbe['run']): CallProbe => ({ kind: 'call', field, run });
const create = (extra: Record<string, unknown>) => (openai: OpenAI, model: string) =>
  openai.responses.create({ model, input: 'Hi there', ...extra } as OpenAI.Responses.ResponseCreateParamsNonStreaming);

export const CALL_PROBES: Record<string, CallProbe> = {
  'POST /v1/responses | input: text, messages; instructions': respond('input', async (openai, model) => {
    await openai.responses.create({ model, instructions: 'Be brief.', input: 'Hi there' });
    await openai.responses.create({
      model,
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: [{ type: 'input_text', text: 'What is this?' }] },
      ],
    });
  }),
  'POST /v1/responses | stream: typed events': respond('stream', async (openai, model) => {
    const stream = await openai.responses.create({ model, input: 'Hi there', stream: true });
    for await (const event of stream) void event;
  }),
  'POST /v1/responses | store, previous_response_id; retrieve, delete, input_items': respond('previous_response_id', async (openai, model) => {
    const first = await openai.responses.create({ model, input: 'Hi there', store: true });
    const second = await openai.responses.create({ model, input: 'And again', previous_response_id: first.id });
    await openai.responses.retrieve(second.id);
    for await (const item of openai.responses.inputItems.list(second.id)) void item;
    await openai.responses.delete(first.id);
  }),
  'POST /v1/responses | tools (function), tool_choice, parallel_tool_calls': respond(
    'tools',
    create({
      tools: [{ type: 'function', name: 'get_weather', description: 'The weather', parameters: { type: 'object', properties: {} }, strict: false }],
      tool_choice: 'auto',
      parallel_tool_calls: true,
    }),
  ),
  'POST /v1/responses | text.format: json_schema (structured output)': respond(
    'text',
    create({
      text: {
        format: {
          type: 'json_schema',
          name: 'answer',
          strict: true,
          schema: { type: 'object', properties: { reply: { type: 'string' } }, required: ['reply'], additionalProperties: false },
        },
      },
    }),
  ),
  'POST /v1/responses | max_output_tokens, temperature, top_p, metadata, user': respond(
    'max_output_tokens',
    create({ max_output_tokens: 50, temperature: 0.2, top_p: 0.9, metadata: { app: 'test' }, user: 'someone' }),
  ),
  'POST /v1/responses | reasoning.effort': respond('reasoning_effort', create({ reasoning: { effort: 'low' } })),
  'POST /v1/responses | background: true': respond('background', create({ background: true })),
  'POST /v1/responses | truncation: auto': respond('truncation', create({ truncation: 'auto' })),
  'POST /v1/responses | include, conversation, built-in tools': respond('include', create({ include: ['message.output_text.logprobs'] })),
  'WS /v1/realtime | the beta protocol (OpenAI-Beta: realtime=v1)': respond('session', async (openai) => {
    const { hostname, port } = new URL(openai.baseURL);
    const socket = new BetaRealtimeWS(
      { model: 'builtin-offline', options: { createConnection: () => connect({ host: hostname, port: Number(port) }) } },
      openai,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on('error', (error) => reject(error));
        // The beta types have no null turn detection; the beta protocol takes it (as the GA one).
        socket.on('session.created', () =>
          socket.send({ type: 'session.update', session: { modalities: ['text'], turn_detection: null } } as unknown as BetaClientEvent),
        );
        socket.on('session.updated', () =>
          socket.send({ type: 'response.create', response: { input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi' }] }] } }),
        );
        socket.on('response.text.done', () => resolve());
      });
    } finally {
      socket.close();
    }
  }),
  'WS /v1/realtime | ephemeral keys: POST /v1/realtime/client_secrets': respond('session', async (openai) => {
    const secret = await openai.realtime.clientSecrets.create(
      { expires_after: { anchor: 'created_at', seconds: 60 }, session: { type: 'realtime', model: 'builtin-offline' } },
      { headers: { 'x-human-id': 'conformance-human' } },
    );
    if (!secret.value.startsWith('ek_')) throw new Error('not an ephemeral key');
  }),
  [`${CALLS} | SDP offer (application/sdp or a form), answer with Location`]: respond('sdp', (openai) =>
    onCall(openai, async (client, callId) => {
      if (!callId.startsWith('rtc_')) throw new Error(`no call id in Location: ${callId}`);
      await client.next('session.created');
    }),
  ),
  [`${CALLS} | events on the oai-events data channel`]: respond('sdp', (openai) =>
    onCall(openai, async (client) => {
      client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi there' }] } });
      client.send({ type: 'response.create', response: { output_modalities: ['text'] } });
      await client.next('response.output_text.done');
      await client.next('response.done');
    }),
  ),
  [`${CALLS} | audio: Opus tracks both ways`]: respond('sdp', (openai) =>
    onCall(openai, async (client) => {
      client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi there' }] } });
      client.send({ type: 'response.create' });
      await client.next('output_audio_buffer.stopped');
      await eventually(() => expect(rms(client.heardPcm())).toBeGreaterThan(AUDIBLE_RMS), 10_000);
    }),
  ),
  [`${CALLS} | output_audio_buffer.started, stopped, cleared; output_audio_buffer.clear`]: respond('sdp', (openai) =>
    onCall(openai, async (client) => {
      client.send({ type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hi there' }] } });
      client.send({ type: 'response.create' });
      await client.next('output_audio_buffer.started');
      client.send({ type: 'output_audio_buffer.clear' });
      await client.next('output_audio_buffer.cleared');
      expect((await client.next('response.done')).response).toMatchObject({ status: 'cancelled' });
    }),
  ),
  [`${CALLS} | hang-up: POST /v1/realtime/calls/{call_id}/hangup`]: respond('call_id', (openai) =>
    onCall(openai, async (_client, callId) => {
      const response = await fetch(`${openai.baseURL}/realtime/calls/${callId}/hangup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${openai.apiKey}` },
      });
      if (response.status !== 200) throw new Error(`hang-up answered ${response.status}`);
    }),
  ),
};

/** Runs `use` on a connected WebRTC call of the platform (a werift client peer), then closes it. */
async function onCall(openai: OpenAI, use: (client: CallClient, callId: string) => Promise<void>): Promise<void> {
  const client = new CallClient();
  try {
    const response = await placeCall(client, openai.baseURL, openai.apiKey ?? '');
    if (response.status !== 201) throw new Error(`the call answered ${response.status}: ${await response.text()}`);
    const callId = response.headers.get('location')?.split('/').pop() ?? '';
    await client.connect(await response.text());
    await use(client, callId);
  } finally {
    await client.close();
  }
}

function base64(pcm: Int16Array): string {
  return Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength).toString('base64');
}

const probe = (field: string, run: RealtimeProbe['run'], needsStt = false): RealtimeProbe => ({ kind: 'realtime', field, run, needsStt });
const send = (socket: OpenAIRealtimeWS, event: Record<string, unknown>) => socket.send(event as unknown as RealtimeClientEvent);
const update = (session: Record<string, unknown>) => async (socket: OpenAIRealtimeWS, events: ReceivedEvents) => {
  send(socket, { type: 'session.update', session: { type: 'realtime', ...session } });
  await events.next('session.updated', () => true, 1, 10_000);
};
const userText = (socket: OpenAIRealtimeWS, text: string) =>
  send(socket, { type: 'conversation.item.create', item: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] } });
const textOnly = { output_modalities: ['text'], audio: { input: { turn_detection: null } } };

/** Streams speech then silence into the buffer at a microphone's pace. */
async function speak(socket: OpenAIRealtimeWS, speech: Speech, paced: boolean): Promise<void> {
  const pcm = await spoken(speech, 'Please call me tomorrow morning.');
  const audio = new Int16Array(pcm.length + RATE * 1.5);
  audio.set(pcm);
  const chunk = (RATE * 40) / 1000;
  const started = performance.now();
  for (let offset = 0; offset < audio.length; offset += chunk) {
    send(socket, { type: 'input_audio_buffer.append', audio: base64(audio.subarray(offset, offset + chunk)) });
    const aheadMs = ((offset + chunk) / RATE) * 1000 - (performance.now() - started);
    if (paced && aheadMs > 0) await new Promise((resolve) => setTimeout(resolve, aheadMs));
  }
}

const REALTIME = 'WS /v1/realtime';
export const REALTIME_PROBES: Record<string, RealtimeProbe> = {
  [`${REALTIME} | session.update: instructions, tools, tool_choice, output_modalities, max_output_tokens`]: probe(
    'session',
    update({
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'get_weather', description: 'The weather', parameters: { type: 'object', properties: {} } }],
      tool_choice: 'auto',
      output_modalities: ['text'],
      max_output_tokens: 200,
    }),
  ),
  [`${REALTIME} | audio format: audio/pcm 24 kHz`]: probe(
    'session.audio',
    update({ audio: { input: { format: { type: 'audio/pcm', rate: 24_000 } }, output: { format: { type: 'audio/pcm', rate: 24_000 } } } }),
  ),
  [`${REALTIME} | audio format: audio/pcmu, audio/pcma`]: probe(
    'session.audio',
    update({ audio: { input: { format: { type: 'audio/pcmu' } }, output: { format: { type: 'audio/pcma' } } } }),
  ),
  [`${REALTIME} | turn_detection: server_vad, semantic_vad`]: probe(
    'turn_detection',
    async (socket, events, speech) => {
      await update({ audio: { input: { turn_detection: { type: 'semantic_vad', eagerness: 'high' }, transcription: { model: 'whisper-1' } } } })(
        socket,
        events,
      );
      await speak(socket, speech, true);
      await events.next('conversation.item.input_audio_transcription.completed');
    },
    true,
  ),
  [`${REALTIME} | turn_detection: null; input_audio_buffer.commit`]: probe(
    'input_audio_buffer',
    async (socket, events, speech) => {
      await update({ audio: { input: { turn_detection: null, transcription: { model: 'whisper-1' } } } })(socket, events);
      await speak(socket, speech, false);
      send(socket, { type: 'input_audio_buffer.commit' });
      await events.next('conversation.item.input_audio_transcription.completed');
    },
    true,
  ),
  [`${REALTIME} | audio.input.transcription.model`]: probe('transcription', update({ audio: { input: { transcription: { model: 'gpt-4o-transcribe' } } } })),
  [`${REALTIME} | audio.output.voice: a platform voice id`]: probe('session.audio.output.voice', update({ audio: { output: { voice: 'flite-slt' } } })),
  [`${REALTIME} | input_audio_buffer.append, clear`]: probe('input_audio_buffer', async (socket, events) => {
    send(socket, { type: 'input_audio_buffer.append', audio: base64(new Int16Array(2400)) });
    send(socket, { type: 'input_audio_buffer.clear' });
    await events.next('input_audio_buffer.cleared');
  }),
  [`${REALTIME} | conversation.item.create, retrieve, delete`]: probe('item', async (socket, events) => {
    userText(socket, 'Hi there');
    const added = await events.next('conversation.item.added');
    send(socket, { type: 'conversation.item.retrieve', item_id: added.item.id });
    await events.next('conversation.item.retrieved');
    send(socket, { type: 'conversation.item.delete', item_id: added.item.id });
    await events.next('conversation.item.deleted');
  }),
  [`${REALTIME} | conversation.item.truncate`]: probe('audio_end_ms', async (socket, events) => {
    await update({ audio: { input: { turn_detection: null } } })(socket, events);
    userText(socket, 'Hi there');
    send(socket, { type: 'response.create' });
    const delta = await events.next('response.output_audio.delta');
    send(socket, { type: 'response.cancel' });
    await events.next('response.done');
    send(socket, { type: 'conversation.item.truncate', item_id: delta.item_id, content_index: 0, audio_end_ms: 0 });
    await events.next('conversation.item.truncated');
  }),
  [`${REALTIME} | response.create: audio, audio transcript and text deltas`]: probe('response', async (socket, events) => {
    await update({ audio: { input: { turn_detection: null } } })(socket, events);
    userText(socket, 'Hi there');
    send(socket, { type: 'response.create' });
    await events.next('response.done');
    await events.next('response.output_audio.delta');
    await events.next('response.output_audio_transcript.done');
    send(socket, { type: 'response.create', response: { output_modalities: ['text'] } });
    await events.next('response.output_text.done');
  }),
  [`${REALTIME} | response.create: conversation none, input, instructions, metadata`]: probe('response', async (socket, events) => {
    await update(textOnly)(socket, events);
    send(socket, {
      type: 'response.create',
      response: {
        conversation: 'none',
        input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Classify this.' }] }],
        instructions: 'Answer in one word.',
        metadata: { purpose: 'classification' },
      },
    });
    const done = await events.next('response.done');
    if (done.response.conversation_id !== null || done.response.metadata?.purpose !== 'classification') throw new Error('not out of band');
  }),
  [`${REALTIME} | response.cancel; speech cancels the response`]: probe('response_id', async (socket, events) => {
    userText(socket, 'Hi there');
    send(socket, { type: 'response.create' });
    const delta = await events.next('response.output_audio.delta');
    send(socket, { type: 'response.cancel', response_id: delta.response_id });
    const done = await events.next('response.done');
    if (done.response.status !== 'cancelled') throw new Error(`status ${done.response.status}`);
  }),
  [`${REALTIME} | function calls`]: probe('tools', async (socket, events) => {
    await update({
      ...textOnly,
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'The weather in a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
    })(socket, events);
    userText(socket, 'What is the weather in Paris?');
    send(socket, { type: 'response.create' });
    const call = await events.next('response.function_call_arguments.done');
    send(socket, { type: 'conversation.item.create', item: { type: 'function_call_output', call_id: call.call_id, output: 'sunny' } });
    send(socket, { type: 'response.create' });
    await events.next('response.output_text.done');
  }),
  [`${REALTIME} | usage in response.done`]: probe('usage', async (socket, events) => {
    await update(textOnly)(socket, events);
    userText(socket, 'Hi there');
    send(socket, { type: 'response.create' });
    const done = await events.next('response.done');
    if (!done.response.usage?.output_tokens) throw new Error('no usage');
  }),
  [`${REALTIME} | tracing`]: probe('session.tracing', update({ tracing: 'auto' })),
  [`${REALTIME} | noise_reduction, speed other than 1`]: probe('session.audio', update({ audio: { input: { noise_reduction: { type: 'near_field' } } } })),
  [`${REALTIME} | prompt, reasoning, MCP tools`]: probe('session.prompt', update({ prompt: { id: 'pmpt_1' } })),
  [`${REALTIME} | output_audio_buffer.clear`]: probe('output_audio_buffer.clear', async (socket, events) => {
    send(socket, { type: 'output_audio_buffer.clear' });
    await events.next('output_audio_buffer.cleared' as 'input_audio_buffer.cleared', () => true, 1, 10_000);
  }),
  [`${REALTIME} | an event or field OpenAI does not define`]: probe('session.colour', update({ colour: 'blue' })),
};
