import { describe, expect, it } from 'vitest';
import { MediaDeviceError } from './media-device-error.js';
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
const work = (effects: RealtimeEffect[], type: 'set_camera' | 'set_screen_share') => effects.filter((effect) => effect.type === type);
const emitted = (effects: RealtimeEffect[], name: string) =>
  effects.flatMap((effect) => (effect.type === 'emit' && effect.notification.name === name ? [effect.notification.args] : []));
const off = { wanted: false, enabled: false, pending: false, error: undefined };

describe('reduceRealtime: the camera', () => {
  it('starts off unless asked for; a wish before joining is applied on join, pending until the link reports it', () => {
    expect(initialRealtimeState().camera).toEqual(off);
    const early = run([{ type: 'camera_requested', enabled: true }], initialRealtimeState({ microphone: false }));
    expect(early.state.camera).toEqual({ ...off, wanted: true });
    expect(work(early.effects, 'set_camera')).toEqual([]);
    const inRoom = run(joined, early.state);
    expect(work(inRoom.effects, 'set_camera')).toEqual([{ type: 'set_camera', attempt: 1, enabled: true }]);
    expect(inRoom.state.camera).toEqual({ wanted: true, enabled: false, pending: true, error: undefined });
    const live = run([{ type: 'camera_changed', attempt: 1, enabled: true }], inRoom.state);
    expect(live.state.camera).toEqual({ wanted: true, enabled: true, pending: false, error: undefined });
    expect(emitted(live.effects, 'cameraChanged')).toEqual([[true]]);
  });

  it('toggles live, and a refusal is a typed error in the state and the error event; the wish is dropped', () => {
    const connected = run(joined, initialRealtimeState());
    const asked = run([{ type: 'camera_requested', enabled: true }], connected.state);
    expect(work(asked.effects, 'set_camera')).toEqual([{ type: 'set_camera', attempt: 1, enabled: true }]);
    expect(asked.state.camera.pending).toBe(true);
    const refusal = new MediaDeviceError('camera', 'permission_denied', 'the camera failed (permission_denied): Permission denied');
    const refused = run([{ type: 'camera_failed', attempt: 1, error: refusal }], asked.state);
    expect(refused.state.camera).toEqual({ wanted: false, enabled: false, pending: false, error: refusal });
    expect(refused.state.error).toBe(refusal);
    expect(emitted(refused.effects, 'error')).toEqual([[refusal]]);
    // Allowed on the second try: the error clears.
    const again = run(
      [
        { type: 'camera_requested', enabled: true },
        { type: 'camera_changed', attempt: 1, enabled: true },
      ],
      refused.state,
    );
    expect(again.state.camera).toEqual({ wanted: true, enabled: true, pending: false, error: undefined });
    const stopped = run(
      [
        { type: 'camera_requested', enabled: false },
        { type: 'camera_changed', attempt: 1, enabled: false },
      ],
      again.state,
    );
    expect(stopped.state.camera).toEqual(off);
    expect(emitted(stopped.effects, 'cameraChanged')).toEqual([[false]]);
  });

  it('an unpublication nobody asked for (camera unplugged) becomes the wish; a stale attempt is ignored', () => {
    const live = run([...joined, { type: 'camera_requested', enabled: true }, { type: 'camera_changed', attempt: 1, enabled: true }], initialRealtimeState());
    expect(run([{ type: 'camera_changed', attempt: 0, enabled: false }], live.state).state).toBe(live.state);
    expect(run([{ type: 'camera_changed', attempt: 1, enabled: false }], live.state).state.camera).toEqual(off);
  });

  it('is off after leaving, the wish and the chosen device carry over to the next connect', () => {
    const live = run(
      [
        ...joined,
        { type: 'camera_device_changed', deviceId: 'cam-2' },
        { type: 'camera_requested', enabled: true },
        { type: 'camera_changed', attempt: 1, enabled: true },
      ],
      initialRealtimeState(),
    );
    expect(live.state.cameraDevice).toBe('cam-2');
    const left = run([{ type: 'disconnect_requested' }], live.state);
    expect(left.state.camera).toEqual({ ...off, wanted: true });
    expect(emitted(left.effects, 'cameraChanged')).toEqual([[false]]);
    const back = run(
      [
        { type: 'connect_requested', options: details },
        { type: 'room_joined', attempt: 2, participants: [agent], roomMetadata: undefined, canPlayAudio: true },
      ],
      left.state,
    );
    expect(work(back.effects, 'set_camera')).toEqual([{ type: 'set_camera', attempt: 2, enabled: true }]);
    expect(back.state.cameraDevice).toBe('cam-2');
  });
});

describe('reduceRealtime: the screen share and the agent video', () => {
  it('starts and stops only while joined; the browser\'s "Stop sharing" ends it; it never carries over', () => {
    expect(run([{ type: 'screen_share_requested', enabled: true }], initialRealtimeState()).effects).toEqual([]);
    const connected = run(joined, initialRealtimeState());
    const asked = run([{ type: 'screen_share_requested', enabled: true }], connected.state);
    expect(work(asked.effects, 'set_screen_share')).toEqual([{ type: 'set_screen_share', attempt: 1, enabled: true }]);
    const sharing = run([{ type: 'screen_share_changed', attempt: 1, enabled: true }], asked.state);
    expect(sharing.state.screenShare).toEqual({ wanted: true, enabled: true, pending: false, error: undefined });
    expect(emitted(sharing.effects, 'screenShareChanged')).toEqual([[true]]);
    const stoppedInBrowser = run([{ type: 'screen_share_changed', attempt: 1, enabled: false }], sharing.state);
    expect(stoppedInBrowser.state.screenShare).toEqual(off);
    const cancelled = new MediaDeviceError('screen_share', 'permission_denied', 'the screen share failed (permission_denied): Permission denied');
    const refused = run(
      [
        { type: 'screen_share_requested', enabled: true },
        { type: 'screen_share_failed', attempt: 1, error: cancelled },
      ],
      stoppedInBrowser.state,
    );
    expect(refused.state.screenShare).toEqual({ ...off, error: cancelled });
    expect(emitted(refused.effects, 'error')).toEqual([[cancelled]]);
    const shareAgain = run(
      [
        { type: 'screen_share_requested', enabled: true },
        { type: 'screen_share_changed', attempt: 1, enabled: true },
      ],
      refused.state,
    );
    expect(run([{ type: 'disconnect_requested' }], shareAgain.state).state.screenShare).toEqual(off);
  });

  it('follows the agent video track, emits agentVideoChanged, and forgets it on leaving', () => {
    const connected = run(joined, initialRealtimeState());
    const shown = run([{ type: 'agent_video_changed', attempt: 1, subscribed: true }], connected.state);
    expect(shown.state.agentVideo).toBe(true);
    expect(emitted(shown.effects, 'agentVideoChanged')).toEqual([[true]]);
    const left = run([{ type: 'disconnect_requested' }], shown.state);
    expect(left.state.agentVideo).toBe(false);
    expect(emitted(left.effects, 'agentVideoChanged')).toEqual([[false]]);
  });
});
