import { BadRequestError } from '../../../errors/api-error.js';
import type { InputLocation } from './validation-error.js';

/** Deepest nesting accepted in a JSON body; deeper values could exhaust the stack when stored. */
export const MAX_JSON_DEPTH = 64;

/**
 * Rejects input no store can hold: NUL characters (PostgreSQL text refuses them) anywhere in strings or keys,
 * and JSON nested deeper than {@link MAX_JSON_DEPTH}. Walks iteratively, so hostile input cannot overflow it.
 */
export function assertStorableInput(value: unknown, location: InputLocation): void {
  const pending: Array<{ value: unknown; depth: number; path: string }> = [{ value, depth: 0, path: '' }];
  while (pending.length > 0) {
    const { value: current, depth, path } = pending.pop()!;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) throw new BadRequestError(`Invalid ${location}: ${path || 'value'}: must not contain NUL characters`);
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) throw new BadRequestError(`Invalid ${location}: ${path || 'value'}: nested deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(current)) {
      current.forEach((item, index) => pending.push({ value: item, depth: depth + 1, path: `${path}[${index}]` }));
      continue;
    }
    if (current instanceof Blob) continue;
    for (const [key, item] of Object.entries(current)) {
      if (key.includes('\u0000')) throw new BadRequestError(`Invalid ${location}: ${path || 'value'}: keys must not contain NUL characters`);
      pending.push({ value: item, depth: depth + 1, path: path ? `${path}.${key}` : key });
    }
  }
}
