import { afterEach, describe, expect, it } from 'vitest';
import type { GraphDocument } from '../../../../../contract/graph/graph-document.js';
import { TRIGGER } from '../../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../../runtime/pads.js';
import { validateGraph } from '../../../validation/validate-graph.js';
import { platformNodeLibrary } from '../../node-library.js';

function receive(run: GraphKitRun, path: string, value: unknown): void {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  pad.receive(value);
}

const state = (id: string, name: string) => ({ id, name, position: { x: 0, y: 0 } });

/** idle -> listening when `speaking` is TRUE, listening -> thinking on `done` fired with `words` >= 3, any -> idle when `reset` fires. */
const CONFIGURATION = {
  states: [state('s_idle', 'idle'), state('s_listen', 'listening'), state('s_think', 'thinking')],
  transitions: [
    { id: 't1', from_state: 's_idle', to_state: 's_listen', conditions: [{ parameter_name: 'speaking', operator: 'TRUE' }] },
    {
      id: 't2',
      from_state: 's_listen',
      to_state: 's_think',
      conditions: [
        { parameter_name: 'done', operator: null },
        { parameter_name: 'words', operator: '>=', value: 3 },
      ],
    },
    { id: 't3', from_state: '__ANY__', to_state: 's_idle', conditions: [{ parameter_name: 'reset', operator: null }] },
    { id: 't4', from_state: 's_think', to_state: 's_idle', conditions: [{ parameter_name: 'reply', operator: 'STARTS_WITH', value: 'Bye' }] },
  ],
  entry_state: 's_idle',
};

/** A machine with parameters `speaking` (boolean), `words` (integer), `reply` (string) and the triggers `done` and `reset`. */
function machine(configuration: unknown = CONFIGURATION): GraphDocument {
  const names = ['speaking', 'words', 'reply', 'done', 'reset'];
  const values = Object.fromEntries(names.map((name, index) => [`parameter_name_${index}`, name]));
  const document = graphOf([{ id: 'sm', type: 'StateMachine', values: { configuration, num_parameters: names.length, ...values } }]);
  for (const trigger of ['parameter_value_3', 'parameter_value_4']) {
    const pad = document.nodes[0]!.pads.find((candidate) => candidate.id === trigger)!;
    Object.assign(pad, { type: 'StatelessSinkPad', value: null, allowed_types: [{ type: 'trigger' }] });
  }
  return document;
}

const runs: GraphKitRun[] = [];
afterEach(async () => {
  for (const run of runs.splice(0)) {
    expect(run.failures).toEqual([]);
    await run.stop();
  }
});

function start(document: GraphDocument): GraphKitRun {
  expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([]);
  const run = runGraph(document);
  runs.push(run);
  return run;
}

/** Lets the current event end: triggers fired in it are forgotten. */
const nextEvent = () => new Promise((resolve) => setImmediate(resolve));

describe('StateMachine', () => {
  it('starts in the entry state and follows transitions whose conditions all hold', async () => {
    const run = start(machine());
    expect(run.pad('sm.current_state')).toMatchObject({ value: 'idle' });
    const current = run.record('sm.current_state');
    const previous = run.record('sm.previous_state');
    receive(run, 'sm.parameter_value_0', false);
    receive(run, 'sm.parameter_value_0', true);
    receive(run, 'sm.parameter_value_1', 2);
    receive(run, 'sm.parameter_value_3', TRIGGER);
    await nextEvent();
    receive(run, 'sm.parameter_value_1', 5);
    expect(current).toEqual(['listening']);
    receive(run, 'sm.parameter_value_3', TRIGGER);
    receive(run, 'sm.parameter_value_2', 'See you');
    receive(run, 'sm.parameter_value_2', 'Bye now');
    expect(current).toEqual(['listening', 'thinking', 'idle']);
    expect(previous).toEqual(['idle', 'listening', 'thinking']);
  });

  it('counts a trigger with the values arriving in the same event', () => {
    const run = start(machine());
    receive(run, 'sm.parameter_value_0', true);
    receive(run, 'sm.parameter_value_3', TRIGGER);
    receive(run, 'sm.parameter_value_1', 3);
    expect(run.pad('sm.current_state')).toMatchObject({ value: 'thinking' });
  });

  it('takes transitions from __ANY__ in every state', () => {
    const run = start(machine());
    receive(run, 'sm.parameter_value_0', true);
    const current = run.record('sm.current_state');
    receive(run, 'sm.parameter_value_4', TRIGGER);
    expect(current).toEqual(['idle']);
    expect(run.pad('sm.previous_state')).toMatchObject({ value: 'listening' });
  });

  it('moves at the start when a transition from the entry state has no conditions', () => {
    const run = start(
      machine({
        states: [state('a', 'first'), state('b', 'second')],
        transitions: [{ id: 't', from_state: 'a', to_state: 'b', conditions: [] }],
        entry_state: 'a',
      }),
    );
    expect(run.pad('sm.current_state')).toMatchObject({ value: 'second' });
    expect(run.pad('sm.previous_state')).toMatchObject({ value: 'first' });
  });

  it('current_state is an enum of the state names: it links to an EnumSwitchTrigger firing per state', () => {
    const document = machine();
    const node = graphOf([{ id: 'sw', type: 'EnumSwitchTrigger' }], [], {
      sw: ['idle', 'listening', 'thinking'].map((id) => ({
        id,
        group: 'value',
        type: 'StatelessSourcePad' as const,
        value: null,
        next_pads: [],
        previous_pad: null,
      })),
    }).nodes[0]!;
    document.nodes.push(node);
    document.nodes[0]!.pads.find((pad) => pad.id === 'current_state')!.next_pads.push({ node: 'sw', pad: 'sink' });
    node.pads.find((pad) => pad.id === 'sink')!.previous_pad = { node: 'sm', pad: 'current_state' };
    const run = start(document);
    const listening = run.record('sw.listening');
    receive(run, 'sm.parameter_value_0', true);
    expect(listening).toEqual([TRIGGER]);
  });

  it('refuses configurations with unknown states, naming node and pad', () => {
    const broken = { ...CONFIGURATION, transitions: [{ id: 'tx', from_state: 's_idle', to_state: 'nowhere', conditions: [] }] };
    expect(validateGraph(machine(broken), new Map(), platformNodeLibrary)).toEqual([
      { node: 'sm', pad: 'configuration', message: "transition 'tx' ends at no state ('nowhere')" },
    ]);
    expect(validateGraph(machine({ ...CONFIGURATION, entry_state: 'gone' }), new Map(), platformNodeLibrary)).toEqual([
      { node: 'sm', pad: 'configuration', message: "entry_state 'gone' is no state" },
    ]);
    expect(validateGraph(machine({ states: [{ id: 7 }] }), new Map(), platformNodeLibrary)).toEqual([
      expect.objectContaining({ node: 'sm', pad: 'configuration', message: expect.stringContaining('not a state machine configuration') }),
    ]);
  });
});
