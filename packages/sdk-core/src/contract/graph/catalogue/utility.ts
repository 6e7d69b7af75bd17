import { pad, t, type NodeSpec } from '../node-spec.js';
import type { PadConstraint } from '../pad-constraints.js';
import { typeConstraintNode } from './type-constraint.js';

/** What a Jinja2 property can hold. */
const templateValue = (): PadConstraint[] => [t.string(), t.integer(), t.float(), t.boolean(), t.enumOf()];

/** The template Jinja2 starts with. */
export const DEFAULT_JINJA_TEMPLATE = 'Hello, {{ property_0 }}!';

/** Plumbing between nodes: conversions, merges, templates, notes. */
export const utilityNodes: NodeSpec[] = [
  {
    type: 'AutoConvert',
    description:
      'Converts each value to the type of the sink it is linked to: anything to a trigger, messages, numbers and objects to text, text to a number, boolean or text stream.',
    category: { primary: 'core', secondary: 'utility', tags: ['convert', 'types'] },
    pads: [pad.sink('sink', null), pad.source('source', null)],
  },
  {
    type: 'Merge',
    description: 'Sends what reaches any of its `num_sinks` sinks on its one `source`, as it arrives.',
    category: { primary: 'core', secondary: 'utility', tags: ['merge', 'flow'] },
    pads: [pad.propertySink('num_sinks', [t.integer({ minimum: 1 })], 1), pad.source('source', null)],
    repeated: [{ count: 'num_sinks', min: 1, max: 32, pads: [pad.sink('sink_{i}', null, { group: 'sink', follows: 'source' })] }],
  },
  {
    type: 'Jinja2',
    description:
      'Renders the Jinja template `jinja_template` with each `property_name_{i}` set to `property_value_{i}` (an empty name is `property_{i}`) on `rendered_output`, again on every change.',
    category: { primary: 'core', secondary: 'utility', tags: ['template', 'text'] },
    pads: [
      pad.propertySink('num_properties', [t.integer({ minimum: 0 })], 1),
      pad.propertySink('jinja_template', [t.string()], DEFAULT_JINJA_TEMPLATE),
      pad.propertySource('rendered_output', [t.string()], ''),
    ],
    repeated: [
      {
        count: 'num_properties',
        min: 0,
        max: 32,
        pads: [
          pad.propertySink('property_name_{i}', [t.string()], '', { group: 'property_name' }),
          pad.propertySink('property_value_{i}', templateValue(), '', { group: 'property_value' }),
          pad.propertySource('property_value_{i}_source', templateValue(), '', { group: 'property_value_source', follows: 'property_value_{i}' }),
        ],
      },
    ],
  },
  {
    type: 'Noop',
    description: 'Passes what reaches `sink` on to `source` unchanged (a junction in the graph); both take the type of what they are linked to.',
    category: { primary: 'core', secondary: 'utility', tags: [] },
    pads: [pad.sink('sink', null, { follows: 'source' }), pad.source('source', null, { follows: 'sink' })],
  },
  typeConstraintNode,
  {
    type: 'Entry',
    description:
      'Fires `trigger` once, 0.5 s after the run starts (clients have joined by then): link it to start something, such as the agent speaking first.',
    category: { primary: 'core', secondary: 'utility', tags: ['trigger', 'start'] },
    pads: [pad.source('trigger', [t.trigger()])],
  },
  {
    type: 'Comment',
    description: 'A note on the graph (Markdown); it does nothing.',
    category: { primary: 'core', secondary: 'utility', tags: ['documentation', 'comment'] },
    pads: [pad.propertySink('text', [t.string()], ''), pad.propertySink('width', [t.integer({ minimum: 160, maximum: 1600 })], 480, { group: 'layout' })],
  },
];
