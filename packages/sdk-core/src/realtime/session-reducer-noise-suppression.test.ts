import { describe, expect, it } from 'vitest';
import type { RealtimeEffect, RealtimeInput } from './session-actions.js';
import { reduceRealtime } from './session-reducer.js';
import { initialRealtimeState, type RealtimeState } from './session-state.js';

const details = { connection_details: { url: 'ws://127.0.0.1:1', token: 'jwt' } };
const agent = { identity: 'agent', isAgent: true, metadata: { agent_state: 'listening' as const, remaining_seconds: null }, attributes: {} };

function run(inputs: RealtimeInput[], from: RealtimeState): { state: RealtimeState; effects: RealtimeEffect[] } {
  let state = from;
  const effects: RealtimeEffect[] = [];
  for (const input of inputs) {
    const step = reduceRealtime(state, input);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const joined: RealtimeInput[] = [
  { type: 'connect_requested', options: details },
  { type: 'room_joined', attempt: 1, participants: [agent], roomMetadata: undefined, canPlayAudio: true },
];
const suppressionEffects = (effects: RealtimeEffect[]) => effects.filter((effect) => effect.type === 'set_noise_suppression');
const emitted = (effects: RealtimeEffect[], name: string) =>
  effects.flatMap((effect) => (effect.type === 'emit' && effect.notification.name === name ? [effect.notification.args] : []));

describe('reduceRealtime: noise suppression of the microphone (decision 0116)', () => {
  it('starts as the option says, inactive until the link reports it running', () => {
    expect(initialRealtimeState().noiseSuppression).toEqual({ wanted: true, active: false });
    expect(initialRealtimeState({ noiseSuppression: false }).noiseSuppression).toEqual({ wanted: false, active: false });
  });

  it('records a wish before joining without an effect (the link applies it when the microphone is published)', () => {
    const { state, effects } = run([{ type: 'noise_suppression_requested', enabled: true }], initialRealtimeState({ noiseSuppression: false }));
    expect(state.noiseSuppression).toEqual({ wanted: true, active: false });
    expect(suppressionEffects(effects)).toEqual([]);
  });

  it('switches live once joined, and follows what the link reports with noiseSuppressionChanged', () => {
    const connected = run(joined, initialRealtimeState({ noiseSuppression: true }));
    const reported = run([{ type: 'noise_suppression_changed', attempt: 1, active: true }], connected.state);
    expect(reported.state.noiseSuppression).toEqual({ wanted: true, active: true });
    expect(emitted(reported.effects, 'noiseSuppressionChanged')).toEqual([[true]]);
    const off = run([{ type: 'noise_suppression_requested', enabled: false }], reported.state);
    expect(suppressionEffects(off.effects)).toEqual([{ type: 'set_noise_suppression', attempt: 1, enabled: false }]);
    const stopped = run([{ type: 'noise_suppression_changed', attempt: 1, active: false }], off.state);
    expect(stopped.state.noiseSuppression).toEqual({ wanted: false, active: false });
    expect(emitted(stopped.effects, 'noiseSuppressionChanged')).toEqual([[false]]);
  });

  it('reports a failure as an error and keeps the wish; a stale attempt is ignored', () => {
    const connected = run([...joined, { type: 'noise_suppression_changed', attempt: 1, active: true }], initialRealtimeState({ noiseSuppression: true }));
    const failure = new Error('noise suppression could not be turned on: no AudioWorklet');
    const failed = run([{ type: 'noise_suppression_failed', attempt: 1, error: failure }], connected.state);
    expect(failed.state.noiseSuppression).toEqual({ wanted: true, active: false });
    expect(failed.state.error).toBe(failure);
    expect(emitted(failed.effects, 'error')).toEqual([[failure]]);
    expect(run([{ type: 'noise_suppression_changed', attempt: 0, active: true }], failed.state).state).toBe(failed.state);
  });

  it('is inactive after leaving, and the wish carries over to the next connect', () => {
    const connected = run([...joined, { type: 'noise_suppression_changed', attempt: 1, active: true }], initialRealtimeState({ noiseSuppression: true }));
    const left = run([{ type: 'disconnect_requested' }], connected.state);
    expect(left.state.noiseSuppression).toEqual({ wanted: true, active: false });
  });
});
