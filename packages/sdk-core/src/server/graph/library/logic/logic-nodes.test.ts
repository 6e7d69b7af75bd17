import { afterEach, describe, expect, it } from 'vitest';
import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../runtime/pads.js';
import { validateGraph } from '../../validation/validate-graph.js';
import { platformNodeLibrary } from '../node-library.js';
import { compareValues } from './compare-values.js';

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

describe('Gate', () => {
  it('passes values while open and drops them while closed', () => {
    const run = start([{ id: 'gate', type: 'Gate' }]);
    const passed = run.record('gate.source');
    receive(run, 'gate.sink', 'dropped');
    receive(run, 'gate.open', true);
    receive(run, 'gate.sink', 'kept');
    receive(run, 'gate.sink', TRIGGER);
    receive(run, 'gate.open', false);
    receive(run, 'gate.sink', 'dropped again');
    expect(passed).toEqual(['kept', TRIGGER]);
  });
});

describe('Compare', () => {
  it('evaluates one condition whenever an input changes, pushing value when it changes', () => {
    const run = start([{ id: 'cmp', type: 'Compare', values: { condition_0_A: 'hello world', condition_0_B: 'world', condition_0_operator: 'CONTAINS' } }]);
    expect(run.pad('cmp.value')).toMatchObject({ value: true });
    const values = run.record('cmp.value');
    receive(run, 'cmp.condition_0_operator', 'STARTS_WITH');
    receive(run, 'cmp.condition_0_B', 'hello');
    receive(run, 'cmp.condition_0_operator', 'ENDS_WITH');
    receive(run, 'cmp.condition_0_operator', 'NOT_CONTAINS');
    receive(run, 'cmp.condition_0_A', 'goodbye');
    expect(values).toEqual([false, true, false, true]);
  });

  it('combines conditions with AND or OR, numbers compared as numbers', () => {
    const run = start(
      [
        { id: 'count', type: 'Integer', values: { value: 3 } },
        {
          id: 'cmp',
          type: 'Compare',
          values: { num_conditions: 2, condition_0_B: 5, condition_0_operator: '<', condition_1_A: 'on', condition_1_B: 'on', condition_1_operator: '!=' },
        },
      ],
      [{ from: 'count.value', to: 'cmp.condition_0_A' }],
    );
    // 3 < 5 holds, 'on' != 'on' does not.
    expect(run.pad('cmp.value')).toMatchObject({ value: false });
    const values = run.record('cmp.value');
    receive(run, 'cmp.mode', 'OR');
    receive(run, 'count.increment', TRIGGER);
    receive(run, 'count.increment', TRIGGER);
    receive(run, 'cmp.condition_1_B', 'off');
    receive(run, 'cmp.mode', 'AND');
    receive(run, 'count.decrement', TRIGGER);
    expect(values).toEqual([true, false, true, false, true]);
  });

  it('takes values it cannot compare as false and logs the problem once', () => {
    const run = start([{ id: 'cmp', type: 'Compare', values: { condition_0_A: 'abc', condition_0_B: 1, condition_0_operator: '>' } }]);
    receive(run, 'cmp.mode', 'AND');
    receive(run, 'cmp.condition_0_B', 2);
    expect(run.pad('cmp.value')).toMatchObject({ value: false });
    expect(run.logs).toHaveLength(2);
    expect(run.logs[0]).toMatchObject({ level: 'warning', node: 'cmp', pad: 'condition_0_operator', message: expect.stringMatching(/cannot compare "abc"/) });
    receive(run, 'cmp.condition_0_A', '3');
    expect(run.pad('cmp.value')).toMatchObject({ value: true });
  });
});

describe('compareValues', () => {
  it('compares texts, numbers and booleans, reading numbers and booleans written as text', () => {
    expect(compareValues('10', 9, '>')).toEqual({ ok: true, result: true });
    expect(compareValues(2.5, 2.5, '>=')).toEqual({ ok: true, result: true });
    expect(compareValues(true, 'true', '==')).toEqual({ ok: true, result: true });
    expect(compareValues(false, true, '!=')).toEqual({ ok: true, result: true });
    expect(compareValues('Hello', 'hello', '==')).toEqual({ ok: true, result: false });
    expect(compareValues('report.pdf', '.pdf', 'ENDS_WITH')).toEqual({ ok: true, result: true });
    expect(compareValues('a', 'b', '<')).toMatchObject({ ok: false, reason: expect.stringMatching(/compares numbers/) });
    expect(compareValues(3, 4, 'CONTAINS')).toMatchObject({ ok: false, reason: expect.stringMatching(/compares texts/) });
    expect(compareValues(1, 1, '===')).toMatchObject({ ok: false, reason: expect.stringMatching(/unknown operator/) });
    expect(compareValues(null, 1, '==')).toMatchObject({ ok: false });
  });
});

describe('And and Or', () => {
  it('And is true while every input is true; Or while any is', () => {
    const run = start(
      [
        { id: 'a', type: 'Boolean', values: { value: false } },
        { id: 'all', type: 'And', values: { num_inputs: 3 } },
        { id: 'any', type: 'Or' },
      ],
      [
        { from: 'a.value', to: 'all.input_1' },
        { from: 'a.value', to: 'any.input_2' },
      ],
    );
    const all = run.record('all.source');
    const any = run.record('any.source');
    receive(run, 'all.input_2', true);
    receive(run, 'all.input_3', true);
    receive(run, 'a.toggle', TRIGGER);
    receive(run, 'any.input_1', true);
    receive(run, 'a.toggle', TRIGGER);
    receive(run, 'any.input_1', false);
    expect(all).toEqual([true, false]);
    expect(any).toEqual([true, false]);
    expect(run.pad('all.source')).toMatchObject({ value: false });
  });

  it('counts an input that is not a boolean as false, with a warning', () => {
    const run = start([{ id: 'any', type: 'Or' }]);
    receive(run, 'any.input_1', 'yes');
    expect(run.pad('any.source')).toMatchObject({ value: false });
    expect(run.logs).toEqual([expect.objectContaining({ level: 'warning', pad: 'input_1' })]);
  });

  it('starts from its stored inputs', () => {
    const run = start([{ id: 'all', type: 'And', values: { input_1: true, input_2: true } }]);
    expect(run.pad('all.source')).toMatchObject({ value: true });
  });
});

describe('Filter', () => {
  it('passes the values that compare true with compare_value', () => {
    const run = start([
      { id: 'big', type: 'Filter', values: { operator: '>=', compare_value: 10 } },
      { id: 'greeting', type: 'Filter', values: { operator: 'STARTS_WITH', compare_value: 'hi' } },
    ]);
    const big = run.record('big.source');
    const greetings = run.record('greeting.source');
    for (const value of [3, 10, 12, 9.5]) receive(run, 'big.sink', value);
    for (const value of ['hi there', 'oh hi', 'hiya']) receive(run, 'greeting.sink', value);
    receive(run, 'big.compare_value', 5);
    receive(run, 'big.sink', 6);
    expect(big).toEqual([10, 12, 6]);
    expect(greetings).toEqual(['hi there', 'hiya']);
  });

  it('drops a value it cannot compare, with a warning', () => {
    const run = start([{ id: 'f', type: 'Filter', values: { operator: '<', compare_value: 5 } }]);
    const passed = run.record('f.source');
    receive(run, 'f.sink', 'many');
    receive(run, 'f.sink', 4);
    expect(passed).toEqual([4]);
    expect(run.logs).toEqual([expect.objectContaining({ level: 'warning', node: 'f', pad: 'sink', message: expect.stringMatching(/cannot compare "many"/) })]);
  });
});
