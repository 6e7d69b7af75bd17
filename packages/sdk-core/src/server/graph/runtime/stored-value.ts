import type { PadConstraints } from '../../../contract/graph/pad-constraints.js';
import { plainPadValue } from '../../../contract/graph/pad-value-functions.js';

/**
 * The plain value a stored pad holds, or undefined for none. Editors export an untouched object or list pad
 * as `""`: that counts as no value (the default applies).
 */
export function storedPadValue(value: unknown, types: PadConstraints): unknown {
  if (value === undefined || value === null) return undefined;
  const plain = plainPadValue(value);
  if (plain === '' && types !== null && types.length > 0 && types.every((constraint) => constraint.type === 'object' || constraint.type === 'list'))
    return undefined;
  return plain;
}
