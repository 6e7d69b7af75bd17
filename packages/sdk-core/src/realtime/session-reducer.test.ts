// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import type { SDKSessionTranscription } from '../contract/sdk.js';
import { ConnectionError } from '../errors/transport-errors.js';
import { AgentError } from './agent-error.js';
import type { ParticipantView } from './agent-participant.js';
import type { RealtimeEffect, RealtimeInput } from './session-actions.js';
import { reduceRealtime } from './session-reducer.js';
import { initialRealtimeState, type RealtimeState } from './session-state.js';
import { receivedData, receivedParticipant } from './received-data.js';

const details = { connection_details: { url: 'ws://127.0.0.1:1', token: 'jwt' } };
const config = { general: {}, input: {}, output: {}, generative: { llm: 'llm_builtin' } } as never;

function agent(metadata?: object | string, attributes: Record<string, string> = {}): ParticipantView {
  return receivedParticipant({
    identity: 'agent',
    isAgent: true,
    metadata: typeof metadata === 'string' ? metadata : metadata && JSON.stringify(metadata),
    attributes,
  });
}
const human: ParticipantView = { identity: 'other_human', isAgent: false, metadata: undefined, attributes: {} };

function utterance(id: string, text: string, createdAt: string, isAgent = true, final = false): SDKSessionTranscription {
  return { id, agent: isAgent, final, created_at: createdAt, speaking_ended_at: null, text };
}

/** Feeds inputs in order; returns the final state and every effect, in order. */
function run(inputs: (RealtimeInput | undefined)[], from: RealtimeState = initialRealtimeState()): { state: RealtimeState; effects: RealtimeEffect[] } {
  let state = from;
  const effects: RealtimeEffect[] = [];
  for (const input of inputs) {
    const step = reduce(state, input);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const emitted = (effects: RealtimeEffect[]) => effects.flatMap((effect) => (effect.type === 'emit' ? [effect.notification] : []));
const work = (effects: RealtimeEffect[]) => effects.filter((effect) => effect.type !== 'emit');
const names = (effects: RealtimeEffect[]) => emitted(effects).map((notification) => notification.name);

const joined = (participants: ParticipantView[] = [], attempt = 1): RealtimeInput => ({
  type: 'room_joined',
  attempt,
  participants,
  roomMetadata: JSON.stringify({ session: 'rs_room' }),
  canPlayAudio: true,
});
/** A packet as the room link passes it on (undefined: dropped there, unknown or malformed). `from: null`: sent by the server. */
function packet(topic: string, payload: unknown, from: ParticipantView | null = agent(), attempt = 1): RealtimeInput | undefined {
  const input = receivedData(topic, typeof payload === 'string' ? payload : JSON.stringify(payload), from ?? undefined);
  return input && { ...input, attempt };
}
/** One step; an input the link dropped changes nothing. */
function reduce(state: RealtimeState, input: RealtimeInput | undefined): { state: RealtimeState; effects: RealtimeEffect[] } {
  return input ? reduceRealtime(state, input) : { state, effects: [] };
}
const connectedWithAgent = (metadata: object = { agent_state: 'listening', remaining_seconds: null }) =>
  run([{ type: 'connect_requested', options: details }, joined([agent(metadata)])]).state;

describe('reduceRealtime: connecting', () => {
  it('joins directly with connection details: not_connected -> connecting (joining_room)', () => {
    const { state, effects } = run([{ type: 'connect_requested', options: details }]);
    expect(state).toMatchObject({ status: 'connecting', step: 'joining_room', connectionState: 'connecting', attempt: 1 });
    expect(work(effects)).toEqual([{ type: 'join_room', attempt: 1, url: 'ws://127.0.0.1:1', token: 'jwt' }]);
    expect(emitted(effects)).toEqual([
      { name: 'statusChanged', args: ['connecting'] },
      { name: 'connectionStateChanged', args: ['connecting'] },
    ]);
  });

  it('with a usage token starts the session first, then joins with the returned details', () => {
    const started = run([{ type: 'connect_requested', options: { token: 'usage', config } }]);
    expect(started.state).toMatchObject({ status: 'connecting', step: 'starting_session' });
    expect(work(started.effects)).toEqual([{ type: 'start_session', attempt: 1, token: 'usage', config }]);
    const joining = run([{ type: 'session_started', attempt: 1, sessionId: 'rs_1', url: 'ws://x', token: 'room-jwt' }], started.state);
    expect(joining.state).toMatchObject({ status: 'connecting', step: 'joining_room', sessionId: 'rs_1' });
    expect(work(joining.effects)).toEqual([{ type: 'join_room', attempt: 1, url: 'ws://x', token: 'room-jwt' }]);
    // Only the status's detail changed: no connection-state event.
    expect(names(joining.effects)).toEqual([]);
  });

  it('joined without an agent: waiting_for_agent, the agent wait starts and the microphone is published', () => {
    const { state, effects } = run([{ type: 'connect_requested', options: details }, joined()]);
    expect(state).toMatchObject({ status: 'waiting_for_agent', connectionState: 'waiting_for_agent', sessionId: 'rs_room', agentState: undefined });
    expect(work(effects).slice(1)).toEqual([
      { type: 'schedule_agent_wait', attempt: 1 },
      { type: 'set_microphone', attempt: 1, enabled: true },
    ]);
  });

  it('joined with the agent already there: connected with its state and remaining time', () => {
    const state = connectedWithAgent({ agent_state: 'listening', remaining_seconds: 42 });
    expect(state).toMatchObject({ status: 'connected', connectionState: 'connected', agentIdentity: 'agent', agentState: 'listening', remainingSeconds: 42 });
  });

  it('a session started through the API keeps its id over the room metadata', () => {
    const { state } = run([
      { type: 'connect_requested', options: { token: 'usage', config } },
      { type: 'session_started', attempt: 1, sessionId: 'rs_api', url: 'ws://x', token: 'jwt' },
      joined(),
    ]);
    expect(state.sessionId).toBe('rs_api');
  });

  it('a failed connect ends as failed with the error, emitted once, and cleans up', () => {
    const error = new ConnectionError('unauthorized', 'token rejected');
    const { state, effects } = run([
      { type: 'connect_requested', options: details },
      { type: 'connect_failed', attempt: 1, error },
    ]);
    expect(state).toMatchObject({ status: 'not_connected', connectionState: 'not_connected', ended: { reason: 'failed', error }, error });
    expect(work(effects)).toContainEqual({ type: 'leave_room', attempt: 1 });
    expect(emitted(effects).filter((notification) => notification.name === 'error')).toEqual([{ name: 'error', args: [error] }]);
    expect(names(effects).at(-1)).toBe('ended');
  });

  it('connect while already connecting changes nothing', () => {
    const connecting = run([{ type: 'connect_requested', options: details }]).state;
    expect(reduceRealtime(connecting, { type: 'connect_requested', options: details })).toEqual({ state: connecting, effects: [] });
  });

  it('ignores the results of an earlier attempt', () => {
    const { state } = run([
      { type: 'connect_requested', options: { token: 'usage', config } },
      { type: 'disconnect_requested' },
      { type: 'connect_requested', options: details },
    ]);
    expect(state.attempt).toBe(2);
    for (const stale of [
      { type: 'session_started', attempt: 1, sessionId: 'rs_old', url: 'ws://old', token: 'old' },
      joined([agent({ agent_state: 'listening', remaining_seconds: null })], 1),
      { type: 'connect_failed', attempt: 1, error: new Error('old') },
      packet('message', utterance('u1', 'old', '2024-01-01T00:00:00Z'), agent(), 1)!,
    ] satisfies RealtimeInput[]) {
      expect(reduceRealtime(state, stale)).toEqual({ state, effects: [] });
    }
  });

  it("hanging up ends the unfinished lines with what was said (the agent's as interrupted) and stops the countdown", () => {
    const { state } = run(
      [
        packet('message', utterance('u0', 'Tell me', '2024-01-01T00:00:00Z', false)),
        packet('message', utterance('u1', 'I was saying', '2024-01-01T00:00:01Z')),
        { type: 'disconnect_requested' },
      ],
      connectedWithAgent({ agent_state: 'speaking', remaining_seconds: 120 }),
    );
    expect(state.status).toBe('not_connected');
    expect(state.remainingSeconds).toBeNull();
    expect(state.transcriptions).toEqual([
      { ...utterance('u0', 'Tell me', '2024-01-01T00:00:00Z', false), final: true },
      { ...utterance('u1', 'I was saying', '2024-01-01T00:00:01Z'), final: true, interrupted: true },
    ]);
  });

  it('a new connect starts clean: no transcript, error or agent state from the last session', () => {
    const ended = run(
      [packet('message', utterance('u1', 'hello', '2024-01-01T00:00:00Z')), packet('error', { message: 'boom' }), { type: 'disconnect_requested' }],
      connectedWithAgent(),
    ).state;
    expect(ended.transcriptions).toHaveLength(1);
    const again = run([{ type: 'connect_requested', options: details }], ended).state;
    expect(again).toMatchObject({ status: 'connecting', attempt: 2, transcriptions: [], error: undefined, agentState: undefined, sessionId: undefined });
  });
});

describe('reduceRealtime: the agent', () => {
  it('waiting_for_agent -> connected when the agent joins; other participants change nothing', () => {
    const waiting = run([{ type: 'connect_requested', options: details }, joined()]).state;
    expect(reduceRealtime(waiting, { type: 'participant_joined', attempt: 1, participant: human }).state).toBe(waiting);
    const { state, effects } = run(
      [{ type: 'participant_joined', attempt: 1, participant: agent({ agent_state: 'warmup', remaining_seconds: null }) }],
      waiting,
    );
    expect(state).toMatchObject({ status: 'connected', agentState: 'warmup' });
    expect(work(effects)).toEqual([{ type: 'cancel_agent_wait' }]);
    expect(names(effects)).toEqual(['statusChanged', 'connectionStateChanged', 'agentStateChanged']);
  });

  it('an agent without usable metadata is warming up; the lk.agent.state attribute is the fallback', () => {
    const waiting = run([{ type: 'connect_requested', options: details }, joined()]).state;
    expect(run([{ type: 'participant_joined', attempt: 1, participant: agent() }], waiting).state.agentState).toBe('warmup');
    expect(run([{ type: 'participant_joined', attempt: 1, participant: agent('{not json') }], waiting).state.agentState).toBe('warmup');
    const byAttribute = run([{ type: 'participant_joined', attempt: 1, participant: agent(undefined, { 'lk.agent.state': 'thinking' }) }], waiting).state;
    expect(byAttribute).toMatchObject({ agentState: 'thinking', remainingSeconds: null });
    const initializing = run([{ type: 'participant_joined', attempt: 1, participant: agent(undefined, { 'lk.agent.state': 'initializing' }) }], waiting).state;
    expect(initializing.agentState).toBe('warmup');
  });

  it('a LiveKit agent (kind AGENT) with another identity counts as the agent', () => {
    const waiting = run([{ type: 'connect_requested', options: details }, joined()]).state;
    const worker: ParticipantView = { identity: 'agent-AJ_x1', isAgent: true, metadata: undefined, attributes: { 'lk.agent.state': 'listening' } };
    expect(run([{ type: 'participant_joined', attempt: 1, participant: worker }], waiting).state).toMatchObject({
      status: 'connected',
      agentIdentity: 'agent-AJ_x1',
    });
  });

  it('follows the agent metadata: listening -> thinking -> speaking with the remaining seconds', () => {
    let state = connectedWithAgent();
    const seen: unknown[] = [];
    for (const [agentState, remaining] of [
      ['thinking', 30],
      ['speaking', 29],
      ['listening', 28],
    ] as const) {
      const step = reduceRealtime(state, {
        type: 'participant_updated',
        attempt: 1,
        participant: agent({ agent_state: agentState, remaining_seconds: remaining }),
      });
      state = step.state;
      seen.push(...emitted(step.effects));
    }
    expect(state).toMatchObject({ agentState: 'listening', remainingSeconds: 28 });
    expect(seen).toEqual([
      { name: 'agentStateChanged', args: ['thinking'] },
      { name: 'remainingSecondsChanged', args: [30] },
      // 30 s left is under the default warning threshold (60 s): the warning fires once.
      { name: 'remainingSecondsWarning', args: [30] },
      { name: 'agentStateChanged', args: ['speaking'] },
      { name: 'remainingSecondsChanged', args: [29] },
      { name: 'agentStateChanged', args: ['listening'] },
      { name: 'remainingSecondsChanged', args: [28] },
    ]);
  });

  it('malformed metadata keeps the last state; an attribute-only update keeps the remaining seconds', () => {
    const state = connectedWithAgent({ agent_state: 'thinking', remaining_seconds: 9 });
    expect(reduceRealtime(state, { type: 'participant_updated', attempt: 1, participant: agent('{"agent_state":"dancing"}') }).state).toBe(state);
    const next = run([{ type: 'participant_updated', attempt: 1, participant: agent(undefined, { 'lk.agent.state': 'speaking' }) }], state).state;
    expect(next).toMatchObject({ agentState: 'speaking', remainingSeconds: 9 });
  });

  it('updates of someone else than the agent are ignored', () => {
    const state = connectedWithAgent();
    expect(
      reduceRealtime(state, {
        type: 'participant_updated',
        attempt: 1,
        participant: { ...human, metadata: { agent_state: 'speaking', remaining_seconds: 1 } },
      }).state,
    ).toBe(state);
  });

  it('the agent leaving: back to waiting_for_agent, no agent state, the agent wait restarts', () => {
    const { state, effects } = run(
      [{ type: 'participant_left', attempt: 1, identity: 'agent' }],
      connectedWithAgent({ agent_state: 'speaking', remaining_seconds: 5 }),
    );
    expect(state).toMatchObject({ status: 'waiting_for_agent', connectionState: 'waiting_for_agent', agentState: undefined, remainingSeconds: null });
    expect(work(effects)).toEqual([{ type: 'schedule_agent_wait', attempt: 1 }]);
    expect(reduceRealtime(state, { type: 'participant_left', attempt: 1, identity: 'agent' }).state).toBe(state);
  });

  it('no agent in time: ends as agent_unavailable with a typed ConnectionError', () => {
    const waiting = run([{ type: 'connect_requested', options: details }, joined()]).state;
    const { state, effects } = run([{ type: 'agent_wait_expired', attempt: 1 }], waiting);
    expect(state).toMatchObject({ status: 'not_connected', ended: { reason: 'agent_unavailable' } });
    expect(ConnectionError.isInstance(state.error) && state.error.reason).toBe('agent_unavailable');
    expect(work(effects)).toContainEqual({ type: 'leave_room', attempt: 1 });
    // Once connected the timer is moot.
    expect(reduceRealtime(connectedWithAgent(), { type: 'agent_wait_expired', attempt: 1 }).effects).toEqual([]);
  });

  for (const terminal of ['time_limit_exceeded', 'usage_limit_exceeded'] as const) {
    it(`${terminal} is terminal: later states do not replace it, and it survives the end of the session`, () => {
      let state = connectedWithAgent({ agent_state: 'speaking', remaining_seconds: 1 });
      state = run([{ type: 'participant_updated', attempt: 1, participant: agent({ agent_state: terminal, remaining_seconds: 0 }) }], state).state;
      expect(state).toMatchObject({ status: 'connected', agentState: terminal, remainingSeconds: 0 });
      expect(
        reduceRealtime(state, { type: 'participant_updated', attempt: 1, participant: agent({ agent_state: 'listening', remaining_seconds: 0 }) }).state,
      ).toBe(state);
      expect(reduceRealtime(state, { type: 'participant_updated', attempt: 1, participant: agent(undefined, { 'lk.agent.state': 'listening' }) }).state).toBe(
        state,
      );

      // The agent leaves: the session is over, with the terminal state as the reason.
      const left = run([{ type: 'participant_left', attempt: 1, identity: 'agent' }], state);
      expect(left.state).toMatchObject({ status: 'not_connected', agentState: terminal, ended: { reason: terminal }, error: undefined });
      expect(work(left.effects)).toContainEqual({ type: 'leave_room', attempt: 1 });
      expect(emitted(left.effects)).toContainEqual({ name: 'ended', args: [{ reason: terminal }] });

      // Or the server closes the room first: same reason.
      const closed = run([{ type: 'room_disconnected', attempt: 1, cause: 'room_closed' }], state).state;
      expect(closed).toMatchObject({ status: 'not_connected', agentState: terminal, ended: { reason: terminal } });
    });
  }
});

describe('reduceRealtime: data packets', () => {
  it("keeps the agent's interrupted mark: the line cut by barge-in ends final and interrupted, a whole one unmarked", () => {
    const { state, effects } = run(
      [
        packet('message', utterance('u1', 'You said: "what', '2024-01-01T00:00:01Z')),
        packet('message', { ...utterance('u1', 'You said: "what is', '2024-01-01T00:00:01Z', true, true), interrupted: true }),
        packet('message', utterance('u2', 'Hello.', '2024-01-01T00:00:02Z', true, true)),
      ],
      connectedWithAgent(),
    );
    expect(state.transcriptions.map(({ id, text, final, interrupted }) => ({ id, text, final, interrupted }))).toEqual([
      { id: 'u1', text: 'You said: "what is', final: true, interrupted: true },
      { id: 'u2', text: 'Hello.', final: true, interrupted: undefined },
    ]);
    expect(
      emitted(effects)
        .filter((notification) => notification.name === 'transcription')
        .at(1)?.args[0],
    ).toMatchObject({ id: 'u1', interrupted: true });
  });

  it('upserts transcriptions by (id, agent): a re-sent id replaces, a human utterance with the same id is another one', () => {
    const { state, effects } = run(
      [
        packet('message', utterance('u1', 'Hel', '2024-01-01T00:00:01Z')),
        packet('message', utterance('u1', 'Hello the', '2024-01-01T00:00:01Z')),
        packet('message', utterance('u1', 'Hi', '2024-01-01T00:00:00Z', false, true)),
        packet('message', utterance('u1', 'Hello there.', '2024-01-01T00:00:01Z', true, true)),
      ],
      connectedWithAgent(),
    );
    expect(state.transcriptions.map((item) => [item.agent, item.text, item.final])).toEqual([
      [false, 'Hi', true],
      [true, 'Hello there.', true],
    ]);
    expect(names(effects).filter((name) => name === 'transcription')).toHaveLength(4);
    expect(names(effects).filter((name) => name === 'dataPacket')).toHaveLength(4);
  });

  it('orders by created_at whatever the arrival order, equal times in arrival order, bad times last', () => {
    const { state } = run(
      [
        packet('message', utterance('c', 'third', '2024-01-01T00:00:03Z')),
        packet('message', utterance('bad', 'no time', 'yesterday')),
        packet('message', utterance('a', 'first', '2024-01-01T00:00:01Z')),
        packet('message', utterance('b1', 'second', '2024-01-01T00:00:02Z')),
        packet('message', utterance('b2', 'second too', '2024-01-01T00:00:02Z', false)),
        // Re-sent with an earlier time: moves.
        packet('message', utterance('c', 'zeroth', '2024-01-01T00:00:00Z')),
      ],
      connectedWithAgent(),
    );
    expect(state.transcriptions.map((item) => item.id)).toEqual(['c', 'a', 'b1', 'b2', 'bad']);
  });

  it('never mutates the previous transcript array', () => {
    const before = run([packet('message', utterance('u1', 'one', '2024-01-01T00:00:01Z'))], connectedWithAgent()).state;
    const snapshot = [...before.transcriptions];
    const after = run([packet('message', utterance('u1', 'one two', '2024-01-01T00:00:01Z'))], before).state;
    expect(before.transcriptions).toEqual(snapshot);
    expect(after.transcriptions).not.toBe(before.transcriptions);
    expect(Object.isFrozen(after)).toBe(true);
    expect(Object.isFrozen(after.transcriptions)).toBe(true);
  });

  it('ignores packets from anyone but the agent (lines excepted from the platform, decision 0123), malformed ones and unknown topics', () => {
    const state = connectedWithAgent();
    for (const input of [
      packet('message', utterance('u1', 'spoofed', '2024-01-01T00:00:01Z'), human),
      packet('error', { message: 'from the server' }, null),
      packet('message', '{"id":'),
      packet('message', { id: 'u1', text: 'missing fields' }),
      packet('lk.something', { hello: true }),
    ]) {
      expect(reduce(state, input)).toEqual({ state, effects: [] });
    }
  });

  it('accepts transcriptions while waiting for the agent and while reconnecting, not after the end', () => {
    const waiting = run([{ type: 'connect_requested', options: details }, joined()]).state;
    expect(run([packet('message', utterance('w', 'early', '2024-01-01T00:00:01Z'))], waiting).state.transcriptions).toHaveLength(1);
    const reconnecting = run([{ type: 'reconnecting', attempt: 1, reason: 'network' }], connectedWithAgent()).state;
    expect(run([packet('message', utterance('r', 'during', '2024-01-01T00:00:01Z'))], reconnecting).state.transcriptions).toHaveLength(1);
    const ended = run([{ type: 'disconnect_requested' }], connectedWithAgent()).state;
    expect(reduce(ended, packet('message', utterance('x', 'late', '2024-01-01T00:00:01Z'))).state).toBe(ended);
  });

  it('the error topic becomes an AgentError in the state and an error event; the session stays connected', () => {
    const { state, effects } = run([packet('error', { message: 'the LLM is unavailable' })], connectedWithAgent());
    expect(state.status).toBe('connected');
    expect(AgentError.isInstance(state.error)).toBe(true);
    expect(state.error?.message).toBe('the LLM is unavailable');
    expect(names(effects)).toEqual(['error', 'dataPacket']);
  });

  it('other topics are passed on as dataPacket events without changing the state (tool_call: client-tools.test.ts)', () => {
    const state = connectedWithAgent();
    const event = { type: 'event', payload: { type: 'value', node_id: 'llm', pad_id: 'model', value: { type: 'string', value: 'gpt' } } };
    const step = reduce(state, packet('runtime_api', event));
    expect(step.state).toBe(state);
    expect(emitted(step.effects)).toEqual([{ name: 'dataPacket', args: [{ topic: 'runtime_api', payload: event }] }]);
    // A runtime_api message the contract does not know is dropped.
    expect(emitted(reduce(state, packet('runtime_api', { type: 'request', req_id: 'req_1', payload: { run: 'graph' } })).effects)).toEqual([]);
  });

  it("keeps the agent's turn timings and the latencies measured here, reset by the next connect", () => {
    const state = connectedWithAgent();
    const metrics = {
      turn: 0,
      source: 'voice',
      end_of_speech_decision_ms: 210,
      stt_final_ms: 0,
      response_ms: 290,
      prepared_answer: true,
      discarded_answers: 1,
      end_of_turn: { reason: 'question', probability: 0.95, wait_ms: 203 },
      interrupted: false,
    };
    const withMetrics = reduce(state, packet('turn_metrics', metrics));
    expect(withMetrics.state.agentTurns).toEqual([metrics]);
    expect(emitted(withMetrics.effects).map((effect) => effect.name)).toEqual(['agentTurnMetrics', 'dataPacket']);
    const measured = reduceRealtime(withMetrics.state, { type: 'turn_latency_measured', attempt: 1, latencyMs: 330 });
    expect(measured.state.turnLatencies).toEqual([330]);
    expect(emitted(measured.effects)).toEqual([{ name: 'turnLatency', args: [330] }]);
    // Malformed timings are dropped; a measurement of an earlier attempt is ignored.
    expect(reduce(state, packet('turn_metrics', { turn: 'x' })).state).toBe(state);
    expect(reduce(state, packet('turn_metrics', { ...metrics, end_of_turn: { reason: 'guess', probability: 0.5, wait_ms: 300 } })).state).toBe(state);
    expect(reduce(state, packet('turn_metrics', { ...metrics, end_of_turn: { reason: 'question', probability: 1.5, wait_ms: 300 } })).state).toBe(state);
    expect(reduceRealtime(state, { type: 'turn_latency_measured', attempt: 0, latencyMs: 1 }).state).toBe(state);
  });

  it('takes the session id from room metadata when it arrives later', () => {
    const state = run([{ type: 'connect_requested', options: details }, { ...joined(), roomMetadata: undefined } as RealtimeInput]).state;
    expect(state.sessionId).toBeUndefined();
    expect(run([{ type: 'room_metadata_changed', attempt: 1, metadata: JSON.stringify({ session: 'rs_late' }) }], state).state.sessionId).toBe('rs_late');
  });
});

describe('reduceRealtime: reconnection and the end', () => {
  it('connected -> reconnecting (shown as resuming, with the reason) -> connected with the agent state re-read', () => {
    const reconnecting = run([{ type: 'reconnecting', attempt: 1, reason: 'network' }], connectedWithAgent());
    expect(reconnecting.state).toMatchObject({
      status: 'reconnecting',
      connectionState: 'resuming',
      reason: 'network',
      agentIdentity: 'agent',
      agentState: 'listening',
    });
    expect(names(reconnecting.effects)).toEqual(['statusChanged', 'connectionStateChanged']);
    // A second Reconnecting (signal, then media) changes nothing.
    expect(reduceRealtime(reconnecting.state, { type: 'reconnecting', attempt: 1, reason: 'network' }).state).toBe(reconnecting.state);
    const back = run([{ type: 'reconnected', attempt: 1, participants: [agent({ agent_state: 'thinking', remaining_seconds: 3 })] }], reconnecting.state).state;
    expect(back).toMatchObject({ status: 'connected', connectionState: 'connected', agentState: 'thinking', remainingSeconds: 3 });
  });

  it('reconnected without the agent: waiting_for_agent; the wait is paused while reconnecting', () => {
    const waiting = run([{ type: 'connect_requested', options: details }, joined()]).state;
    const reconnecting = run([{ type: 'reconnecting', attempt: 1, reason: 'network' }], waiting);
    expect(work(reconnecting.effects)).toEqual([{ type: 'cancel_agent_wait' }]);
    const back = run([{ type: 'reconnected', attempt: 1, participants: [human] }], reconnecting.state);
    expect(back.state.status).toBe('waiting_for_agent');
    expect(work(back.effects)).toEqual([{ type: 'schedule_agent_wait', attempt: 1 }]);
  });

  it('the agent leaving while reconnecting is noticed on return', () => {
    const reconnecting = run(
      [
        { type: 'reconnecting', attempt: 1, reason: 'network' },
        { type: 'participant_left', attempt: 1, identity: 'agent' },
      ],
      connectedWithAgent(),
    ).state;
    expect(reconnecting).toMatchObject({ status: 'reconnecting', agentIdentity: undefined, agentState: undefined });
  });

  it('maps how the room closed to an end reason', () => {
    const cases = [
      ['room_closed', 'session_ended', undefined],
      ['removed', 'removed', 'closed'],
      ['connection_lost', 'connection_lost', 'network'],
      ['client', 'client', undefined],
    ] as const;
    for (const [cause, reason, errorReason] of cases) {
      const { state, effects } = run([{ type: 'room_disconnected', attempt: 1, cause, detail: 'X' }], connectedWithAgent());
      expect(state).toMatchObject({ status: 'not_connected', connectionState: 'not_connected', agentState: undefined, ended: { reason } });
      expect(state.error === undefined ? undefined : ConnectionError.isInstance(state.error) && state.error.reason).toBe(errorReason);
      expect(work(effects)).toEqual([{ type: 'cancel_agent_wait' }, { type: 'leave_room', attempt: 1 }]);
    }
  });

  it("the room closing while joining waits for the join's own failure, which carries the cause", () => {
    const connecting = run([{ type: 'connect_requested', options: details }]).state;
    expect(reduceRealtime(connecting, { type: 'room_disconnected', attempt: 1, cause: 'connection_lost' }).state).toBe(connecting);
    const refused = new ConnectionError('unauthorized', 'token rejected');
    expect(run([{ type: 'connect_failed', attempt: 1, error: refused }], connecting).state).toMatchObject({ ended: { reason: 'failed', error: refused } });
  });

  it('disconnect: not_connected at once, the room is left, the transcript stays; a second disconnect does nothing', () => {
    const withTranscript = run([packet('message', utterance('u1', 'hi', '2024-01-01T00:00:00Z'))], connectedWithAgent()).state;
    const { state, effects } = run([{ type: 'disconnect_requested' }], withTranscript);
    expect(state).toMatchObject({ status: 'not_connected', ended: { reason: 'client' }, agentState: undefined, agentAudio: false });
    expect(state.transcriptions).toHaveLength(1);
    expect(work(effects)).toEqual([{ type: 'cancel_agent_wait' }, { type: 'leave_room', attempt: 1 }]);
    expect(names(effects)).toEqual(['statusChanged', 'connectionStateChanged', 'agentStateChanged', 'ended']);
    expect(reduceRealtime(state, { type: 'disconnect_requested' })).toEqual({ state, effects: [] });
    // LiveKit's own Disconnected event after our leave changes nothing.
    expect(reduceRealtime(state, { type: 'room_disconnected', attempt: 1, cause: 'client' }).state).toBe(state);
  });

  it('disconnect while starting the session aborts it', () => {
    const { state, effects } = run([{ type: 'connect_requested', options: { token: 'usage', config } }, { type: 'disconnect_requested' }]);
    expect(state).toMatchObject({ status: 'not_connected', ended: { reason: 'client' } });
    expect(work(effects)).toContainEqual({ type: 'leave_room', attempt: 1 });
  });
});

describe('reduceRealtime: microphone and audio', () => {
  it('a wish before joining is applied on join; a change while joined is applied at once', () => {
    const off = run([{ type: 'microphone_requested', enabled: false }]);
    expect(work(off.effects)).toEqual([]);
    const joinedMuted = run([{ type: 'connect_requested', options: details }, joined([agent()])], off.state);
    expect(work(joinedMuted.effects).filter((effect) => effect.type === 'set_microphone')).toEqual([]);
    const on = run([{ type: 'microphone_requested', enabled: true }], joinedMuted.state);
    expect(work(on.effects)).toEqual([{ type: 'set_microphone', attempt: 1, enabled: true }]);
    const applied = run([{ type: 'microphone_changed', attempt: 1, enabled: true }], on.state);
    expect(applied.state.microphone).toEqual({ wanted: true, enabled: true });
    expect(emitted(applied.effects)).toEqual([{ name: 'microphoneChanged', args: [true] }]);
  });

  it('initial state can start with the microphone off', () => {
    const { effects } = run([{ type: 'connect_requested', options: details }, joined()], initialRealtimeState({ microphone: false }));
    expect(work(effects).some((effect) => effect.type === 'set_microphone')).toBe(false);
  });

  it('a refused microphone is an error and the wish is dropped', () => {
    const error = new Error('Permission denied');
    const { state, effects } = run([{ type: 'microphone_failed', attempt: 1, error }], connectedWithAgent());
    expect(state).toMatchObject({ status: 'connected', error, microphone: { wanted: false, enabled: false } });
    expect(emitted(effects)).toEqual([{ name: 'error', args: [error] }]);
  });

  it('tracks blocked playback and the agent audio track', () => {
    const blocked = run(
      [
        { type: 'audio_playback_changed', attempt: 1, canPlay: false },
        { type: 'agent_audio_changed', attempt: 1, subscribed: true },
      ],
      connectedWithAgent(),
    );
    expect(blocked.state).toMatchObject({ canPlayAudio: false, agentAudio: true });
    expect(emitted(blocked.effects)).toEqual([{ name: 'audioPlaybackChanged', args: [false] }]);
    expect(run([{ type: 'participant_left', attempt: 1, identity: 'agent' }], blocked.state).state.agentAudio).toBe(false);
  });
});
