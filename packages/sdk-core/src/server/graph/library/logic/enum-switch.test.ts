import { afterEach, describe, expect, it } from 'vitest';
import type { GraphDocument, GraphPad, PadKind } from '../../../../contract/graph/graph-document.js';
import { TRIGGER } from '../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun, type KitLink, type KitNode } from '../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../runtime/pads.js';
import { validateGraph } from '../../validation/validate-graph.js';
import { platformNodeLibrary } from '../node-library.js';

function receive(run: GraphKitRun, path: string, value: unknown): void {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  pad.receive(value);
}

/** An option pad as the engine stores it. */
function optionPad(id: string, kind: PadKind, value: unknown = null): GraphPad {
  return { id, group: 'value', type: kind, value, next_pads: [], previous_pad: null };
}

const runs: GraphKitRun[] = [];
function start(nodes: KitNode[], links: KitLink[], options: Record<string, GraphPad[]>): GraphKitRun {
  const document: GraphDocument = graphOf(nodes, [], options);
  for (const link of links) {
    const [fromNode, fromPad] = link.from.split('.') as [string, string];
    const [toNode, toPad] = link.to.split('.') as [string, string];
    document.nodes
      .find((node) => node.id === fromNode)!
      .pads.find((pad) => pad.id === fromPad)!
      .next_pads.push({ node: toNode, pad: toPad });
    document.nodes.find((node) => node.id === toNode)!.pads.find((pad) => pad.id === toPad)!.previous_pad = { node: fromNode, pad: fromPad };
  }
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

describe('EnumSwitchTrigger', () => {
  it('fires the trigger pad named by each enum value, and logs a value that names no pad', () => {
    const run = start([{ id: 'sw', type: 'EnumSwitchTrigger' }], [], {
      sw: [optionPad('greet', 'StatelessSourcePad'), optionPad('leave', 'StatelessSourcePad')],
    });
    const greet = run.record('sw.greet');
    const leave = run.record('sw.leave');
    receive(run, 'sw.sink', 'greet');
    receive(run, 'sw.sink', 'leave');
    receive(run, 'sw.sink', 'greet');
    receive(run, 'sw.sink', 'dance');
    expect(greet).toEqual([TRIGGER, TRIGGER]);
    expect(leave).toEqual([TRIGGER]);
    expect(run.logs).toContainEqual(expect.objectContaining({ node: 'sw', pad: 'sink', level: 'warning', message: 'no option "dance": nothing fired' }));
  });

  it('refuses an option pad of the wrong kind, naming node and pad', () => {
    const document = graphOf([{ id: 'sw', type: 'EnumSwitchTrigger' }], [], { sw: [optionPad('greet', 'PropertySinkPad')] });
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([
      { node: 'sw', pad: 'greet', message: 'is a StatelessSourcePad, not a PropertySinkPad' },
    ]);
  });
});

describe('EnumSwitchProperty', () => {
  it('holds the value of the input the enum names, from the start and on each change of the enum', () => {
    const run = start([{ id: 'sw', type: 'EnumSwitchProperty', values: { sink: 'formal' } }], [], {
      sw: [
        optionPad('formal', 'PropertySinkPad', { type: 'string', value: 'Good day.' }),
        optionPad('casual', 'PropertySinkPad', { type: 'string', value: 'Hey!' }),
      ],
    });
    expect(run.pad('sw.source')).toMatchObject({ value: 'Good day.' });
    const values = run.record('sw.source');
    receive(run, 'sw.sink', 'casual');
    receive(run, 'sw.sink', 'formal');
    receive(run, 'sw.sink', 'rude');
    expect(values).toEqual(['Hey!', 'Good day.']);
    expect(run.logs).toContainEqual(expect.objectContaining({ node: 'sw', pad: 'sink', message: 'no option "rude"' }));
  });

  it('refuses an option value that is not a string, number, boolean or message, naming node and pad', () => {
    const document = graphOf([{ id: 'sw', type: 'EnumSwitchProperty' }], [], { sw: [optionPad('a', 'PropertySinkPad', { type: 'list', value: [1] })] });
    expect(validateGraph(document, new Map(), platformNodeLibrary)).toEqual([expect.objectContaining({ node: 'sw', pad: 'a' })]);
  });
});
