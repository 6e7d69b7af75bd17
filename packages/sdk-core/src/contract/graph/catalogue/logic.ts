import { pad, t, type NodeCategory, type NodeSpec } from '../node-spec.js';
import type { PadConstraint } from '../pad-constraints.js';
import { enumSwitchNodes } from './enum-switch.js';
import { stateMachineNode } from './state-machine.js';

const logic = (tag: string): NodeCategory => ({ primary: 'core', secondary: 'logic', tags: [tag] });

/**
 * Operators of Compare and Filter: `==` and `!=` for every type, the orderings for numbers, the text tests
 * for texts.
 */
export const COMPARISON_OPERATORS = ['==', '!=', '<', '>', '<=', '>=', 'CONTAINS', 'NOT_CONTAINS', 'STARTS_WITH', 'ENDS_WITH'] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** What Compare and Filter compare. */
const comparable = (): PadConstraint[] => [t.string(), t.integer(), t.float(), t.boolean(), t.enumOf()];

/** Inputs of And and Or: `input_1` .. `input_n`. */
function booleanInputs(): Pick<NodeSpec, 'pads' | 'repeated'> {
  return {
    pads: [pad.propertySink('num_inputs', [t.integer({ minimum: 2 })], 2), pad.propertySource('source', [t.boolean()], false)],
    repeated: [{ count: 'num_inputs', start: 1, min: 2, max: 32, pads: [pad.propertySink('input_{i}', [t.boolean()], false, { group: 'input' })] }],
  };
}

/** Decisions on values: gates, comparisons, boolean logic. */
export const logicNodes: NodeSpec[] = [
  {
    type: 'Gate',
    description: 'Passes what reaches `sink` on to `source` while `open` is true; drops it otherwise.',
    category: logic('gate'),
    pads: [pad.sink('sink', null), pad.propertySink('open', [t.boolean()], false), pad.source('source', null, { follows: 'sink' })],
  },
  {
    type: 'Compare',
    description:
      "Compares each condition's `A` and `B` by its operator whenever an input changes: `value` is true when all conditions hold (`mode` AND) or any does (OR).",
    category: logic('compare'),
    pads: [
      pad.propertySink('num_conditions', [t.integer({ minimum: 1 })], 1),
      pad.propertySink('mode', [t.enumOf(['AND', 'OR'])], 'AND'),
      pad.propertySource('value', [t.boolean()], false),
    ],
    repeated: [
      {
        count: 'num_conditions',
        min: 1,
        max: 32,
        pads: [
          pad.propertySink('condition_{i}_A', comparable(), '', { group: 'condition_A' }),
          pad.propertySink('condition_{i}_B', comparable(), '', { group: 'condition_B', follows: 'condition_{i}_A' }),
          pad.propertySink('condition_{i}_operator', [t.enumOf([...COMPARISON_OPERATORS])], '==', { group: 'condition_operator' }),
        ],
      },
    ],
  },
  {
    type: 'And',
    description: '`source` is true while every input (`input_1` .. `input_n`) is true.',
    category: logic('and'),
    ...booleanInputs(),
  },
  {
    type: 'Or',
    description: '`source` is true while at least one input (`input_1` .. `input_n`) is true.',
    category: logic('or'),
    ...booleanInputs(),
  },
  {
    type: 'Filter',
    description: 'Passes on the values reaching `sink` that compare true with `compare_value` by `operator`, and drops the others.',
    category: logic('filter'),
    pads: [
      pad.sink('sink', comparable()),
      pad.source('source', comparable(), { follows: 'sink' }),
      pad.propertySink('operator', [t.enumOf([...COMPARISON_OPERATORS])], '=='),
      pad.propertySink('compare_value', comparable(), '', { follows: 'sink' }),
    ],
  },
  ...enumSwitchNodes,
  stateMachineNode,
];
