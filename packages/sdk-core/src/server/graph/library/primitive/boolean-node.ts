import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { holdValues } from './value-holder.js';

/** Boolean: holds true or false; `set` stores, `toggle` flips (`changed` tells each change), `emit` re-sends. */
export const booleanNode: NodeImplementation = async (node, signal) => {
  const { holder, listeners } = holdValues(node, {
    accept: (value) => (typeof value === 'boolean' ? value : undefined),
    fallback: true,
    typeName: 'true or false',
  });
  listeners.push(node.sink('toggle').onValue(() => holder.set(holder.current() !== true)));
  await holdUntilAborted(signal, listeners);
};
