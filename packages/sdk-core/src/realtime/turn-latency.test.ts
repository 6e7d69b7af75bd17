import { describe, expect, it } from 'vitest';
import { TurnLatencyTracker } from './turn-latency.js';

/** Feeds the tracker a timeline of (ms, microphone, agent) readings every 20 ms. */
function run(timeline: Array<[from: number, to: number, microphone: number, agent: number]>): number[] {
  const measured: number[] = [];
  const tracker = new TurnLatencyTracker(
    () => ({ agent: 0, microphone: 0 }),
    (ms) => measured.push(ms),
  );
  for (const [from, to, microphone, agent] of timeline) {
    for (let now = from; now < to; now += 20) tracker.sample(now, { microphone, agent });
  }
  return measured;
}

describe('TurnLatencyTracker', () => {
  it('measures from the last microphone speech to the first agent audio, once per answer', () => {
    expect(
      run([
        [0, 1000, 0.3, 0], // the human speaks
        [1000, 1320, 0.01, 0], // silence: the agent thinks
        [1320, 2500, 0.01, 0.2], // the agent answers (one measurement)
        [2500, 2600, 0.01, 0], // a pause between its words (no new measurement)
        [2600, 3000, 0.01, 0.2],
        [3000, 4000, 0.01, 0], // quiet
        [4000, 4500, 0.3, 0], // the human again
        [4500, 4800, 0.01, 0],
        [4800, 5000, 0.01, 0.3],
      ]),
    ).toEqual([340, 320]);
  });

  it('ignores the agent heard in the microphone and answers nobody asked for', () => {
    expect(
      run([
        [0, 1000, 0.01, 0.3], // the agent greets first: nothing to measure
        [1000, 1500, 0.2, 0.3], // its voice leaks into the microphone while it speaks
        [1500, 3000, 0.01, 0],
      ]),
    ).toEqual([]);
  });
});
