import { describe, expect, it } from 'vitest';
import { graphOf } from '@palaver/sdk-core/testing';
import { layoutGraph, type GraphLayout } from './graph-layout.js';
import { graphLayers, graphLinks } from './graph-order.js';

/** A loop like the voice graphs': a context feeds an LLM whose answer goes back into the context. */
const loop = graphOf(
  [
    { id: 'prompt', type: 'ContextMessage', values: { role: 'system', content: 'Be brief.' } },
    { id: 'typed', type: 'CreateContextMessage', values: { role: 'user' } },
    { id: 'context', type: 'LLMContext', values: { num_inserts: 2 } },
    { id: 'trigger', type: 'AutoConvert' },
    { id: 'llm', type: 'OpenAICompatibleLLM' },
    { id: 'tts', type: 'TTS' },
    { id: 'output', type: 'Output' },
  ],
  [
    { from: 'prompt.context_message', to: 'context.system_message' },
    { from: 'typed.context_message', to: 'context.insert_0' },
    { from: 'context.source', to: 'llm.context' },
    { from: 'context.new_user_message', to: 'trigger.sink' },
    { from: 'trigger.source', to: 'llm.run_trigger' },
    { from: 'llm.context_message', to: 'context.insert_1' },
    { from: 'llm.text_stream', to: 'tts.text' },
    { from: 'tts.audio', to: 'output.audio' },
  ],
).nodes;

function overlapping(layout: GraphLayout): string[] {
  const found: string[] = [];
  for (const [index, a] of layout.nodes.entries()) {
    for (const b of layout.nodes.slice(index + 1)) {
      if (a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height) found.push(`${a.id}/${b.id}`);
    }
  }
  return found;
}

describe('the graph drawing', () => {
  it('reads every link from the pads, typed by its source pad (else its sink: AutoConvert takes any type)', () => {
    const links = graphLinks(loop);
    expect(links).toHaveLength(8);
    expect(links.find((link) => link.from.node === 'context' && link.from.pad === 'new_user_message')?.dataType).toBe('context_message');
    expect(links.find((link) => link.from.node === 'trigger')?.dataType).toBe('trigger');
  });

  it("breaks the loop at the LLM's answer going back into its context, and puts a node without inputs just before what it feeds", () => {
    const layers = graphLayers(
      loop.map((node) => node.id),
      graphLinks(loop),
    );
    expect(Object.fromEntries(layers)).toEqual({ prompt: 0, typed: 0, context: 1, trigger: 2, llm: 3, tts: 4, output: 5 });
    const layout = layoutGraph(loop, { width: 1200 });
    expect(layout.links.filter((link) => link.route === 'back').map((link) => `${link.from.node}.${link.from.pad}`)).toEqual(['llm.context_message']);
    expect(layout.links.filter((link) => link.route === 'skip').map((link) => `${link.from.node}.${link.from.pad}`)).toEqual(['context.source']);
  });

  it('lays layers across a wide container, whole names, nothing overlapping, nothing wider than the container', () => {
    const layout = layoutGraph(loop, { width: 1200 });
    expect(layout.orientation).toBe('across');
    expect(layout.width).toBeLessThanOrEqual(1200);
    expect(overlapping(layout)).toEqual([]);
    expect(layout.nodes.map((box) => box.title.text)).toEqual(loop.map((node) => node.id));
    expect(layout.nodes.flatMap((box) => [...box.inputs, ...box.outputs]).filter((port) => port.label.text !== port.id)).toEqual([]);
    // Only linked pads are drawn: inputs on the left edge, outputs on the right.
    const llm = layout.nodes.find((box) => box.id === 'llm')!;
    expect(llm.inputs.map((port) => port.id)).toEqual(['run_trigger', 'context']);
    expect(llm.outputs.map((port) => port.id)).toEqual(['text_stream', 'context_message']);
    expect(llm.inputs.every((port) => port.x === llm.x) && llm.outputs.every((port) => port.x === llm.x + llm.width)).toBe(true);
    // Each layer to the right of the one before.
    const xOf = (id: string) => layout.nodes.find((box) => box.id === id)!.x;
    expect(xOf('prompt') < xOf('context') && xOf('context') < xOf('trigger') && xOf('trigger') < xOf('llm') && xOf('llm') < xOf('tts')).toBe(true);
  });

  it('stacks the layers down a narrow container, inputs on top and outputs below, within its width', () => {
    const layout = layoutGraph(loop, { width: 358 });
    expect(layout.orientation).toBe('down');
    expect(layout.width).toBe(358);
    expect(overlapping(layout)).toEqual([]);
    expect(layout.nodes.every((box) => box.x >= 0 && box.x + box.width <= 358)).toBe(true);
    const context = layout.nodes.find((box) => box.id === 'context')!;
    expect(context.inputs.every((port) => port.y === context.y)).toBe(true);
    expect(context.outputs.every((port) => port.y === context.y + context.height)).toBe(true);
    const yOf = (id: string) => layout.nodes.find((box) => box.id === id)!.y;
    expect(yOf('prompt')).toBe(yOf('typed'));
    expect(yOf('typed') < yOf('context') && yOf('context') < yOf('llm') && yOf('llm') < yOf('output')).toBe(true);
  });

  it('gives links that skip over the same layers lanes of their own', () => {
    const fan = graphOf(
      [
        { id: 'a', type: 'String', values: { value: 'x' } },
        { id: 'b', type: 'String' },
        { id: 'c', type: 'String' },
        { id: 'd', type: 'String' },
      ],
      [
        { from: 'a.value', to: 'b.set' },
        { from: 'b.value', to: 'c.set' },
        { from: 'c.value', to: 'd.set' },
        // Past `b`, and past `b` and `c`: the spans overlap.
        { from: 'a.changed', to: 'c.emit' },
        { from: 'a.changed', to: 'd.emit' },
      ],
    ).nodes;
    const layout = layoutGraph(fan, { width: 1200 });
    const skips = layout.links.filter((link) => link.route === 'skip');
    expect(skips).toHaveLength(2);
    expect(new Set(skips.map((link) => link.d)).size).toBe(2);
  });
});
