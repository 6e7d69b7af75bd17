import type { PadConstraint, PadConstraints } from '../../../contract/graph/pad-constraints.js';
import { GraphContextMessage, ContextMessageRoleName, isTrigger } from '../../../contract/graph/pad-values.js';

function fitsOne(value: unknown, constraint: PadConstraint): boolean {
  switch (constraint.type) {
    case 'string':
      return (
        typeof value === 'string' &&
        (constraint.max_length == null || value.length <= constraint.max_length) &&
        (constraint.min_length == null || value.length >= constraint.min_length)
      );
    case 'enum':
      return typeof value === 'string' && (!constraint.options || constraint.options.length === 0 || constraint.options.includes(value));
    case 'secret':
    case 'node_reference':
      return typeof value === 'string';
    case 'integer':
    case 'float':
      return (
        typeof value === 'number' &&
        Number.isFinite(value) &&
        (constraint.type === 'float' || Number.isInteger(value)) &&
        (constraint.minimum == null || value >= constraint.minimum) &&
        (constraint.maximum == null || value <= constraint.maximum)
      );
    case 'boolean':
      return typeof value === 'boolean';
    case 'trigger':
      return true;
    case 'context_message_role':
      return ContextMessageRoleName.safeParse(value).success;
    case 'context_message':
      return GraphContextMessage.safeParse(value).success;
    case 'list':
      return (
        Array.isArray(value) &&
        (constraint.max_length == null || value.length <= constraint.max_length) &&
        value.every((item) => padValueFits(item, constraint.item_type_constraints ?? null))
      );
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    default:
      // Media, streams and clips are produced by nodes, never given as values.
      return false;
  }
}

/**
 * Whether a plain value (see `plainPadValue`) fits a pad's constraints: null (no value) always does, a
 * trigger fits trigger pads, an integer fits float pads.
 */
export function padValueFits(value: unknown, constraints: PadConstraints): boolean {
  if (value === null || value === undefined) return true;
  if (constraints === null) return true;
  if (isTrigger(value)) return constraints.some((constraint) => constraint.type === 'trigger');
  return constraints.some((constraint) => fitsOne(value, constraint));
}
