import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { holdValues } from './value-holder.js';

/** A whole number, or undefined; numbers with a fraction are rounded. */
function integerOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : undefined;
}

/** Integer: holds a whole number; `set`, `increment`, `decrement` change it (`changed` tells), `emit` re-sends it. */
export const integerNode: NodeImplementation = async (node, signal) => {
  const { holder, listeners } = holdValues(node, { accept: integerOf, fallback: 0, typeName: 'a number' });
  const step = (delta: number) => () => holder.set((integerOf(holder.current()) ?? 0) + delta);
  listeners.push(node.sink('increment').onValue(step(1)), node.sink('decrement').onValue(step(-1)));
  await holdUntilAborted(signal, listeners);
};
