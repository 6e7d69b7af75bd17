import { describe, expect, it } from 'vitest';
import type { SDKSessionTranscription } from '../contract/sdk.js';
import type { ParticipantView } from './agent-participant.js';
import type { RealtimeEffect, RealtimeInput } from './session-actions.js';
import { reduceRealtime } from './session-reducer.js';
import { initialRealtimeState, type RealtimeState } from './session-state.js';

const agent: ParticipantView = {
  identity: 'agent',
  isAgent: true,
  metadata: { agent_state: 'listening', remaining_seconds: null },
  attributes: {},
};

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

const connected = (): RealtimeState =>
  run([
    { type: 'connect_requested', options: { connection_details: { url: 'ws://127.0.0.1:1', token: 'jwt' } } },
    { type: 'room_joined', attempt: 1, participants: [agent], roomMetadata: undefined, canPlayAudio: true },
  ]).state;

function line(id: string, createdAt: string, final: boolean, isAgent = true): RealtimeInput {
  const payload: SDKSessionTranscription = { id, agent: isAgent, final, created_at: createdAt, speaking_ended_at: final ? createdAt : null, text: id };
  return { type: 'data_received', attempt: 1, packet: { topic: 'message', payload }, from: agent };
}

const replays = (effects: RealtimeEffect[]) => effects.filter((effect) => effect.type === 'request_transcript_replay');
const back: RealtimeInput = { type: 'reconnected', attempt: 1, participants: [agent] };

describe('reduceRealtime: resuming after a drop', () => {
  it('shows resuming with the reason; a media drop outranks a signalling one, never the other way', () => {
    const signal = run([{ type: 'reconnecting', attempt: 1, reason: 'signal' }], connected());
    expect(signal.state).toMatchObject({ status: 'reconnecting', connectionState: 'resuming', reason: 'signal' });
    const network = run([{ type: 'reconnecting', attempt: 1, reason: 'network' }], signal.state);
    expect(network.state).toMatchObject({ connectionState: 'resuming', reason: 'network' });
    expect(run([{ type: 'reconnecting', attempt: 1, reason: 'signal' }], network.state).state).toBe(network.state);
    // A stale attempt's drop changes nothing.
    expect(run([{ type: 'reconnecting', attempt: 0, reason: 'network' }], connected()).state.status).toBe('connected');
  });

  it('asks the agent for the lines since the oldest line not yet final, once back', () => {
    const before = run(
      [line('a', '2024-01-01T00:00:01.000Z', true), line('h', '2024-01-01T00:00:03.000Z', false, false), line('b', '2024-01-01T00:00:05.000Z', false)],
      connected(),
    ).state;
    const dropped = run([{ type: 'reconnecting', attempt: 1, reason: 'network' }], before);
    expect(replays(dropped.effects)).toEqual([]);
    const resumed = run([back], dropped.state);
    expect(resumed.state.connectionState).toBe('connected');
    expect(replays(resumed.effects)).toEqual([{ type: 'request_transcript_replay', attempt: 1, agentIdentity: 'agent', after: '2024-01-01T00:00:03.000Z' }]);
  });

  it('asks from the newest line when all are final, for all when there are none', () => {
    const all = run([{ type: 'reconnecting', attempt: 1, reason: 'signal' }, back], connected());
    expect(replays(all.effects)).toMatchObject([{ after: null }]);
    const final = run([line('b', '2024-01-01T00:00:05.000Z', true), line('a', '2024-01-01T00:00:01.000Z', true)], connected()).state;
    expect(replays(run([{ type: 'reconnecting', attempt: 1, reason: 'signal' }, back], final).effects)).toMatchObject([{ after: '2024-01-01T00:00:05.000Z' }]);
  });

  it('replayed lines upsert: a line seen twice shows once, in order; a final line is not taken back', () => {
    const lines = [line('a', '2024-01-01T00:00:01.000Z', true), line('b', '2024-01-01T00:00:02.000Z', false)];
    const missed = [line('c', '2024-01-01T00:00:03.000Z', true, false), line('b', '2024-01-01T00:00:02.000Z', true)];
    const replayed = run([...lines, { type: 'reconnecting', attempt: 1, reason: 'network' }, back, ...missed, ...lines], connected());
    expect(replayed.state.transcriptions.map((entry) => [entry.id, entry.final])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
    ]);
  });

  it("takes lines streamed the LiveKit way (a worker's) and the platform's replay of them (no visible sender), and nothing else from the platform", () => {
    const streamed = (id: string, createdAt: string, final: boolean, text: string): RealtimeInput => ({
      type: 'transcript_streamed',
      attempt: 1,
      transcription: { id, agent: true, final, created_at: createdAt, speaking_ended_at: null, text },
    });
    const fromPlatform = (payload: SDKSessionTranscription): RealtimeInput => ({
      type: 'data_received',
      attempt: 1,
      packet: { topic: 'message', payload },
      from: undefined,
    });
    const step = run(
      [
        streamed('SG_1', '2024-01-01T00:00:01.000Z', false, 'Hel'),
        streamed('SG_1', '2024-01-01T00:00:01.000Z', true, 'Hello.'),
        { type: 'reconnecting', attempt: 1, reason: 'network' },
        back,
        fromPlatform({ id: 'SG_2', agent: true, final: true, created_at: '2024-01-01T00:00:02.000Z', speaking_ended_at: null, text: 'Missed.' }),
        fromPlatform({ id: 'SG_1', agent: true, final: true, created_at: '2024-01-01T00:00:01.000Z', speaking_ended_at: null, text: 'Hello.' }),
        { type: 'data_received', attempt: 1, packet: { topic: 'error', payload: { message: 'from nobody' } }, from: undefined },
      ],
      connected(),
    );
    expect(step.state.transcriptions.map((entry) => [entry.id, entry.final, entry.text])).toEqual([
      ['SG_1', true, 'Hello.'],
      ['SG_2', true, 'Missed.'],
    ]);
    expect(step.state.error).toBeUndefined();
    const events = step.effects.flatMap((effect) => (effect.type === 'emit' ? [effect.notification.name] : []));
    expect(events.filter((name) => name === 'transcription')).toHaveLength(4);
    expect(events).not.toContain('dataPacket');
    // Not before the session: nothing to show it in.
    expect(run([streamed('SG_3', '2024-01-01T00:00:03.000Z', true, 'Late.')]).state.transcriptions).toEqual([]);
  });

  it('does not ask when it comes back without the agent', () => {
    const waiting = run(
      [
        { type: 'reconnecting', attempt: 1, reason: 'network' },
        { type: 'reconnected', attempt: 1, participants: [] },
      ],
      connected(),
    );
    expect(waiting.state.status).toBe('waiting_for_agent');
    expect(replays(waiting.effects)).toEqual([]);
  });
});
