import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { holdValues } from './value-holder.js';

/** Float: holds a number; `set` stores one (`changed` when it differs), `emit` re-sends it. */
export const floatNode: NodeImplementation = async (node, signal) => {
  const { listeners } = holdValues(node, {
    accept: (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined),
    fallback: 0,
    typeName: 'a number',
  });
  await holdUntilAborted(signal, listeners);
};
