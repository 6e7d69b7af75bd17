import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../runtime/pads.js';
import { validateGraph } from '../../validation/validate-graph.js';
import { platformNodeLibrary } from '../node-library.js';

/** A value arriving on a sink pad, as from its link or a client's push. */
function receive(run: GraphKitRun, path: string, value: unknown): void {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  pad.receive(value);
}

const runs: GraphKitRun[] = [];
function start(...args: Parameters<typeof graphOf>): GraphKitRun {
  const document = graphOf(...args);
  expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
  const run = runGraph(document);
  runs.push(run);
  return run;
}

afterEach(async () => {
  for (const run of runs.splice(0)) {
    expect(run.failures).toEqual([]);
    await run.stop();
  }
  vi.useRealTimers();
});

describe('Delay', () => {
  it('sends each value delay_ms after it arrived, in arrival order', () => {
    vi.useFakeTimers();
    const run = start(
      [
        { id: 'delay', type: 'Delay', values: { delay_ms: 100 } },
        { id: 'text', type: 'String' },
      ],
      [{ from: 'delay.source', to: 'text.set' }],
    );
    const sent = run.record('delay.source');
    receive(run, 'delay.sink', 'a');
    vi.advanceTimersByTime(50);
    receive(run, 'delay.sink', 'b');
    vi.advanceTimersByTime(49);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual(['a']);
    expect(run.pad('text.value')).toMatchObject({ value: 'a' });
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(['a', 'b']);
    expect(run.pad('text.value')).toMatchObject({ value: 'b' });
  });

  it('keeps the order when delay_ms shrinks: a later value waits for the earlier one', () => {
    vi.useFakeTimers();
    const run = start([{ id: 'delay', type: 'Delay', values: { delay_ms: 100 } }]);
    const sent = run.record('delay.source');
    receive(run, 'delay.sink', 'slow');
    receive(run, 'delay.delay_ms', 10);
    receive(run, 'delay.sink', 'fast');
    vi.advanceTimersByTime(10);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(90);
    expect(sent).toEqual(['slow', 'fast']);
  });

  it('drops what is waiting when the run stops, leaving no timer', async () => {
    vi.useFakeTimers();
    const run = start([{ id: 'delay', type: 'Delay', values: { delay_ms: 100 } }]);
    const sent = run.record('delay.source');
    receive(run, 'delay.sink', 'late');
    expect(vi.getTimerCount()).toBe(1);
    await run.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual([]);
  });

  it('delays on the real clock: after a timer that expires sooner, before one that expires later', async () => {
    const run = start([{ id: 'delay', type: 'Delay', values: { delay_ms: 30 } }]);
    const sent = run.record('delay.source');
    receive(run, 'delay.sink', TRIGGER);
    expect(sent).toEqual([]);
    // Timers run in the order they expire, however late the event loop gets to them.
    const sooner = new Promise<number>((resolve) => setTimeout(() => resolve(sent.length), 5));
    const later = new Promise<number>((resolve) => setTimeout(() => resolve(sent.length), 200));
    expect(await sooner).toBe(0);
    expect(await later).toBe(1);
  });
});

describe('Ticker', () => {
  it('adds one to tick every interval_ms while active', () => {
    vi.useFakeTimers();
    const run = start([{ id: 'ticker', type: 'Ticker', values: { interval_ms: 100 } }]);
    const ticks = run.record('ticker.tick');
    vi.advanceTimersByTime(350);
    expect(ticks).toEqual([1, 2, 3]);
    receive(run, 'ticker.active', false);
    vi.advanceTimersByTime(500);
    expect(ticks).toEqual([1, 2, 3]);
    receive(run, 'ticker.active', true);
    vi.advanceTimersByTime(100);
    expect(ticks).toEqual([1, 2, 3, 4]);
  });

  it('reset sets tick to 0 and restarts the interval; a new interval_ms takes effect', () => {
    vi.useFakeTimers();
    const run = start(
      [
        { id: 'ticker', type: 'Ticker', values: { interval_ms: 100 } },
        { id: 'cmp', type: 'Compare', values: { condition_0_B: 2, condition_0_operator: '>=' } },
      ],
      [{ from: 'ticker.tick', to: 'cmp.condition_0_A' }],
    );
    const ticks = run.record('ticker.tick');
    vi.advanceTimersByTime(250);
    expect(run.pad('cmp.value')).toMatchObject({ value: true });
    receive(run, 'ticker.reset', TRIGGER);
    expect(run.pad('cmp.value')).toMatchObject({ value: false });
    vi.advanceTimersByTime(99);
    expect(ticks).toEqual([1, 2, 0]);
    vi.advanceTimersByTime(1);
    expect(ticks).toEqual([1, 2, 0, 1]);
    receive(run, 'ticker.interval_ms', 20);
    vi.advanceTimersByTime(40);
    expect(ticks).toEqual([1, 2, 0, 1, 2, 3]);
  });

  it('does not tick on an interval that is not positive, and leaves no timer when the run stops', async () => {
    vi.useFakeTimers();
    const run = start([{ id: 'ticker', type: 'Ticker', values: { interval_ms: 0 } }]);
    const ticks = run.record('ticker.tick');
    vi.advanceTimersByTime(1000);
    expect(ticks).toEqual([]);
    expect(run.logs).toEqual([expect.objectContaining({ level: 'warning', pad: 'interval_ms' })]);
    receive(run, 'ticker.interval_ms', 50);
    vi.advanceTimersByTime(100);
    expect(ticks).toEqual([1, 2]);
    expect(vi.getTimerCount()).toBe(1);
    await run.stop();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(500);
    expect(ticks).toEqual([1, 2]);
  });
});
