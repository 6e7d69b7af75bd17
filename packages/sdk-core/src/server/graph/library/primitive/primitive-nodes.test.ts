import { afterEach, describe, expect, it } from 'vitest';
import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../runtime/pads.js';
import { platformNodeLibrary } from '../node-library.js';
import { validateGraph } from '../../validation/validate-graph.js';

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
});

describe('String', () => {
  it('set stores the text on value and downstream; changed fires only when it differs; emit re-sends', () => {
    const run = start(
      [
        { id: 'a', type: 'String', values: { value: 'start' } },
        { id: 'b', type: 'String' },
      ],
      [{ from: 'a.value', to: 'b.set' }],
    );
    const values = run.record('a.value');
    const changed = run.record('a.changed');
    const downstream = run.record('b.changed');
    receive(run, 'a.set', 'hello');
    receive(run, 'a.set', 'hello');
    receive(run, 'a.emit', TRIGGER);
    expect(values).toEqual(['hello', 'hello', 'hello']);
    expect(changed).toEqual(['hello']);
    expect(downstream).toEqual(['hello']);
    expect(run.pad('b.value')).toMatchObject({ value: 'hello' });
  });

  it('skips a value that is not a text, with a warning', () => {
    const run = start([{ id: 'a', type: 'String', values: { value: 'kept' } }]);
    receive(run, 'a.set', 42);
    expect(run.pad('a.value')).toMatchObject({ value: 'kept' });
    expect(run.logs).toEqual([expect.objectContaining({ level: 'warning', node: 'a', pad: 'set', message: expect.stringMatching(/not a text/) })]);
  });
});

describe('Integer', () => {
  it('increments, decrements and sets, telling each change', () => {
    const run = start([{ id: 'n', type: 'Integer', values: { value: 5 } }]);
    const changed = run.record('n.changed');
    receive(run, 'n.increment', TRIGGER);
    receive(run, 'n.increment', TRIGGER);
    receive(run, 'n.decrement', TRIGGER);
    receive(run, 'n.set', 10);
    receive(run, 'n.set', 10);
    receive(run, 'n.set', 'eleven');
    expect(changed).toEqual([6, 7, 6, 10]);
    expect(run.pad('n.value')).toMatchObject({ value: 10 });
    expect(run.logs).toHaveLength(1);
  });

  it('feeds a String through AutoConvert as text', async () => {
    const run = start(
      [
        { id: 'n', type: 'Integer' },
        { id: 'convert', type: 'AutoConvert' },
        { id: 's', type: 'String' },
      ],
      [
        { from: 'n.changed', to: 'convert.sink' },
        { from: 'convert.source', to: 's.set' },
      ],
    );
    receive(run, 'n.increment', TRIGGER);
    await expect.poll(() => run.runtime.pad('s', 'value')).toMatchObject({ value: '1' });
  });
});

describe('Float', () => {
  it('holds numbers with fractions and re-sends them on emit', () => {
    const run = start([{ id: 'f', type: 'Float', values: { value: 0.5 } }]);
    const values = run.record('f.value');
    const changed = run.record('f.changed');
    receive(run, 'f.emit', TRIGGER);
    receive(run, 'f.set', 2.25);
    receive(run, 'f.set', Number.NaN);
    expect(values).toEqual([0.5, 2.25]);
    expect(changed).toEqual([2.25]);
    expect(run.logs.map((entry) => entry.pad)).toEqual(['set']);
  });
});

describe('Boolean', () => {
  it('starts true, toggles and sets, telling each change; a Gate downstream follows it', () => {
    const run = start(
      [
        { id: 'flag', type: 'Boolean' },
        { id: 'gate', type: 'Gate' },
      ],
      [{ from: 'flag.value', to: 'gate.open' }],
    );
    const changed = run.record('flag.changed');
    const passed = run.record('gate.source');
    receive(run, 'gate.sink', 'first');
    receive(run, 'flag.toggle', TRIGGER);
    receive(run, 'gate.sink', 'second');
    receive(run, 'flag.set', true);
    receive(run, 'gate.sink', 'third');
    expect(changed).toEqual([false, true]);
    expect(passed).toEqual(['first', 'third']);
    expect(run.pad('gate.open')).toMatchObject({ value: true });
  });
});

describe('Json', () => {
  it('holds its object and re-sends it on emit', () => {
    const run = start([{ id: 'j', type: 'Json', values: { value: { greeting: 'hi', count: 2 } } }]);
    const values = run.record('j.value');
    receive(run, 'j.emit', TRIGGER);
    expect(values).toEqual([{ greeting: 'hi', count: 2 }]);
  });

  it('reads an object stored as JSON text, and holds {} for an empty one (as older exports store it)', () => {
    const document = graphOf([
      { id: 'text', type: 'Json' },
      { id: 'empty', type: 'Json' },
    ]);
    document.nodes[0]!.pads.find((pad) => pad.id === 'value')!.value = { type: 'string', value: '{"a": 1}' };
    document.nodes[1]!.pads.find((pad) => pad.id === 'value')!.value = { type: 'string', value: '' };
    const run = runGraph(document);
    runs.push(run);
    expect(run.pad('text.value')).toMatchObject({ value: { a: 1 } });
    expect(run.pad('empty.value')).toMatchObject({ value: {} });
  });
});

describe('Variable', () => {
  it('set stores on current_value, emit sends it on emit_source', () => {
    const run = start([{ id: 'v', type: 'Variable' }]);
    const emitted = run.record('v.emit_source');
    receive(run, 'v.emit', TRIGGER);
    receive(run, 'v.set', 3);
    receive(run, 'v.set', 'three');
    receive(run, 'v.emit', TRIGGER);
    receive(run, 'v.set', { not: 'held' });
    expect(emitted).toEqual(['three']);
    expect(run.pad('v.current_value')).toMatchObject({ value: 'three' });
    expect(run.logs.map((entry) => entry.pad)).toEqual(['emit', 'set']);
  });
});
