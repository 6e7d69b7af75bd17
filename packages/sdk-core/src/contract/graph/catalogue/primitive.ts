import { pad, t, type NodeCategory, type NodeSpec } from '../node-spec.js';
import type { PadConstraint } from '../pad-constraints.js';

const primitive = (tag: string): NodeCategory => ({ primary: 'core', secondary: 'primitive', tags: ['storage', tag] });

/** The pads every value holder has: `set` stores, `emit` re-sends, `value` holds, `changed` tells changes. */
function holderPads(type: () => PadConstraint, initial: unknown) {
  return [pad.sink('set', [type()]), pad.sink('emit', [t.trigger()]), pad.propertySource('value', [type()], initial), pad.source('changed', [type()])];
}

/** The types a Variable holds. */
const variableTypes = (): PadConstraint[] => [t.string(), t.integer(), t.boolean(), t.float()];

/** Values a graph holds and changes while it runs. */
export const primitiveNodes: NodeSpec[] = [
  {
    type: 'String',
    description: 'Holds a text on `value`: `set` stores one (`changed` tells a change), `emit` sends it again.',
    category: primitive('string'),
    pads: holderPads(t.string, ''),
  },
  {
    type: 'Integer',
    description:
      'Holds a whole number on `value`: `set` stores one, `increment`/`decrement` add or take one (`changed` tells a change), `emit` sends it again.',
    category: primitive('integer'),
    pads: [...holderPads(t.integer, 0), pad.sink('increment', [t.trigger()]), pad.sink('decrement', [t.trigger()])],
  },
  {
    type: 'Float',
    description: 'Holds a number on `value`: `set` stores one (`changed` tells a change), `emit` sends it again.',
    category: primitive('float'),
    pads: holderPads(t.float, 0),
  },
  {
    type: 'Boolean',
    description: 'Holds true or false on `value`: `set` stores one, `toggle` flips it (`changed` tells a change), `emit` sends it again.',
    category: primitive('boolean'),
    pads: [...holderPads(t.boolean, true), pad.sink('toggle', [t.trigger()])],
  },
  {
    type: 'Json',
    description: 'Holds a JSON object on `value`; `emit` sends it again.',
    category: { primary: 'core', secondary: 'primitive', tags: ['json'] },
    pads: [pad.sink('emit', [t.trigger()]), pad.propertySource('value', [t.object()], {})],
  },
  {
    type: 'Variable',
    description: 'Holds a text, number or boolean: `set` stores it on `current_value`, `emit` sends it on `emit_source`.',
    category: primitive('variable'),
    pads: [
      pad.sink('set', variableTypes()),
      pad.sink('emit', [t.trigger()]),
      pad.propertySource('current_value', variableTypes(), null, { follows: 'set' }),
      pad.source('emit_source', variableTypes(), { follows: 'set' }),
    ],
  },
];
