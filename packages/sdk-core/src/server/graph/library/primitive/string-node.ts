import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { holdValues } from './value-holder.js';

/** String: holds a text; `set` stores one (`changed` when it differs), `emit` re-sends it. */
export const stringNode: NodeImplementation = async (node, signal) => {
  const { listeners } = holdValues(node, { accept: (value) => (typeof value === 'string' ? value : undefined), fallback: '', typeName: 'a text' });
  await holdUntilAborted(signal, listeners);
};
