// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { ToolCallMessage } from '../contract/sdk.js';
import type { ToolDefinition } from '../contract/tools.js';
import type { ParticipantView } from './agent-participant.js';
import { ClientToolRunner } from './client-tools.js';
import { receivedData } from './received-data.js';
import type { RealtimeEffect, RealtimeInput } from './session-actions.js';
import { reduceRealtime } from './session-reducer.js';
import { initialRealtimeState, type RealtimeState } from './session-state.js';

const definition: ToolDefinition = {
  id: 'tool_1',
  name: 'get_location',
  description: 'Where the user is',
  parameters: [{ name: 'precise', description: 'GPS', type: 'boolean', required: true }],
  call_settings: { id: 'cs_1', destination: { type: 'client_app' } },
};

function request(id: string, name = 'get_location', args: Record<string, unknown> = { precise: true }) {
  return {
    type: 'initiate_request' as const,
    tool_definition: definition,
    tool_call: { id, tool_definition_id: definition.id, function: { name, arguments: args } },
  };
}

/** A runner whose sent messages are recorded with their destination. */
function recordingRunner() {
  const sent: Array<{ message: ToolCallMessage; to: string }> = [];
  const settled: string[] = [];
  const runner = new ClientToolRunner(
    async (message, to) => {
      sent.push({ message, to });
    },
    (id) => settled.push(id),
  );
  return { runner, sent, settled };
}

describe('ClientToolRunner: the app side of client_app tools', () => {
  it('acknowledges at once, runs the handler with the arguments, and sends its value as the result', async () => {
    const { runner, sent, settled } = recordingRunner();
    let ackedBeforeHandler = false;
    runner.register('get_location', async (args, context) => {
      ackedBeforeHandler = sent.some(({ message }) => message.type === 'initiate_ack');
      expect(context.call.id).toBe('call_1');
      expect(context.definition.id).toBe('tool_1');
      expect(context.signal.aborted).toBe(false);
      return { city: 'Lisbon', precise: args.precise };
    });
    await runner.start(request('call_1'), 'agent');
    expect(ackedBeforeHandler).toBe(true);
    expect(sent).toEqual([
      { message: { type: 'initiate_ack', call_id: 'call_1' }, to: 'agent' },
      { message: { type: 'result', call_id: 'call_1', result: { city: 'Lisbon', precise: true }, error: null }, to: 'agent' },
    ]);
    expect(settled).toEqual(['call_1']);
  });

  it('a throwing handler, a missing handler and an undefined value', async () => {
    const { runner, sent } = recordingRunner();
    runner.register('failing', () => {
      throw new Error('permission denied');
    });
    runner.register('nothing', () => undefined);
    await runner.start(request('call_a', 'failing'), 'agent');
    await runner.start(request('call_b', 'unknown_tool'), 'agent');
    await runner.start(request('call_c', 'nothing'), 'agent');
    const results = sent.filter(({ message }) => message.type === 'result').map(({ message }) => message);
    expect(results).toEqual([
      { type: 'result', call_id: 'call_a', result: null, error: 'permission denied' },
      { type: 'result', call_id: 'call_b', result: null, error: "this app has no handler for the tool 'unknown_tool'" },
      { type: 'result', call_id: 'call_c', result: null, error: null },
    ]);
  });

  it('cancel aborts the handler signal and nothing more is sent; unregistering removes the handler', async () => {
    const { runner, sent, settled } = recordingRunner();
    let reason: unknown;
    const off = runner.register(
      'get_location',
      (_args, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject((reason = signal.reason)))),
    );
    const running = runner.start(request('call_1'), 'agent');
    // A repeated request for a running call is ignored.
    await runner.start(request('call_1'), 'agent');
    await Promise.resolve();
    runner.cancel('call_1');
    await running;
    expect((reason as Error).name).toBe('AbortError');
    expect(sent.map(({ message }) => message.type)).toEqual(['initiate_ack']);
    expect(settled).toEqual(['call_1']);
    off();
    expect(runner.has('get_location')).toBe(false);
  });
});

const agent: ParticipantView = {
  identity: 'agent',
  isAgent: true,
  metadata: { agent_state: 'listening', remaining_seconds: null },
  attributes: {},
};
const otherHuman: ParticipantView = { identity: 'someone', isAgent: false, metadata: undefined, attributes: {} };

function run(inputs: RealtimeInput[], from: RealtimeState = initialRealtimeState()): { state: RealtimeState; effects: RealtimeEffect[] } {
  let state = from;
  const effects: RealtimeEffect[] = [];
  for (const input of inputs) {
    const step = reduceRealtime(state, input);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const connected = () =>
  run([
    { type: 'connect_requested', options: { connection_details: { url: 'ws://127.0.0.1:1', token: 'jwt' } } },
    { type: 'room_joined', attempt: 1, participants: [agent], roomMetadata: undefined, canPlayAudio: true },
  ]).state;

const toolPacket = (message: ToolCallMessage, from: ParticipantView = agent): RealtimeInput => ({
  type: 'data_received',
  attempt: 1,
  packet: { topic: 'tool_call', payload: message },
  from,
});
const work = (effects: RealtimeEffect[]) => effects.filter((effect) => effect.type !== 'emit');

describe('reduceRealtime: client-side tool calls', () => {
  it('a request from the agent is pending in the snapshot and runs once; settling removes it', () => {
    const start = connected();
    expect(start.toolCalls).toEqual([]);
    const requested = run([toolPacket({ type: 'tool_call_request', payload: request('call_1') })], start);
    expect(requested.state.toolCalls).toEqual([{ call: request('call_1').tool_call, definition }]);
    expect(Object.isFrozen(requested.state.toolCalls)).toBe(true);
    expect(work(requested.effects)).toEqual([{ type: 'run_tool_call', attempt: 1, agentIdentity: 'agent', request: request('call_1') }]);

    const again = run([toolPacket({ type: 'tool_call_request', payload: request('call_1') })], requested.state);
    expect(again.state).toBe(requested.state);
    expect(work(again.effects)).toEqual([]);

    const settled = run([{ type: 'tool_call_settled', attempt: 1, callId: 'call_1' }], requested.state);
    expect(settled.state.toolCalls).toEqual([]);
    expect(run([{ type: 'tool_call_settled', attempt: 1, callId: 'call_1' }], settled.state).state).toBe(settled.state);
  });

  it('a cancel from the agent stops the call; requests from someone else and malformed ones are ignored', () => {
    const requested = run([toolPacket({ type: 'tool_call_request', payload: request('call_1') })], connected()).state;
    const cancelled = run([toolPacket({ type: 'cancel', call_id: 'call_1' })], requested);
    expect(cancelled.state.toolCalls).toEqual([]);
    expect(work(cancelled.effects)).toEqual([{ type: 'cancel_tool_call', callId: 'call_1' }]);
    expect(work(run([toolPacket({ type: 'cancel', call_id: 'call_1' })], cancelled.state).effects)).toEqual([]);

    const fromHuman = run([toolPacket({ type: 'tool_call_request', payload: request('call_2') }, otherHuman)], connected());
    expect(fromHuman.state.toolCalls).toEqual([]);
    expect(fromHuman.effects).toEqual([]);
    // A malformed request stops at the room link (received-data.ts): the reducer never sees it.
    expect(receivedData('tool_call', '{"type":"tool_call_request","payload":{}}', agent)).toBeUndefined();
  });

  it('ending the session drops pending calls (the shell cancels them when it leaves the room)', () => {
    const requested = run([toolPacket({ type: 'tool_call_request', payload: request('call_1') })], connected()).state;
    const ended = run([{ type: 'disconnect_requested' }], requested);
    expect(ended.state.toolCalls).toEqual([]);
    expect(work(ended.effects)).toContainEqual({ type: 'leave_room', attempt: 1 });
  });
});
