import type { StateMachineConfiguration } from '../../../../../contract/graph/catalogue/state-machine.js';

type Condition = StateMachineConfiguration['transitions'][number]['conditions'][number];

/** The parameters a check sees: property values by name, and the trigger parameters fired in this event. */
export interface ParameterView {
  values: ReadonlyMap<string, unknown>;
  triggers: ReadonlySet<string>;
  fired: ReadonlySet<string>;
}

function numberHolds(operator: Condition['operator'], value: number, wanted: unknown): boolean {
  if (typeof wanted !== 'number') return false;
  switch (operator) {
    case '<':
      return value < wanted;
    case '<=':
      return value <= wanted;
    case '==':
      return value === wanted;
    case '!=':
      return value !== wanted;
    case '>=':
      return value >= wanted;
    case '>':
      return value > wanted;
    default:
      return false;
  }
}

function textHolds(operator: Condition['operator'], value: string, wanted: unknown): boolean {
  if (operator === 'EMPTY') return value === '';
  if (operator === 'NON_EMPTY') return value !== '';
  if (typeof wanted !== 'string') return false;
  switch (operator) {
    case '==':
      return value === wanted;
    case '!=':
      return value !== wanted;
    case 'STARTS_WITH':
      return value.startsWith(wanted);
    case 'ENDS_WITH':
      return value.endsWith(wanted);
    case 'CONTAINS':
      return value.includes(wanted);
    default:
      return false;
  }
}

/**
 * Whether one condition holds: a trigger parameter when it fired in this event, a boolean by `TRUE` or
 * `FALSE`, a number by the orderings against a number, a text by the text operators against a text. A
 * condition on a parameter no pad names, or one without a value yet, does not hold.
 */
export function conditionHolds(condition: Condition, parameters: ParameterView): boolean {
  const name = condition.parameter_name;
  if (!name) return false;
  if (parameters.triggers.has(name)) return parameters.fired.has(name);
  const value = parameters.values.get(name);
  if (typeof value === 'boolean') return condition.operator === 'TRUE' ? value : condition.operator === 'FALSE' ? !value : false;
  if (typeof value === 'number') return numberHolds(condition.operator ?? '==', value, condition.value);
  if (typeof value === 'string') return textHolds(condition.operator ?? '==', value, condition.value);
  return false;
}
