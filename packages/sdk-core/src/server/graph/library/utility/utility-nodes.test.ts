import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRIGGER, textContextMessage } from '../../../../contract/graph/pad-values.js';
import { graphOf, runGraph, type GraphKitRun } from '../../../../testing/graph-kit.js';
import { RuntimeSinkPad } from '../../runtime/pads.js';
import { TextStream, isTextStream } from '../../runtime/stream-values.js';
import type { NodeLibrary } from '../../runtime/node-library.js';
import { validateGraph } from '../../validation/validate-graph.js';
import { platformNodeLibrary } from '../node-library.js';
import { MAX_RENDER_MS, MAX_TEMPLATE_ITEMS, templateRenderer } from './template-engine.js';

/** The platform's library with a silent TTS: AutoConvert only needs the type of its `text` pad. */
const library: NodeLibrary = {
  spec: (type) => platformNodeLibrary.spec(type),
  implementation: (type) => (type === 'TTS' ? undefined : platformNodeLibrary.implementation(type)),
};

/** A value arriving on a sink pad, as from its link or a client's push. */
function receive(run: GraphKitRun, path: string, value: unknown): void {
  const pad = run.pad(path);
  if (!(pad instanceof RuntimeSinkPad)) throw new Error(`${path} is not a sink`);
  pad.receive(value);
}

const runs: GraphKitRun[] = [];
function start(...args: Parameters<typeof graphOf>): GraphKitRun {
  const document = graphOf(...args);
  expect(validateGraph(document, new Map(), library)).toEqual([]);
  const run = runGraph(document, { library });
  runs.push(run);
  return run;
}

afterEach(async () => {
  for (const run of runs.splice(0)) {
    expect(run.failures).toEqual([]);
    await run.stop();
  }
});

describe('Merge', () => {
  it('sends what reaches any of its sinks on its source, in arrival order', () => {
    const run = start(
      [
        { id: 'first', type: 'String' },
        { id: 'second', type: 'String' },
        { id: 'merge', type: 'Merge', values: { num_sinks: 3 } },
        { id: 'last', type: 'String' },
      ],
      [
        { from: 'first.changed', to: 'merge.sink_0' },
        { from: 'second.changed', to: 'merge.sink_2' },
        { from: 'merge.source', to: 'last.set' },
      ],
    );
    const merged = run.record('merge.source');
    receive(run, 'first.set', 'one');
    receive(run, 'second.set', 'two');
    receive(run, 'merge.sink_1', 'three');
    receive(run, 'first.set', 'four');
    expect(merged).toEqual(['one', 'two', 'three', 'four']);
    expect(run.pad('last.value')).toMatchObject({ value: 'four' });
  });
});

describe('Jinja2', () => {
  it('renders the template with its properties, again when a property, a name or the template changes', async () => {
    const run = start(
      [
        { id: 'name', type: 'String', values: { value: 'Ada' } },
        {
          id: 'prompt',
          type: 'Jinja2',
          values: {
            num_properties: 2,
            jinja_template: 'Hello {{ user }}{% if turns > 1 %}, turn {{ turns }}{% endif %}!',
            property_name_0: 'user',
            property_name_1: 'turns',
            property_value_1: 1,
          },
        },
        { id: 'message', type: 'ContextMessage' },
      ],
      [
        { from: 'name.value', to: 'prompt.property_value_0' },
        { from: 'prompt.rendered_output', to: 'message.content' },
      ],
    );
    await expect.poll(() => run.runtime.pad('prompt', 'rendered_output')).toMatchObject({ value: 'Hello Ada!' });
    const rendered = run.record('prompt.rendered_output');
    const passed = run.record('prompt.property_value_0_source');
    receive(run, 'name.set', 'Grace');
    receive(run, 'prompt.property_value_1', 3);
    receive(run, 'prompt.property_name_0', 'someone');
    receive(run, 'prompt.jinja_template', '{{ someone | upper }} ({{ turns * 2 }})');
    expect(rendered).toEqual(['Hello Grace!', 'Hello Grace, turn 3!', 'Hello , turn 3!', 'GRACE (6)']);
    expect(passed).toEqual(['Grace']);
    expect(run.pad('message.context_message')).toMatchObject({ value: textContextMessage('system', 'GRACE (6)') });
  });

  it('starts from its default template, an empty name standing for property_{i}', async () => {
    const run = start([{ id: 'hello', type: 'Jinja2', values: { property_value_0: 'world' } }]);
    await expect.poll(() => run.runtime.pad('hello', 'rendered_output')).toMatchObject({ value: 'Hello, world!' });
  });

  it('keeps the last output and logs a template that does not render', async () => {
    const run = start([{ id: 't', type: 'Jinja2', values: { jinja_template: 'ok {{ property_0 }}', property_value_0: 1 } }]);
    await expect.poll(() => run.runtime.pad('t', 'rendered_output')).toMatchObject({ value: 'ok 1' });
    receive(run, 't.jinja_template', '{% if %}broken');
    receive(run, 't.property_value_0', 2);
    expect(run.pad('t.rendered_output')).toMatchObject({ value: 'ok 1' });
    expect(run.logs).toEqual([
      expect.objectContaining({ level: 'warning', node: 't', pad: 'jinja_template', message: expect.stringMatching(/cannot render the template/) }),
    ]);
    receive(run, 't.jinja_template', 'fixed {{ property_0 }}');
    expect(run.pad('t.rendered_output')).toMatchObject({ value: 'fixed 2' });
  });

  it('understands Jinja: loops, filters, True/False/None, slices, tojson', async () => {
    const renderer = await templateRenderer();
    const render = (template: string, context: Record<string, unknown> = {}) => renderer.render(template, context);
    expect(render('{% for i in range(3) %}{{ loop.index }}{% endfor %}')).toEqual({ ok: true, text: '123' });
    expect(render('{{ "a,b" | replace(",", ";") | upper }} {{ True }} {{ False }} {{ None is null }}')).toEqual({ ok: true, text: 'A;B true false true' });
    expect(render('{{ items[1:3] | join("-") }} {{ data | tojson }}', { items: [1, 2, 3, 4], data: { a: 1 } })).toEqual({ ok: true, text: '2-3 {"a":1}' });
    expect(render('<b>{{ text }}</b>', { text: '<i>' })).toEqual({ ok: true, text: '<b><i></b>' });
  });

  it('runs no code and reaches no prototype from a template', async () => {
    const renderer = await templateRenderer();
    const attempts = [
      '{{ range.constructor("return process")() }}',
      '{{ "x".constructor.constructor("return process")() }}',
      '{{ range[["constructor"]]("return process")() }}',
      '{{ constructor.getOwnPropertyDescriptor(constructor.getPrototypeOf(range), "constructor").value("return process")() }}',
      '{% set f = cycler %}{{ f["constr" ~ "uctor"]("return 1")() }}',
      '{{ joiner.__proto__ }}{{ joiner.__lookupGetter__ }}{{ hasOwnProperty }}',
    ];
    for (const attempt of attempts) {
      const result = renderer.render(attempt, {});
      if (result.ok) expect(result.text).not.toMatch(/process|function|\[object/);
      else expect(result.reason).toMatch(/undefined|falsey|not a function/);
    }
    expect(renderer.render(`{{ range(${MAX_TEMPLATE_ITEMS + 1}) | length }}`, {})).toMatchObject({ ok: false, reason: expect.stringMatching(/at most/) });
    expect(renderer.render('{{ "x" | indent(1000000000, true) | length }}', {})).toEqual({ ok: true, text: String(MAX_TEMPLATE_ITEMS + 1) });
  });

  it('stops runaway templates (nested loops, recursion, huge output) by one of its budgets instead of holding the process', async () => {
    const renderer = await templateRenderer();
    const runaway = {
      loops: `{% for a in range(${MAX_TEMPLATE_ITEMS}) %}{% for b in range(${MAX_TEMPLATE_ITEMS}) %}{% set c = a * b %}{% endfor %}{% endfor %}`,
      recursion: '{% macro down(n) %}{{ down(n + 1) }}{% endmacro %}{{ down(0) }}',
      output: `{% for a in range(${MAX_TEMPLATE_ITEMS}) %}{% for b in range(200) %}xxxxxxxxxx{% endfor %}{% endfor %}`,
    };
    // How long each takes to be stopped: `pnpm bench app-runtime` (against an ordinary render).
    for (const template of Object.values(runaway)) {
      expect(renderer.render(template, {})).toMatchObject({ ok: false, reason: expect.stringMatching(/steps|longer than|more than|call stack/) });
    }
    // The renderer is still fine afterwards.
    expect(renderer.render('{% for a in range(3) %}{{ a }}{% endfor %}', {})).toEqual({ ok: true, text: '012' });
  });

  it(`stops a render once MAX_RENDER_MS (${MAX_RENDER_MS} ms) has passed on its clock, before its step budget`, async () => {
    const renderer = await templateRenderer();
    // A clock on which every reading is 1 ms later: the render checks it every 1,024 steps, so the deadline comes
    // after ~256,000 steps, well inside the 1,000,000 the nested loops would need.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 1));
    try {
      const loops = `{% for a in range(${MAX_TEMPLATE_ITEMS}) %}{% for b in range(${MAX_TEMPLATE_ITEMS}) %}{% set c = a * b %}{% endfor %}{% endfor %}`;
      expect(renderer.render(loops, {})).toEqual({
        ok: false,
        reason: expect.stringContaining(`the template takes longer than ${MAX_RENDER_MS} ms to render`),
      });
    } finally {
      clock.mockRestore();
    }
    expect(renderer.render('{{ 6 * 7 }}', {})).toEqual({ ok: true, text: '42' });
  });

  it('gives no reserved name to the template', async () => {
    const run = start([{ id: 't', type: 'Jinja2', values: { jinja_template: '[{{ constructor }}]', property_name_0: 'constructor', property_value_0: 'x' } }]);
    await expect
      .poll(() => run.logs)
      .toEqual([expect.objectContaining({ level: 'warning', pad: 'property_name_0', message: expect.stringMatching(/reserved/) })]);
    expect(run.pad('t.rendered_output')).toMatchObject({ value: '[]' });
  });
});

describe('AutoConvert', () => {
  it('turns a context message into a trigger and into its text', async () => {
    const run = start(
      [
        { id: 'to_trigger', type: 'AutoConvert' },
        { id: 'flag', type: 'Boolean', values: { value: false } },
        { id: 'to_text', type: 'AutoConvert' },
        { id: 'text', type: 'String' },
      ],
      [
        { from: 'to_trigger.source', to: 'flag.toggle' },
        { from: 'to_text.source', to: 'text.set' },
      ],
    );
    const message = textContextMessage('user', 'Turn on the lights');
    receive(run, 'to_trigger.sink', message);
    receive(run, 'to_text.sink', message);
    await expect.poll(() => run.runtime.pad('text', 'value')).toMatchObject({ value: 'Turn on the lights' });
    await expect.poll(() => run.runtime.pad('flag', 'value')).toMatchObject({ value: true });
  });

  it('writes numbers, booleans and objects as text; reads text as a number; completes a text stream', async () => {
    const run = start(
      [
        { id: 'to_text', type: 'AutoConvert' },
        { id: 'text', type: 'String' },
        { id: 'to_number', type: 'AutoConvert' },
        { id: 'number', type: 'Float' },
        { id: 'to_stream', type: 'AutoConvert' },
        { id: 'tts', type: 'TTS' },
      ],
      [
        { from: 'to_text.source', to: 'text.set' },
        { from: 'to_number.source', to: 'number.set' },
        { from: 'to_stream.source', to: 'tts.text' },
      ],
    );
    const texts = run.record('text.set');
    const numbers = run.record('number.set');
    const streams = run.record('to_stream.source');
    for (const value of [42, 2.5, true, { a: [1, 2] }, TRIGGER]) receive(run, 'to_text.sink', value);
    const stream = new TextStream();
    receive(run, 'to_text.sink', stream);
    stream.write('streamed ');
    stream.write('text');
    stream.end();
    for (const value of [' 7.5 ', 'seven']) receive(run, 'to_number.sink', value);
    receive(run, 'to_stream.sink', 'say this');
    await expect.poll(() => texts).toEqual(['42', '2.5', 'true', '{"a":[1,2]}', 'streamed text']);
    await expect.poll(() => numbers).toEqual([7.5]);
    await expect.poll(() => streams.length).toBe(1);
    expect(isTextStream(streams[0])).toBe(true);
    expect(await (streams[0] as TextStream).readAll()).toBe('say this');
    expect(run.logs.map((entry) => `${entry.node}: ${entry.message}`).sort()).toEqual([
      'to_number: cannot convert "seven" to float',
      'to_text: cannot convert {"type":"trigger"} to string',
    ]);
  });
});

describe('graphs exported by the open engine', () => {
  it('load, validate and run: typed values, narrowed allowed types, a Jinja2 of the older layout without value sources', async () => {
    const document = graphOf(
      [
        { id: 'state', type: 'String', values: { value: 'PAID' } },
        { id: 'prompt', type: 'Jinja2', values: { jinja_template: 'State: {{ current_state }}', property_name_0: 'current_state' } },
        { id: 'paid', type: 'Compare', values: { mode: 'OR', condition_0_B: 'PAID' } },
        { id: 'merge', type: 'Merge', values: { num_sinks: 2 } },
      ],
      [
        { from: 'state.value', to: 'prompt.property_value_0' },
        { from: 'prompt.rendered_output', to: 'paid.condition_0_A' },
        { from: 'state.changed', to: 'merge.sink_1' },
      ],
    );
    const prompt = document.nodes.find((node) => node.id === 'prompt')!;
    prompt.pads = prompt.pads.filter((pad) => pad.id !== 'property_value_0_source');
    prompt.pads.find((pad) => pad.id === 'property_value_0')!.allowed_types = [{ type: 'enum', options: ['PAID', 'NOT_PAID'] }];
    const paid = document.nodes.find((node) => node.id === 'paid')!;
    expect(paid.pads.find((pad) => pad.id === 'mode')!.value).toEqual({ type: 'enum', value: 'OR' });
    paid.pads.find((pad) => pad.id === 'condition_0_operator')!.value = { type: 'enum', value: 'CONTAINS' };
    expect(validateGraph(document, new Map(), library)).toEqual([]);
    const run = runGraph(document, { library });
    runs.push(run);
    await expect.poll(() => run.runtime.pad('prompt', 'rendered_output')).toMatchObject({ value: 'State: PAID' });
    expect(run.pad('paid.value')).toMatchObject({ value: true });
    const merged = run.record('merge.source');
    receive(run, 'state.set', 'NOT_PAID');
    expect(run.pad('prompt.rendered_output')).toMatchObject({ value: 'State: NOT_PAID' });
    expect(run.pad('paid.value')).toMatchObject({ value: true });
    receive(run, 'state.set', 'UNKNOWN');
    expect(run.pad('paid.value')).toMatchObject({ value: false });
    expect(merged).toEqual(['NOT_PAID', 'UNKNOWN']);
  });
});

describe('Comment', () => {
  it('does nothing: it has no implementation, and a graph with one runs', () => {
    expect(platformNodeLibrary.implementation('Comment')).toBeUndefined();
    const run = start([{ id: 'note', type: 'Comment', values: { text: '# Read me' } }]);
    expect(run.pad('note.text')).toMatchObject({ value: '# Read me' });
    expect(run.logs).toEqual([]);
  });
});
