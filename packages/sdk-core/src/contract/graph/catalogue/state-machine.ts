import { z } from 'zod';
import type { GraphNode } from '../graph-document.js';
import { pad, t, type NodeSpec, type PadSpec } from '../node-spec.js';
import { storedPad, storedValue } from './stored-pads.js';

/** `from_state` of a transition that applies in every state. */
export const ANY_STATE = '__ANY__';

export const STATE_MACHINE_OPERATORS = [
  '<',
  '<=',
  '==',
  '!=',
  '>=',
  '>',
  'NON_EMPTY',
  'EMPTY',
  'STARTS_WITH',
  'ENDS_WITH',
  'CONTAINS',
  'TRUE',
  'FALSE',
] as const;

const Position = z.object({ x: z.number(), y: z.number() });

/** A StateMachine's `configuration`, in the engine's shape (positions are the editor's). */
export const StateMachineConfiguration = z.object({
  states: z.array(z.object({ id: z.string().min(1), name: z.string(), position: Position.optional() })).default([]),
  transitions: z
    .array(
      z.object({
        id: z.string(),
        from_state: z.string(),
        to_state: z.string(),
        conditions: z
          .array(
            z.object({
              parameter_name: z.string().nullish(),
              operator: z.enum(STATE_MACHINE_OPERATORS).nullish(),
              value: z.unknown().optional(),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
  entry_state: z.string().nullish(),
  entry_node_position: Position.nullish(),
  special_any_state_position: Position.nullish(),
});
export type StateMachineConfiguration = z.infer<typeof StateMachineConfiguration>;

/** Why a configuration cannot run (unknown or duplicate states), or undefined. */
export function stateMachineProblem(value: unknown): string | undefined {
  const parsed = StateMachineConfiguration.safeParse(value ?? {});
  if (!parsed.success) return `not a state machine configuration: ${parsed.error.issues[0]?.path.join('.')} ${parsed.error.issues[0]?.message}`;
  const ids = new Set<string>();
  for (const state of parsed.data.states) {
    if (ids.has(state.id)) return `two states have the id '${state.id}'`;
    ids.add(state.id);
  }
  if (parsed.data.entry_state && !ids.has(parsed.data.entry_state)) return `entry_state '${parsed.data.entry_state}' is no state`;
  for (const transition of parsed.data.transitions) {
    if (transition.from_state !== ANY_STATE && !ids.has(transition.from_state))
      return `transition '${transition.id}' starts at no state ('${transition.from_state}')`;
    if (!ids.has(transition.to_state)) return `transition '${transition.id}' ends at no state ('${transition.to_state}')`;
  }
  return undefined;
}

/** The configuration, or an empty machine when it does not parse (validation reports that). */
export function stateMachineConfiguration(value: unknown): StateMachineConfiguration {
  const parsed = StateMachineConfiguration.safeParse(value ?? {});
  return parsed.success ? parsed.data : StateMachineConfiguration.parse({});
}

/** The state the machine starts in: `entry_state`, else the first state. */
export function entryState(configuration: StateMachineConfiguration): StateMachineConfiguration['states'][number] | undefined {
  return configuration.states.find((state) => state.id === configuration.entry_state) ?? configuration.states[0];
}

/** current_state/previous_state are enums of the state names; a parameter value fed by a trigger is stateless. */
function resolveStateMachinePads(node: GraphNode, pads: PadSpec[]): PadSpec[] {
  const configuration = stateMachineConfiguration(storedValue(node, 'configuration'));
  const names = configuration.states.map((state) => state.name);
  const entry = entryState(configuration)?.name ?? '';
  return pads.map((spec) => {
    // '' is no state yet (a machine without states, or a graph saved before its states were named).
    if (spec.id === 'current_state' || spec.id === 'previous_state')
      return { ...spec, types: [t.enumOf(names.length > 0 ? [...names, ''] : [])], default: entry };
    if (spec.id.startsWith('parameter_value_') && storedPad(node, spec.id)?.type === 'StatelessSinkPad') {
      return pad.sink(spec.id, [t.trigger()], { group: spec.group });
    }
    return spec;
  });
}

export const stateMachineNode: NodeSpec = {
  type: 'StateMachine',
  description:
    'States and transitions between them (`configuration`: `states` `{id, name}`, `transitions` `{from_state, to_state, conditions}`, `from_state` `__ANY__` for every state, `entry_state`). Each condition tests the parameter named by a `parameter_name_{i}` (its value on `parameter_value_{i}`: numbers by `<` .. `>`, text by `==`, `!=`, `EMPTY`, `NON_EMPTY`, `STARTS_WITH`, `ENDS_WITH`, `CONTAINS`, booleans by `TRUE`/`FALSE`, a trigger by having fired); when every condition of a transition from the current state holds, `previous_state` and `current_state` change. Checked at the start and on every parameter value.',
  category: { primary: 'core', secondary: 'logic', tags: ['state_machine', 'container'] },
  pads: [
    pad.propertySink('configuration', [t.object()], { states: [], transitions: [], entry_state: null }),
    pad.propertySink('num_parameters', [t.integer({ minimum: 0 })], 1),
    pad.propertySource('current_state', [t.enumOf([])], ''),
    pad.propertySource('previous_state', [t.enumOf([])], ''),
  ],
  repeated: [
    {
      count: 'num_parameters',
      min: 0,
      max: 64,
      pads: [
        pad.propertySink('parameter_name_{i}', [t.string()], null, { group: 'parameters' }),
        pad.propertySink('parameter_value_{i}', [t.float(), t.integer(), t.boolean(), t.trigger(), t.string()], null, { group: 'parameter_values' }),
      ],
    },
  ],
  resolvePads: resolveStateMachinePads,
};
