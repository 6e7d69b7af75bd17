import { describe, expect, it } from 'vitest';
import { TurnFloor, type FloorTimers, type TurnFloorState } from './turn-floor.js';

/** Timers run by hand: `elapse(ms)` fires what is due. */
function manualTimers(): FloorTimers & { elapse(ms: number): void } {
  let now = 0;
  let pending: Array<{ at: number; callback: () => void; handle: object }> = [];
  return {
    set(callback, ms) {
      const handle = {};
      pending.push({ at: now + ms, callback, handle });
      return handle;
    },
    clear(handle) {
      pending = pending.filter((timer) => timer.handle !== handle);
    },
    elapse(ms) {
      now += ms;
      const due = pending.filter((timer) => timer.at <= now);
      pending = pending.filter((timer) => timer.at > now);
      for (const timer of due) timer.callback();
    },
  };
}

function floorWith(cooldownMs = 1000) {
  const timers = manualTimers();
  const changes: Array<[TurnFloorState, TurnFloorState]> = [];
  const floor = new TurnFloor(
    () => cooldownMs,
    (previous, current) => changes.push([previous, current]),
    timers,
  );
  return { floor, timers, changes };
}

describe('TurnFloor (MultiParticipantSTT turn states)', () => {
  it('one human: TALKING, COOLDOWN when quiet, AI_CAN_TALK when the cooldown since the speech started has passed', () => {
    const { floor, timers, changes } = floorWith(1000);
    expect(floor.state).toBe('WAITING_FOR_HUMAN');
    floor.setSpeaking(0, true);
    timers.elapse(400);
    floor.setSpeaking(0, false);
    expect(floor.state).toBe('COOLDOWN');
    timers.elapse(599);
    expect(floor.state).toBe('COOLDOWN');
    timers.elapse(1);
    expect(changes).toEqual([
      ['WAITING_FOR_HUMAN', 'TALKING'],
      ['TALKING', 'COOLDOWN'],
      ['COOLDOWN', 'AI_CAN_TALK'],
    ]);
  });

  it('two humans: TALKING while either speaks; a second start while the first speaks does not restart the cooldown', () => {
    const { floor, timers, changes } = floorWith(1000);
    floor.setSpeaking(0, true);
    timers.elapse(300);
    floor.setSpeaking(1, true);
    floor.setSpeaking(0, false);
    expect(floor.state).toBe('TALKING');
    timers.elapse(300);
    floor.setSpeaking(1, false);
    expect(floor.state).toBe('COOLDOWN');
    // 1000 ms after the first start.
    timers.elapse(400);
    expect(floor.state).toBe('AI_CAN_TALK');
    expect(changes.map(([, current]) => current)).toEqual(['TALKING', 'COOLDOWN', 'AI_CAN_TALK']);
  });

  it('speech starting again during the cooldown takes the floor back and restarts the cooldown', () => {
    const { floor, timers } = floorWith(1000);
    floor.setSpeaking(0, true);
    floor.setSpeaking(0, false);
    timers.elapse(900);
    floor.setSpeaking(1, true);
    floor.setSpeaking(1, false);
    timers.elapse(900);
    expect(floor.state).toBe('COOLDOWN');
    timers.elapse(100);
    expect(floor.state).toBe('AI_CAN_TALK');
  });

  it('a turn longer than the cooldown: the floor passes through COOLDOWN to AI_CAN_TALK when the speaking stops', () => {
    const { floor, timers, changes } = floorWith(1000);
    floor.setSpeaking(0, true);
    timers.elapse(2500);
    expect(floor.state).toBe('TALKING');
    floor.setSpeaking(0, false);
    expect(changes.map(([, current]) => current)).toEqual(['TALKING', 'COOLDOWN', 'AI_CAN_TALK']);
  });

  it('force_ai_talk gives the AI the floor at once; the stopped cooldown fires nothing later', () => {
    const { floor, timers, changes } = floorWith(1000);
    floor.setSpeaking(0, true);
    floor.setSpeaking(0, false);
    floor.forceAiTalk();
    expect(floor.state).toBe('AI_CAN_TALK');
    timers.elapse(5000);
    expect(changes.map(([, current]) => current)).toEqual(['TALKING', 'COOLDOWN', 'AI_CAN_TALK']);
    floor.setSpeaking(1, true);
    expect(floor.state).toBe('TALKING');
  });
});
