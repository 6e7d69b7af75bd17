import type { NodeImplementation } from '../../runtime/graph-node.js';
import { PropertySinkPad, PropertySourcePad } from '../../runtime/pads.js';
import { describeValue, holdUntilAborted } from './node-lifetime.js';
import { isAllowedTemplateName, templateRenderer } from './template-engine.js';

interface Property {
  index: string;
  name: PropertySinkPad | undefined;
  value: PropertySinkPad;
  /** `property_value_{i}_source`, which passes the value on (absent from graphs of older exports). */
  source: PropertySourcePad | undefined;
}

/**
 * Jinja2: renders `jinja_template` with each `property_name_{i}` bound to `property_value_{i}` (an empty
 * name stands for `property_{i}`) on `rendered_output`, again whenever the template, a name or a value
 * changes; each value also passes on to `property_value_{i}_source`. A template that fails to render is
 * logged and the last output kept.
 */
export const jinja2Node: NodeImplementation = async (node, signal) => {
  const renderer = await templateRenderer();
  if (signal.aborted) return;
  const template = node.propertySink('jinja_template');
  const output = node.propertySource('rendered_output');
  const properties: Property[] = node.numbered('property_value_', PropertySinkPad).map((value) => {
    const index = value.id.slice('property_value_'.length);
    const name = node.pad(`property_name_${index}`);
    const source = node.pad(`property_value_${index}_source`);
    return { index, value, name: name instanceof PropertySinkPad ? name : undefined, source: source instanceof PropertySourcePad ? source : undefined };
  });
  const warnedNames = new Set<string>();
  let renderProblem = '';
  /** Logs a render problem once, until a render succeeds. */
  const renderFailed = (message: string): void => {
    if (message !== renderProblem) node.log('warning', message, 'jinja_template');
    renderProblem = message;
  };

  const context = (): Record<string, unknown> => {
    const entries: [string, unknown][] = [];
    for (const property of properties) {
      const given = property.name?.value;
      const name = typeof given === 'string' && given.trim() !== '' ? given.trim() : `property_${property.index}`;
      if (!isAllowedTemplateName(name)) {
        if (!warnedNames.has(name))
          node.log('warning', `property name ${describeValue(name)} is reserved: not given to the template`, `property_name_${property.index}`);
        warnedNames.add(name);
        continue;
      }
      const value = property.value.value;
      if (value !== null && value !== undefined) entries.push([name, value]);
    }
    return Object.fromEntries(entries);
  };

  /** Renders; pushes the text when `always` or when it differs from the output held. */
  const render = (always: boolean): void => {
    const source = template.value;
    if (typeof source !== 'string') {
      renderFailed(`jinja_template ${describeValue(source)} is not a text`);
      return;
    }
    const result = renderer.render(source, context());
    if (!result.ok) {
      renderFailed(`cannot render the template: ${result.reason}`);
      return;
    }
    renderProblem = '';
    if (always || result.text !== output.value) output.push(result.text);
  };

  const listeners = [
    template.onValue(() => render(true)),
    ...properties.flatMap((property) => [
      ...(property.name ? [property.name.onValue(() => render(true))] : []),
      property.value.onValue((value) => {
        render(true);
        property.source?.push(value);
      }),
    ]),
  ];
  // At start, outputs are pushed only when they differ from what the graph stored: a stateless sink linked
  // to `rendered_output` (a TTS) should not receive the text again at start.
  render(false);
  for (const property of properties) if (property.source && property.source.value !== property.value.value) property.source.push(property.value.value);
  await holdUntilAborted(signal, listeners);
};
