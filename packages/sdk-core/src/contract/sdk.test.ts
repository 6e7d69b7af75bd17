import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SDKAgentState, SDKConnectOptions, SDKConnectionState, ToolCallMessage, parseAgentMetadata, parseDataPacket } from './sdk.js';

const transcription = {
  id: 'utt_1',
  agent: true,
  final: false,
  created_at: '2026-01-01T00:00:00.000Z',
  speaking_ended_at: null,
  text: 'Hello th',
};

describe('data packets', () => {
  it('parses each topic into a packet tagged by topic', () => {
    expect(parseDataPacket('message', JSON.stringify(transcription))).toEqual({ topic: 'message', payload: transcription });
    expect(parseDataPacket('error', '{"message":"boom"}')).toEqual({ topic: 'error', payload: { message: 'boom' } });
    expect(parseDataPacket('chat_input', '{"text":"hi"}')).toEqual({ topic: 'chat_input', payload: { text: 'hi' } });
    expect(parseDataPacket('runtime_api', '{"type":"complete","req_id":"r1","payload":{"type":"get_value","value":null}}')).toEqual({
      topic: 'runtime_api',
      payload: { type: 'complete', req_id: 'r1', payload: { type: 'get_value', value: null } },
    });
    const request = {
      type: 'tool_call_request',
      payload: {
        type: 'initiate_request',
        tool_definition: {
          id: 'tool_1',
          name: 'lookup',
          description: 'd',
          parameters: [],
          call_settings: { id: 'cs', destination: { type: 'web_request', url: 'https://x.test' } },
        },
        tool_call: { id: 'call_1', tool_definition_id: 'tool_1', function: { name: 'lookup', arguments: { q: 'x' } } },
      },
    };
    expect(parseDataPacket('tool_call', JSON.stringify(request))).toEqual({ topic: 'tool_call', payload: request });
  });

  it('keeps transcription tool calls and accepts an ended utterance', () => {
    const ended = {
      ...transcription,
      final: true,
      speaking_ended_at: '2026-01-01T00:00:02.000Z',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: {} } }],
    };
    expect(parseDataPacket('message', JSON.stringify(ended))?.payload).toEqual(ended);
  });

  it('answers undefined for unknown topics, malformed JSON and wrong shapes, never throwing', () => {
    expect(parseDataPacket(undefined, '{}')).toBeUndefined();
    expect(parseDataPacket('lk.chat', '{"text":"x"}')).toBeUndefined();
    expect(parseDataPacket('toString', '{}')).toBeUndefined();
    expect(parseDataPacket('message', '{"id":')).toBeUndefined();
    expect(parseDataPacket('message', JSON.stringify({ ...transcription, agent: 'yes' }))).toBeUndefined();
    expect(parseDataPacket('chat_input', '{"text":""}')).toBeUndefined();
    expect(parseDataPacket('tool_call', '{"type":"result","call_id":"c"}')).toBeUndefined();
    expect(parseDataPacket('runtime_api', '{"type":"unknown","req_id":"r"}')).toBeUndefined();
  });

  it('checks the tool definition of a request loosely but requires id and name', () => {
    const message = (definition: unknown) => ({
      type: 'tool_call_request',
      payload: {
        type: 'initiate_request',
        tool_definition: definition,
        tool_call: { id: 'c', tool_definition_id: 't', function: { name: 'f', arguments: {} } },
      },
    });
    expect(ToolCallMessage.safeParse(message({ id: 't', name: 'f' })).success).toBe(true);
    expect(ToolCallMessage.safeParse(message({ id: 't' })).success).toBe(false);
    expect(ToolCallMessage.safeParse({ type: 'result', call_id: 'c', result: { value: 1 }, error: null }).success).toBe(true);
  });
});

describe('agent metadata and enumerations', () => {
  it('parses agent metadata and rejects unknown states', () => {
    expect(parseAgentMetadata('{"agent_state":"listening","remaining_seconds":42}')).toEqual({ agent_state: 'listening', remaining_seconds: 42 });
    expect(parseAgentMetadata('{"agent_state":"warmup","remaining_seconds":null}')).toEqual({ agent_state: 'warmup', remaining_seconds: null });
    expect(parseAgentMetadata('{"agent_state":"dancing","remaining_seconds":null}')).toBeUndefined();
    expect(parseAgentMetadata('not json')).toBeUndefined();
    expect(parseAgentMetadata('')).toBeUndefined();
    expect(parseAgentMetadata(undefined)).toBeUndefined();
  });

  it('lists the spec values (and the resuming extension)', () => {
    expect(SDKConnectionState.options).toEqual(['not_connected', 'connecting', 'waiting_for_agent', 'connected', 'resuming']);
    expect(SDKAgentState.options).toEqual(['warmup', 'listening', 'thinking', 'speaking', 'time_limit_exceeded', 'usage_limit_exceeded']);
  });

  it('accepts connection details, or a token with a config', () => {
    expect(SDKConnectOptions.safeParse({ connection_details: { url: 'ws://127.0.0.1:1', token: 't' } }).success).toBe(true);
    expect(SDKConnectOptions.safeParse({ token: 't', config: { general: {}, input: {}, output: {}, generative: { llm: 'l' } } }).success).toBe(true);
    expect(SDKConnectOptions.safeParse({ token: 't' }).success).toBe(false);
    expect(SDKConnectOptions.safeParse({ connection_details: { url: '', token: 't' } }).success).toBe(false);
  });

  it("uses only zod/mini at runtime (its own wire schemas and the runtime API's) and the wire names' plain constants, so the browser connector stays small", () => {
    const runtimeImports = (file: string) => {
      const source = readFileSync(new URL(file, import.meta.url), 'utf8');
      return [...source.matchAll(/^import (?!type )[^;]*from '([^']+)'/gm)].map((match) => match[1]);
    };
    expect(runtimeImports('./sdk.ts')).toEqual(['zod/mini', './graph/runtime-api.js', './wire.js']);
    expect(runtimeImports('./wire.ts')).toEqual([]);
    expect(runtimeImports('./graph/runtime-api.ts')).toEqual(['zod/mini', './pad-values.js']);
    // pad-values.ts only re-exports its two halves.
    expect(runtimeImports('./graph/pad-values.ts')).toEqual([]);
    expect(runtimeImports('./graph/pad-value-schemas.ts')).toEqual(['zod/mini']);
    expect(runtimeImports('./graph/pad-value-functions.ts')).toEqual([]);
  });
});
