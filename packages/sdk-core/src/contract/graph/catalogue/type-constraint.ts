import type { GraphNode } from '../graph-document.js';
import { pad, t, type NodeSpec, type PadSpec } from '../node-spec.js';
import type { PadConstraint } from '../pad-constraints.js';
import { storedAsProperty, storedValue, withKind } from './stored-pads.js';

/** The types TypeConstraint can pin, with the value its property pads start with. */
const PINNED_TYPES: Record<string, { constraint: PadConstraint; initial: unknown }> = {
  string: { constraint: t.string(), initial: '' },
  integer: { constraint: t.integer(), initial: 0 },
  float: { constraint: t.float(), initial: 0 },
  boolean: { constraint: t.boolean(), initial: false },
  trigger: { constraint: t.trigger(), initial: null },
};

export const TYPE_CONSTRAINT_TYPES = Object.keys(PINNED_TYPES);

/**
 * `sink` and `source` take the type `type_selector` names; both are property pads when the stored sink is
 * one (a property feeds it: the editor swaps the pads then), stateless otherwise.
 */
function resolveTypeConstraintPads(node: GraphNode, pads: PadSpec[]): PadSpec[] {
  const selected = storedValue(node, 'type_selector');
  const pinned = PINNED_TYPES[typeof selected === 'string' && Object.hasOwn(PINNED_TYPES, selected) ? selected : 'string']!;
  const property = storedAsProperty(node, 'sink');
  return pads.map((spec) => (spec.id === 'type_selector' ? spec : withKind({ ...spec, types: [pinned.constraint] }, property, pinned.initial)));
}

export const typeConstraintNode: NodeSpec = {
  type: 'TypeConstraint',
  description:
    'Passes what reaches `sink` on to `source` unchanged, both pinned to the type `type_selector` names (string, integer, float, boolean or trigger). Fed by a property pad, `sink` and `source` are property pads (the value follows); otherwise stateless.',
  category: { primary: 'core', secondary: 'utility', tags: [] },
  pads: [pad.sink('sink', [t.string()]), pad.source('source', [t.string()]), pad.propertySink('type_selector', [t.enumOf(TYPE_CONSTRAINT_TYPES)], 'string')],
  resolvePads: resolveTypeConstraintPads,
};
