import type { NodeImplementation } from '../../runtime/graph-node.js';
import { describeValue, holdUntilAborted } from '../utility/node-lifetime.js';

function isHeldType(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** Variable: `set` stores a text, number or boolean on `current_value`; `emit` sends it on `emit_source`. */
export const variableNode: NodeImplementation = async (node, signal) => {
  const current = node.propertySource('current_value');
  const listeners = [
    node.sink('set').onValue((value) => {
      if (!isHeldType(value)) {
        node.log('warning', `ignored ${describeValue(value)}: not a text, number or boolean`, 'set');
        return;
      }
      current.push(value);
    }),
    node.sink('emit').onValue(() => {
      if (current.value === null || current.value === undefined) {
        node.log('warning', 'nothing to emit: no value was set', 'emit');
        return;
      }
      node.source('emit_source').push(current.value);
    }),
  ];
  await holdUntilAborted(signal, listeners);
};
