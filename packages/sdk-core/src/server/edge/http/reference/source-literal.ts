const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A string as a single-quoted JavaScript literal. */
export function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n').replace(/\r/g, '\\r')}'`;
}

/**
 * A JSON value as JavaScript source, written as people write it: unquoted keys where possible, single quotes,
 * short arrays and objects on one line, longer ones one entry per line.
 *
 * @example
 * sourceLiteral({ name: 'Ada', tags: ['a'] }); // "{ name: 'Ada', tags: ['a'] }"
 */
export function sourceLiteral(value: unknown, indent = ''): string {
  if (typeof value === 'string') return quoted(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  const inner = `${indent}  `;
  const entries = Array.isArray(value)
    ? value.map((item) => sourceLiteral(item, inner))
    : Object.entries(value as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${IDENTIFIER.test(key) ? key : quoted(key)}: ${sourceLiteral(item, inner)}`);
  const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{ ', ' }'];
  if (entries.length === 0) return Array.isArray(value) ? '[]' : '{}';
  const oneLine = `${open}${entries.join(', ')}${close}`;
  if (oneLine.length <= 72 && !oneLine.includes('\n')) return oneLine;
  return `${open.trim()}\n${entries.map((entry) => `${inner}${entry},`).join('\n')}\n${indent}${close.trim()}`;
}
