import { describe, expect, it } from 'vitest';
import { SDKConnectOptions, SDKSendChatMessageParams, parseAgentMetadata, parseDataPacket, type DataTopic } from '../../contract/sdk.js';
import { checkAgentMetadata, checkChatMessageParams, checkConnectOptions, checkDataPacket } from './packet-checks.js';

/**
 * The connector's checks (without zod) answer what the contract's zod schemas answer: on a valid packet of every
 * topic and member, and on every variant of it with one field removed, set to another value or added.
 */
const contextMessage = {
  type: 'context_message',
  role: { type: 'context_message_role', value: 'user' },
  content: [
    { content_type: 'text', text: 'hi', extra: 1 },
    { content_type: 'image', image: { url: 'data:image/jpeg;base64,AA', width: 2, height: 3 } },
    { content_type: 'video', video: { url: null, frames: ['a'], frame_count: 1, duration: 0.5 } },
  ],
  tool_calls: [{ call_id: 'c', index: 0, name: 'f', arguments: { q: 1 } }],
  tool_call_id: null,
  refusal: 'no',
  kept: true,
};
const videoClip = { type: 'video_clip', frame_count: 3, duration: 1.5 };
const padValues = [
  null,
  { type: 'string', value: 's' },
  { type: 'integer', value: 3 },
  { type: 'float', value: 0.5 },
  { type: 'boolean', value: false },
  { type: 'enum', value: 'e' },
  { type: 'trigger' },
  { type: 'secret', secret_id: 's1', name: 'key' },
  { type: 'node_reference', node_id: 'n' },
  { type: 'context_message_role', value: 'assistant' },
  contextMessage,
  { type: 'context_message', role: { type: 'context_message_role', value: 'tool' } },
  {
    type: 'list',
    count: 2,
    items: [
      { type: 'string', value: 'a' },
      { type: 'list', count: 0, items: [] },
    ],
  },
  { type: 'object', value: { a: [1] } },
  { type: 'audio_clip', transcription: null, duration: 2 },
  videoClip,
  { type: 'av_clip', video: videoClip, audio: { type: 'audio_clip', transcription: 'hi', duration: 1 } },
  { type: 'tool_definition', name: 't', description: 'd', parameters: { type: 'object' }, destination: { type: 'client_app' } },
  { type: 'viseme', value: 'aa' },
];
const at = { node_id: 'llm', pad_id: 'text' };

const packets: [DataTopic, unknown][] = [
  ['message', { id: 'u1', agent: true, final: false, created_at: '2026-01-01T00:00:00.000Z', speaking_ended_at: null, text: 'Hello' }],
  [
    'message',
    {
      id: 'u2',
      agent: true,
      final: true,
      created_at: '2026-01-01T00:00:00.000Z',
      speaking_ended_at: '2026-01-01T00:00:01.000Z',
      text: 'Hel',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: { a: 1 } } }],
      interrupted: true,
    },
  ],
  ['error', { message: 'boom' }],
  ['chat_input', { text: 'hi' }],
  [
    'tool_call',
    {
      type: 'tool_call_request',
      payload: {
        type: 'initiate_request',
        tool_definition: { id: 'tool_1', name: 'lookup', description: 'd' },
        tool_call: { id: 'call_1', tool_definition_id: 'tool_1', function: { name: 'lookup', arguments: { q: 'x' } } },
      },
    },
  ],
  ['tool_call', { type: 'initiate_ack', call_id: 'c' }],
  ['tool_call', { type: 'result', call_id: 'c', result: { value: 1 }, error: null }],
  ['tool_call', { type: 'cancel', call_id: 'c' }],
  [
    'turn_metrics',
    {
      turn: 0,
      source: 'voice',
      end_of_speech_decision_ms: 300,
      stt_final_ms: 20,
      llm_first_token_ms: 200,
      tts_first_audio_ms: 90,
      response_ms: 700,
      prepared_answer: true,
      discarded_answers: 1,
      end_of_turn: { reason: 'question', probability: 0.9, wait_ms: 250 },
      interrupted: false,
    },
  ],
  ['turn_metrics', { turn: 1, source: 'text', interrupted: true }],
  ['lk-chat-topic', { id: 'm', timestamp: 1, message: 'hi', ignoreLegacy: true, editTimestamp: 2 }],
  ['transcript_resume', { after: null }],
  ['transcript_resume', { after: '2026-01-01T00:00:00.000Z' }],
  ['runtime_api', { type: 'request', req_id: 'r1', payload: { type: 'push_value', ...at, value: { type: 'trigger' } } }],
  ['runtime_api', { type: 'request', req_id: 'r2', payload: { type: 'replay_events', after: 3 } }],
  ...(['get_value', 'get_list_items', 'subscribe', 'unsubscribe'] as const).map((type): [DataTopic, unknown] => [
    'runtime_api',
    { type: 'request', req_id: 'r', payload: { type, ...at } },
  ]),
  ['runtime_api', { type: 'ack', req_id: 'r1' }],
  ['runtime_api', { type: 'complete', req_id: 'r1', error: null, payload: { type: 'get_value', value: null } }],
  ['runtime_api', { type: 'complete', req_id: 'r1', error: 'no such pad' }],
  ['runtime_api', { type: 'event', seq: 4, payload: { type: 'logs', items: [{ message: 'm', level: 'info', timestamp: 't', node: null, pad: 'p' }] } }],
  ...padValues.map((value): [DataTopic, unknown] => ['runtime_api', { type: 'event', seq: 1, payload: { type: 'value', ...at, value } }]),
];

const replacements: unknown[] = [null, 0, -1, 1.5, 2, 2 ** 60, '', 'x', 'x'.repeat(10_001), true, {}, [], ['x']];

/** The value and every variant of it with one field (at any depth) removed, replaced, or one key added. */
function* variants(value: unknown): Generator<unknown> {
  yield value;
  for (const replacement of replacements) yield replacement;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) for (const variant of variants(item)) yield value.map((other, at) => (at === index ? variant : other));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  yield { ...value, added: 1 };
  for (const [key, item] of Object.entries(value)) {
    const { [key]: _removed, ...rest } = value as Record<string, unknown>;
    yield rest;
    for (const variant of variants(item)) yield { ...value, [key]: variant };
  }
}

describe("the connector's checks answer as the contract's zod schemas", () => {
  it('on every topic and member, and every variant of them with a field removed, replaced or added', () => {
    let compared = 0;
    let accepted = 0;
    for (const [topic, payload] of packets) {
      expect(parseDataPacket(topic, JSON.stringify(payload))).toBeDefined();
      for (const variant of variants(payload)) {
        const text = JSON.stringify(variant) ?? 'undefined';
        const expected = parseDataPacket(topic, text);
        expect({ topic, text, checked: checkDataPacket(topic, text) }).toEqual({ topic, text, checked: expected });
        compared += 1;
        if (expected) accepted += 1;
      }
    }
    // Both outcomes are exercised (a few thousand variants, a good share of them valid).
    expect(compared).toBeGreaterThan(2_000);
    expect(accepted).toBeGreaterThan(compared / 10);
  });

  it('fills the defaults the schemas give (a context message without content or tool calls)', () => {
    const text = JSON.stringify({
      type: 'event',
      payload: { type: 'value', ...at, value: { type: 'context_message', role: { type: 'context_message_role', value: 'user' } } },
    });
    expect(checkDataPacket('runtime_api', text)).toEqual({
      topic: 'runtime_api',
      payload: { type: 'event', payload: { type: 'value', ...at, value: expect.objectContaining({ content: [], tool_calls: [] }) } },
    });
  });

  it('answers undefined for unknown topics and malformed JSON, never throwing', () => {
    for (const [topic, text] of [
      [undefined, '{}'],
      ['lk.chat', '{"text":"x"}'],
      ['toString', '{}'],
      ['__proto__', '{}'],
      ['message', '{"id":'],
      ['message', ''],
    ] as const) {
      expect(checkDataPacket(topic, text)).toBeUndefined();
      expect(parseDataPacket(topic, text)).toBeUndefined();
    }
  });

  it('on agent metadata', () => {
    const metadata = { agent_state: 'listening', remaining_seconds: 42 };
    for (const variant of [...variants(metadata), ...variants({ agent_state: 'time_limit_exceeded', remaining_seconds: null })]) {
      const text = JSON.stringify(variant);
      expect(checkAgentMetadata(text)).toEqual(parseAgentMetadata(text));
    }
    for (const text of ['not json', '', undefined]) expect(checkAgentMetadata(text)).toEqual(parseAgentMetadata(text));
  });

  it("on connect()'s options and sendChatMessage()'s argument", () => {
    const details = { connection_details: { url: 'ws://127.0.0.1:1', token: 't' } };
    const start = { token: 't', config: { general: {}, input: {}, output: {}, generative: { llm: 'l' } } };
    for (const variant of [...variants(details), ...variants(start), { ...details, ...start }, { ...start, connection_details: { url: '' } }]) {
      const parsed = SDKConnectOptions.safeParse(variant);
      expect(checkConnectOptions(variant)).toEqual(parsed.success ? parsed.data : undefined);
    }
    for (const variant of variants({ text: 'hi' })) {
      const parsed = SDKSendChatMessageParams.safeParse(variant);
      expect(checkChatMessageParams(variant)).toEqual(parsed.success ? parsed.data : undefined);
    }
  });
});
