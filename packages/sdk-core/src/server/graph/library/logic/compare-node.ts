import type { NodeImplementation } from '../../runtime/graph-node.js';
import type { PropertySinkPad } from '../../runtime/pads.js';
import { holdUntilAborted } from '../utility/node-lifetime.js';
import { compareValues } from './compare-values.js';

interface Condition {
  index: string;
  a: PropertySinkPad;
  b: PropertySinkPad;
  operator: PropertySinkPad;
  /** The last problem logged for this condition, so a problem is logged once until it changes. */
  logged: string;
}

/**
 * Compare: evaluates every condition (`condition_{i}_A` `condition_{i}_operator` `condition_{i}_B`) whenever
 * an input changes; `value` is true when all hold (`mode` AND) or any holds (OR), pushed when it changes. A
 * condition whose values cannot be compared is false, and logged once until its problem changes.
 */
export const compareNode: NodeImplementation = async (node, signal) => {
  const value = node.propertySource('value');
  const mode = node.propertySink('mode');
  const conditions: Condition[] = [...node.pads.keys()]
    .map((id) => /^condition_(\d+)_A$/.exec(id)?.[1])
    .filter((index): index is string => index !== undefined)
    .sort((a, b) => Number(a) - Number(b))
    .map((index) => ({
      index,
      a: node.propertySink(`condition_${index}_A`),
      b: node.propertySink(`condition_${index}_B`),
      operator: node.propertySink(`condition_${index}_operator`),
      logged: '',
    }));

  const holds = (condition: Condition): boolean => {
    const comparison = compareValues(condition.a.value, condition.b.value, condition.operator.value);
    if (comparison.ok) {
      condition.logged = '';
      return comparison.result;
    }
    if (comparison.reason !== condition.logged) {
      condition.logged = comparison.reason;
      node.log('warning', `condition ${condition.index}: ${comparison.reason}; taken as false`, `condition_${condition.index}_operator`);
    }
    return false;
  };

  const evaluate = (): void => {
    let anyMode = mode.value === 'OR';
    if (mode.value !== 'AND' && mode.value !== 'OR') {
      node.log('warning', `unknown mode ${JSON.stringify(mode.value)}: using AND`, 'mode');
      anyMode = false;
    }
    const results = conditions.map(holds);
    const result = anyMode ? results.some(Boolean) : results.every(Boolean);
    if (result !== value.value) value.push(result);
  };

  const listeners = [mode, ...conditions.flatMap((condition) => [condition.a, condition.b, condition.operator])].map((pad) => pad.onValue(evaluate));
  evaluate();
  await holdUntilAborted(signal, listeners);
};
