import type { GraphNode } from '../graph-document.js';
import { pad, t, type NodeSpec, type PadSpec } from '../node-spec.js';
import type { PadConstraint } from '../pad-constraints.js';
import { storedEnumOptions, storedPad } from './stored-pads.js';

/** What EnumSwitchProperty's inputs and output can hold. */
const SWITCHED_VALUE = (): PadConstraint[] => [t.string(), t.integer(), t.boolean(), t.float(), t.contextMessage()];

/**
 * The options of an enum switch: those its stored `sink` types name (the enum it is linked to, as the editor
 * resolved it), then those its stored option pads are named after.
 */
export function switchOptions(node: GraphNode, fixed: ReadonlySet<string>): string[] {
  const options = storedEnumOptions(storedPad(node, 'sink'));
  for (const stored of node.pads) if (!fixed.has(stored.id) && !options.includes(stored.id)) options.push(stored.id);
  return options;
}

function withOptionPads(fixed: string[], optionPad: (option: string) => PadSpec) {
  const fixedIds = new Set(fixed);
  return (node: GraphNode, pads: PadSpec[]): PadSpec[] => {
    const options = switchOptions(node, fixedIds);
    const sink = pads.find((spec) => spec.id === 'sink')!;
    const resolved = pads.map((spec) => (spec.id === 'sink' && options.length > 0 ? { ...sink, types: [t.enumOf(options)] } : spec));
    return [...resolved, ...options.map(optionPad)];
  };
}

const switchCategory = { primary: 'core', secondary: 'utility', tags: ['switch', 'enum'] };

export const enumSwitchNodes: NodeSpec[] = [
  {
    type: 'EnumSwitchTrigger',
    description:
      'Has one trigger source pad per option of the enum linked to `sink` (a pad named after each option): each value reaching `sink` fires the pad it names.',
    category: switchCategory,
    pads: [pad.sink('sink', [t.enumOf()])],
    resolvePads: withOptionPads(['sink'], (option) => pad.source(option, [t.trigger()], { group: 'value' })),
  },
  {
    type: 'EnumSwitchProperty',
    description:
      'Has one property input per option of the enum linked to `sink` (a pad named after each option, all of one type): `source` takes the value of the input `sink` names whenever `sink` changes.',
    category: switchCategory,
    pads: [pad.propertySink('sink', [t.enumOf()], null), pad.propertySource('source', SWITCHED_VALUE(), null)],
    resolvePads: withOptionPads(['sink', 'source'], (option) => pad.propertySink(option, SWITCHED_VALUE(), null, { group: 'value', follows: 'source' })),
  },
];
