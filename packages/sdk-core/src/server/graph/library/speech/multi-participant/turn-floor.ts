import type { MULTI_PARTICIPANT_STATES } from '../../../../../contract/graph/catalogue/speech.js';

/** The floor states of a MultiParticipantSTT, as the open engine names them. */
export type TurnFloorState = (typeof MULTI_PARTICIPANT_STATES)[number];

/** Timers the floor uses (injectable for tests). */
export interface FloorTimers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const realTimers: FloorTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Who has the floor among several humans and the AI, as the open engine's MultiParticipantSTT decides it:
 * `WAITING_FOR_HUMAN` until someone speaks; `TALKING` while anyone speaks (each start of speech, when nobody was
 * speaking, restarts the cooldown timer); `COOLDOWN` once everyone is quiet; `AI_CAN_TALK` when the cooldown
 * (`cooldownMs`, counted from that start of speech) has passed and nobody speaks. `forceAiTalk()` gives the AI the
 * floor at once.
 *
 * One deliberate difference: in the engine, a timer that runs out while someone still speaks does nothing, and the
 * floor then stays in `COOLDOWN` until someone speaks again. Here the cooldown is then already over: when the
 * speaking stops the floor passes through `COOLDOWN` to `AI_CAN_TALK`.
 *
 * @example
 * const floor = new TurnFloor(() => 4000, (previous, current) => console.log(previous, '->', current));
 * floor.setSpeaking(0, true); // TALKING
 * floor.setSpeaking(0, false); // COOLDOWN, then AI_CAN_TALK 4 s after the speech started
 */
export class TurnFloor {
  private current: TurnFloorState = 'WAITING_FOR_HUMAN';
  private readonly speaking = new Map<number, boolean>();
  private anyoneSpeaking = false;
  private timer: unknown;
  /** The cooldown ran out while someone was still speaking. */
  private cooledDown = false;

  constructor(
    private readonly cooldownMs: () => number,
    private readonly changed: (previous: TurnFloorState, current: TurnFloorState) => void,
    private readonly timers: FloorTimers = realTimers,
  ) {}

  get state(): TurnFloorState {
    return this.current;
  }

  /** Participant `index` started or stopped speaking. */
  setSpeaking(index: number, speaking: boolean): void {
    this.speaking.set(index, speaking);
    const before = this.anyoneSpeaking;
    this.anyoneSpeaking = [...this.speaking.values()].some(Boolean);
    if (before === this.anyoneSpeaking) return;
    if (this.anyoneSpeaking) {
      this.enter('TALKING');
      this.restartCooldown();
      return;
    }
    if (this.current !== 'TALKING') return;
    this.enter('COOLDOWN');
    if (this.cooledDown) this.enter('AI_CAN_TALK');
  }

  /** The AI may talk now, whatever the humans do (until one of them starts speaking). */
  forceAiTalk(): void {
    this.stopTimer();
    this.enter('AI_CAN_TALK');
  }

  close(): void {
    this.stopTimer();
  }

  private restartCooldown(): void {
    this.stopTimer();
    this.cooledDown = false;
    const ms = this.cooldownMs();
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      if (this.anyoneSpeaking) this.cooledDown = true;
      else this.enter('AI_CAN_TALK');
    }, ms);
  }

  private stopTimer(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  private enter(state: TurnFloorState): void {
    if (state === this.current) return;
    const previous = this.current;
    this.current = state;
    this.changed(previous, state);
  }
}
