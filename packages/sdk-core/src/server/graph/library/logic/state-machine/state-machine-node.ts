import { ANY_STATE, entryState, stateMachineConfiguration } from '../../../../../contract/graph/catalogue/state-machine.js';
import type { NodeImplementation, RuntimeNode } from '../../../runtime/graph-node.js';
import { PropertySinkPad, StatelessSinkPad } from '../../../runtime/pads.js';
import { holdUntilAborted } from '../../utility/node-lifetime.js';
import { conditionHolds, type ParameterView } from './conditions.js';

/** The parameters as they stand: names from `parameter_name_{i}`, values from `parameter_value_{i}`. */
function parameterView(node: RuntimeNode, fired: ReadonlySet<string>): ParameterView {
  const values = new Map<string, unknown>();
  const triggers = new Set<string>();
  for (const namePad of node.numbered('parameter_name_', PropertySinkPad)) {
    const name = namePad.value;
    const valuePad = node.pad(namePad.id.replace('parameter_name_', 'parameter_value_'));
    if (typeof name !== 'string' || name === '' || !valuePad) continue;
    if (valuePad instanceof PropertySinkPad) values.set(name, valuePad.value);
    else triggers.add(name);
  }
  return { values, triggers, fired };
}

/** Both state pads (and the property sinks they feed) hold the entry state's name when they hold no state's. */
function startInEntryState(node: RuntimeNode): void {
  const configuration = stateMachineConfiguration(node.value('configuration'));
  const entry = entryState(configuration)?.name ?? '';
  for (const pad of [node.propertySource('current_state'), node.propertySource('previous_state')]) {
    if (configuration.states.some((state) => state.name === pad.value)) continue;
    pad.value = entry;
    for (const sink of pad.next) if (sink instanceof PropertySinkPad) sink.value = entry;
  }
}

/**
 * StateMachine: at the start and on every parameter value, follows the first transition that holds (those
 * from `__ANY__` first, then the current state's, in configuration order): `previous_state` takes the state
 * left, `current_state` the state entered. Triggers fired by one event (values arriving together, before
 * the event loop turns) count together, then are forgotten.
 */
export const stateMachineNode: NodeImplementation = async (node, signal) => {
  const current = node.propertySource('current_state');
  const previous = node.propertySource('previous_state');
  const fired = new Set<string>();
  const check = (fromAny: boolean): void => {
    const configuration = stateMachineConfiguration(node.value('configuration'));
    const state = configuration.states.find((candidate) => candidate.name === current.value) ?? entryState(configuration);
    if (!state) return;
    const parameters = parameterView(node, fired);
    const transition = configuration.transitions.find(
      (candidate) =>
        ((fromAny && candidate.from_state === ANY_STATE) || candidate.from_state === state.id) &&
        candidate.conditions.every((condition) => conditionHolds(condition, parameters)),
    );
    const next = transition && configuration.states.find((candidate) => candidate.id === transition.to_state);
    if (!next) return;
    node.log('info', `transition from '${state.name}' to '${next.name}'`);
    previous.push(state.name);
    current.push(next.name);
  };
  const onParameter = (name: () => unknown, trigger: boolean) => () => {
    if (trigger && typeof name() === 'string') {
      if (fired.size === 0) queueMicrotask(() => fired.clear());
      fired.add(name() as string);
    }
    check(true);
  };
  startInEntryState(node);
  check(false);
  const listeners = node.numbered('parameter_name_', PropertySinkPad).flatMap((namePad) => {
    const valuePad = node.pad(namePad.id.replace('parameter_name_', 'parameter_value_'));
    return valuePad ? [valuePad.onValue(onParameter(() => namePad.value, valuePad instanceof StatelessSinkPad))] : [];
  });
  await holdUntilAborted(signal, listeners);
};
