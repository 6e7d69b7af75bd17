import { afterEach, describe, expect, it } from 'vitest';
import type { GraphDocument, PadKind } from '../../../../contract/graph/graph-document.js';
import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../runtime/pads.js';
import { validateGraph } from '../../validation/validate-graph.js';
import { platformNodeLibrary } from '../node-library.js';
import { ENTRY_DELAY_MS } from './entry-node.js';

function receive(run: GraphKitRun, path: string, value: unknown): void {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  pad.receive(value);
}

/** Stores a pad as another kind, as the engine's editor does when a property feeds a pass-through. */
function storeAs(document: GraphDocument, path: string, kind: PadKind): GraphDocument {
  const [node, pad] = path.split('.') as [string, string];
  document.nodes.find((candidate) => candidate.id === node)!.pads.find((candidate) => candidate.id === pad)!.type = kind;
  return document;
}

const runs: GraphKitRun[] = [];
function start(document: GraphDocument): GraphKitRun {
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

describe('Noop', () => {
  it('passes every value on unchanged, whatever its type', () => {
    const run = start(graphOf([{ id: 'noop', type: 'Noop' }]));
    const passed = run.record('noop.source');
    receive(run, 'noop.sink', 'text');
    receive(run, 'noop.sink', TRIGGER);
    receive(run, 'noop.sink', { a: 1 });
    expect(passed).toEqual(['text', TRIGGER, { a: 1 }]);
  });
});

describe('TypeConstraint', () => {
  it('pins sink and source to the selected type, so links of other types are refused naming node and pad', () => {
    const ok = graphOf(
      [
        { id: 'n', type: 'Integer', values: { value: 3 } },
        { id: 'tc', type: 'TypeConstraint', values: { type_selector: 'integer' } },
      ],
      [{ from: 'n.value', to: 'tc.sink' }],
    );
    storeAs(storeAs(ok, 'tc.sink', 'PropertySinkPad'), 'tc.source', 'PropertySourcePad');
    expect(validateGraph(ok, new Map(), platformNodeLibrary)).toEqual([]);
    const wrong = graphOf(
      [
        { id: 's', type: 'String' },
        { id: 'tc', type: 'TypeConstraint', values: { type_selector: 'trigger' } },
      ],
      [{ from: 's.value', to: 'tc.sink' }],
    );
    expect(validateGraph(wrong, new Map(), platformNodeLibrary)).toEqual([
      expect.objectContaining({ node: 's', pad: 'value', message: expect.stringContaining('cannot link to tc.sink') }),
    ]);
    expect(validateGraph(storeAs(wrong, 'tc.source', 'PropertySourcePad'), new Map(), platformNodeLibrary)).toContainEqual(
      expect.objectContaining({ node: 'tc', pad: 'source', message: 'is a StatelessSourcePad, not a PropertySourcePad' }),
    );
  });

  it('as property pads, source holds the value fed to sink and follows its changes', () => {
    const document = graphOf(
      [
        { id: 'n', type: 'Integer', values: { value: 3 } },
        { id: 'tc', type: 'TypeConstraint', values: { type_selector: 'integer' } },
      ],
      [{ from: 'n.value', to: 'tc.sink' }],
    );
    const run = start(storeAs(storeAs(document, 'tc.sink', 'PropertySinkPad'), 'tc.source', 'PropertySourcePad'));
    expect(run.pad('tc.source')).toMatchObject({ value: 3 });
    receive(run, 'n.set', 7);
    expect(run.pad('tc.source')).toMatchObject({ value: 7 });
  });

  it('as stateless pads, passes each value on', () => {
    const run = start(graphOf([{ id: 'tc', type: 'TypeConstraint', values: { type_selector: 'trigger' } }]));
    const passed = run.record('tc.source');
    receive(run, 'tc.sink', TRIGGER);
    expect(passed).toEqual([TRIGGER]);
  });
});

describe('Entry', () => {
  it('fires one trigger after the start, reaching what it is linked to', async () => {
    const run = start(
      graphOf(
        [
          { id: 'entry', type: 'Entry' },
          { id: 'noop', type: 'Noop' },
        ],
        [{ from: 'entry.trigger', to: 'noop.sink' }],
      ),
    );
    const passed = run.record('noop.source');
    expect(passed).toEqual([]);
    await new Promise<void>((resolve) => run.pad('noop.source').onValue(() => resolve()));
    expect(passed).toEqual([TRIGGER]);
  });

  it('fires nothing when the run stops first', async () => {
    const run = runGraph(graphOf([{ id: 'entry', type: 'Entry' }]));
    const fired = run.record('entry.trigger');
    await run.stop();
    await new Promise((resolve) => setTimeout(resolve, ENTRY_DELAY_MS + 100));
    expect(fired).toEqual([]);
  });
});
