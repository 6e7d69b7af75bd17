import { SECRET_NAME_PATTERN } from '../../../contract/secrets.js';

/** `{{secret:NAME}}` (spaces allowed inside the braces). */
const REFERENCE = /\{\{\s*secret:([^}]*?)\s*\}\}/g;

/**
 * The secret names a header value references, in order.
 * Throws a `TypeError` naming the reference when one is not a valid secret name.
 *
 * @example
 * secretReferences('Bearer {{secret:OPENAI_KEY}}') // ['OPENAI_KEY']
 */
export function secretReferences(value: string): string[] {
  const names: string[] = [];
  for (const match of value.matchAll(REFERENCE)) {
    const name = match[1]!;
    if (!SECRET_NAME_PATTERN.test(name)) throw new TypeError(`'{{secret:${name}}}' does not name a valid secret`);
    names.push(name);
  }
  return names;
}

/**
 * Replaces every `{{secret:NAME}}` with `values.get(NAME)`. Done once, in a single pass, so a secret
 * value that itself contains `{{secret:...}}` is never expanded again.
 */
export function substituteSecrets(value: string, values: ReadonlyMap<string, string>): string {
  return value.replace(REFERENCE, (reference, name: string) => values.get(name) ?? reference);
}
