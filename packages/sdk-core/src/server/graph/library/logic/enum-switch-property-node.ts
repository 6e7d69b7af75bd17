import type { NodeImplementation } from '../../runtime/graph-node.js';
import { PropertySinkPad } from '../../runtime/pads.js';
import { describeValue, holdUntilAborted } from '../utility/node-lifetime.js';

/**
 * EnumSwitchProperty: `source` holds the value of the input named by `sink`, set at the start and again
 * whenever `sink` changes (as the engine does: a change of the chosen input alone does not move it).
 */
export const enumSwitchPropertyNode: NodeImplementation = async (node, signal) => {
  const sink = node.propertySink('sink');
  const source = node.propertySource('source');
  const chosen = (option: unknown): PropertySinkPad | undefined => {
    const input = typeof option === 'string' && option !== 'sink' ? node.pad(option) : undefined;
    return input instanceof PropertySinkPad ? input : undefined;
  };
  const initial = chosen(sink.value);
  if (initial && initial.value !== null) source.push(initial.value);
  await holdUntilAborted(signal, [
    sink.onValue((option) => {
      const input = chosen(option);
      if (input && input.value !== null) source.push(input.value);
      else node.log('warning', input ? `option ${describeValue(option)} has no value` : `no option ${describeValue(option)}`, 'sink');
    }),
  ]);
};
