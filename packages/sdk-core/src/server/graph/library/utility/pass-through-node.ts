import type { NodeImplementation } from '../../runtime/graph-node.js';
import { PropertySinkPad, PropertySourcePad, StatelessSinkPad, StatelessSourcePad } from '../../runtime/pads.js';
import { holdUntilAborted } from './node-lifetime.js';

/**
 * Noop and TypeConstraint: what reaches `sink` leaves `source` unchanged. As property pads (fed by a
 * property) `source` holds `sink`'s value from the start and follows each change.
 */
export const passThroughNode: NodeImplementation = async (node, signal) => {
  const sink = node.pad('sink');
  const source = node.pad('source');
  if (sink instanceof PropertySinkPad && source instanceof PropertySourcePad) {
    if (sink.value !== null && sink.value !== source.value) source.push(sink.value);
    await holdUntilAborted(signal, [sink.onValue((value) => source.push(value))]);
    return;
  }
  if (!(sink instanceof StatelessSinkPad) || !(source instanceof StatelessSourcePad)) {
    throw new Error('`sink` and `source` must both be property pads or both stateless');
  }
  await holdUntilAborted(signal, [sink.onValue((value) => source.push(value))]);
};
