import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';

/** An object a graph may hold: a JSON text of one (as some exported graphs store it) is read. */
function objectOf(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Json: holds an object on `value`; `emit` re-sends it. */
export const jsonNode: NodeImplementation = async (node, signal) => {
  const value = node.propertySource('value');
  const held = objectOf(value.value);
  if (held === undefined) node.log('warning', 'the stored value is not a JSON object: holding {}', 'value');
  if (held !== value.value) value.push(held ?? {});
  await holdUntilAborted(signal, [node.sink('emit').onValue(() => value.push(value.value))]);
};
