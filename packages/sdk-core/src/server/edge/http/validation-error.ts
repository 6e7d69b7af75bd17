import type { z } from 'zod';
import { BadRequestError } from '../../../errors/api-error.js';

/** Where an invalid value was found. */
export type InputLocation = 'body' | 'query' | 'path' | 'header';

function describePath(path: readonly PropertyKey[]): string {
  return path.map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index === 0 ? '' : '.'}${String(key)}`)).join('');
}

/**
 * A 400 `invalid_input` naming each offending field, e.g.
 * `Invalid body: name: expected string, received undefined`.
 */
export function invalidInput(location: InputLocation, error: z.ZodError): BadRequestError {
  const problems = error.issues.slice(0, 5).map((issue) => {
    // An unknown field is named as a field (`max_output_tokens: ...`), as every other problem is.
    if (issue.code === 'unrecognized_keys') {
      return issue.keys
        .map((key) => `${describePath([...issue.path, key])}: is not a field of this request (unknown fields are refused, never dropped)`)
        .join('; ');
    }
    const field = describePath(issue.path);
    const message = issue.message.replace(/^Invalid input: /, '');
    return field ? `${field}: ${message}` : message;
  });
  const more = error.issues.length > 5 ? ` (and ${error.issues.length - 5} more)` : '';
  return new BadRequestError(`Invalid ${location}: ${problems.join('; ')}${more}`);
}
