import { describe, expect, it } from 'vitest';
import type { SDKAgentState } from '../contract/sdk.js';
import type { ParticipantView } from './agent-participant.js';
import type { RealtimeEffect, RealtimeInput } from './session-actions.js';
import { reduceRealtime, type RealtimeReducerSettings } from './session-reducer.js';
import { initialRealtimeState, type RealtimeState } from './session-state.js';

const details = { connection_details: { url: 'ws://127.0.0.1:1', token: 'jwt' } };

function agentWith(remainingSeconds: number | null, agentState: SDKAgentState = 'listening'): ParticipantView {
  return { identity: 'agent', isAgent: true, metadata: { agent_state: agentState, remaining_seconds: remainingSeconds }, attributes: {} };
}

function run(inputs: RealtimeInput[], from: RealtimeState, settings?: RealtimeReducerSettings): { state: RealtimeState; effects: RealtimeEffect[] } {
  let state = from;
  const effects: RealtimeEffect[] = [];
  for (const input of inputs) {
    const step = reduceRealtime(state, input, settings);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const warnings = (effects: RealtimeEffect[]) =>
  effects.flatMap((effect) => (effect.type === 'emit' && effect.notification.name === 'remainingSecondsWarning' ? [effect.notification.args] : []));
const connect = (attempt = 1): RealtimeInput[] => [
  { type: 'connect_requested', options: details },
  { type: 'room_joined', attempt, participants: [agentWith(300)], roomMetadata: undefined, canPlayAudio: true },
];
const seconds = (remaining: number, attempt = 1): RealtimeInput => ({ type: 'participant_updated', attempt, participant: agentWith(remaining) });

describe('reduceRealtime: the time almost up warning', () => {
  it('fires once, when the seconds left reach the default threshold (60 s), after remainingSecondsChanged', () => {
    const before = run([...connect(), seconds(61)], initialRealtimeState());
    expect(before.state.remainingSecondsWarning).toBe(false);
    expect(warnings(before.effects)).toEqual([]);
    const reached = run([seconds(60)], before.state);
    expect(reached.state).toMatchObject({ remainingSeconds: 60, remainingSecondsWarning: true });
    expect(warnings(reached.effects)).toEqual([[60]]);
    const names = reached.effects.flatMap((effect) => (effect.type === 'emit' ? [effect.notification.name] : []));
    expect(names).toEqual(['remainingSecondsChanged', 'remainingSecondsWarning']);
    expect(warnings(run([seconds(59), seconds(10)], reached.state).effects)).toEqual([]);
  });

  it('fires at once when the session joins with less time left than the threshold', () => {
    const joined = run(
      [
        { type: 'connect_requested', options: details },
        { type: 'room_joined', attempt: 1, participants: [agentWith(20)], roomMetadata: undefined, canPlayAudio: true },
      ],
      initialRealtimeState(),
    );
    expect(joined.state.remainingSecondsWarning).toBe(true);
    expect(warnings(joined.effects)).toEqual([[20]]);
  });

  it('follows a configured threshold; 0 never warns; sessions without a limit never warn', () => {
    const custom = { remainingSecondsWarningAt: 10 };
    const at30 = run([...connect(), seconds(30)], initialRealtimeState(), custom);
    expect(warnings(at30.effects)).toEqual([]);
    expect(warnings(run([seconds(10)], at30.state, custom).effects)).toEqual([[10]]);
    expect(warnings(run([...connect(), seconds(1)], initialRealtimeState(), { remainingSecondsWarningAt: 0 }).effects)).toEqual([]);
    const unlimited = run(
      [
        { type: 'connect_requested', options: details },
        { type: 'room_joined', attempt: 1, participants: [agentWith(null)], roomMetadata: undefined, canPlayAudio: true },
      ],
      initialRealtimeState(),
    );
    expect(unlimited.state.remainingSecondsWarning).toBe(false);
  });

  it('is reset by the next connect and fires again in that session', () => {
    const first = run([...connect(), seconds(5), { type: 'disconnect_requested' }], initialRealtimeState());
    const second = run([{ type: 'connect_requested', options: details }], first.state);
    expect(second.state.remainingSecondsWarning).toBe(false);
    const warned = run(
      [{ type: 'room_joined', attempt: 2, participants: [agentWith(300)], roomMetadata: undefined, canPlayAudio: true }, seconds(3, 2)],
      second.state,
    );
    expect(warnings(warned.effects)).toEqual([[3]]);
  });
});

describe("reduceRealtime: muting the agent's speech", () => {
  it('mutes and unmutes with an effect and an event; asking twice changes nothing', () => {
    const connected = run(connect(), initialRealtimeState()).state;
    const muted = run([{ type: 'agent_speech_mute_requested', muted: true }], connected);
    expect(muted.state.agentSpeechMuted).toBe(true);
    expect(muted.effects).toEqual([
      { type: 'emit', notification: { name: 'agentSpeechMutedChanged', args: [true] } },
      { type: 'set_agent_speech_muted', muted: true },
    ]);
    const again = run([{ type: 'agent_speech_mute_requested', muted: true }], muted.state);
    expect(again.state).toBe(muted.state);
    expect(again.effects).toEqual([]);
    expect(run([{ type: 'agent_speech_mute_requested', muted: false }], muted.state).state.agentSpeechMuted).toBe(false);
  });

  it("keeps the agent's text arriving while its speech is muted, and the choice across connects", () => {
    const muted = run([...connect(), { type: 'agent_speech_mute_requested', muted: true }], initialRealtimeState()).state;
    const line = { id: 'a1', agent: true, final: true, created_at: '2026-01-01T00:00:00.000Z', speaking_ended_at: null, text: 'Hello in text' };
    const answered = run([{ type: 'data_received', attempt: 1, packet: { topic: 'message', payload: line }, from: agentWith(300) }], muted).state;
    expect(answered.transcriptions.map((transcription) => transcription.text)).toEqual(['Hello in text']);
    const next = run([{ type: 'disconnect_requested' }, { type: 'connect_requested', options: details }], answered).state;
    expect(next.agentSpeechMuted).toBe(true);
    expect(initialRealtimeState({ agentSpeechMuted: true }).agentSpeechMuted).toBe(true);
  });
});
