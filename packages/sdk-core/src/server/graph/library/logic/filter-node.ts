import type { NodeImplementation } from '../../runtime/graph-node.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { compareValues } from './compare-values.js';

/**
 * Filter: each value on `sink` leaves on `source` when `value operator compare_value` holds; the others are
 * dropped. A value that cannot be compared is dropped and logged (once until the problem changes).
 */
export const filterNode: NodeImplementation = async (node, signal) => {
  const operator = node.propertySink('operator');
  const compareValue = node.propertySink('compare_value');
  const source = node.source('source');
  let logged = '';
  await holdUntilAborted(signal, [
    node.sink('sink').onValue((value) => {
      const comparison = compareValues(value, compareValue.value, operator.value);
      if (!comparison.ok) {
        if (comparison.reason !== logged) node.log('warning', `dropped a value: ${comparison.reason}`, 'sink');
        logged = comparison.reason;
        return;
      }
      logged = '';
      if (comparison.result) source.push(value);
    }),
  ]);
};
