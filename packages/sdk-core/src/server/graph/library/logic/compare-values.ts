import { COMPARISON_OPERATORS, type ComparisonOperator } from '../../../../contract/graph/catalogue/logic.js';
import { describeValue } from '../utility/node-lifetime.js';

/** The outcome of one comparison: its result, or why the values cannot be compared. */
export type Comparison = { ok: true; result: boolean } | { ok: false; reason: string };

type Comparable = string | number | boolean;

function isComparisonOperator(operator: unknown): operator is ComparisonOperator {
  return typeof operator === 'string' && (COMPARISON_OPERATORS as readonly string[]).includes(operator);
}

function kindOf(value: unknown): 'string' | 'number' | 'boolean' | undefined {
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value as 'string' | 'boolean';
  if (typeof value === 'number' && Number.isFinite(value)) return 'number';
  return undefined;
}

/**
 * `text` read as the other side's kind (a number or boolean held as text, as stored graphs often do), or
 * undefined when it does not read as one.
 */
function readAs(text: string, kind: 'number' | 'boolean'): Comparable | undefined {
  const trimmed = text.trim();
  if (kind === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : undefined;
  const number = trimmed === '' ? Number.NaN : Number(trimmed);
  return Number.isFinite(number) ? number : undefined;
}

/** Both values of one kind, or why not. */
function align(a: unknown, b: unknown): { a: Comparable; b: Comparable } | { reason: string } {
  const kindA = kindOf(a);
  const kindB = kindOf(b);
  if (kindA === undefined || kindB === undefined) return { reason: `cannot compare ${describeValue(a)} with ${describeValue(b)}` };
  if (kindA === kindB) return { a: a as Comparable, b: b as Comparable };
  if (kindA === 'string' && kindB !== 'string') {
    const read = readAs(a as string, kindB);
    if (read !== undefined) return { a: read, b: b as Comparable };
  }
  if (kindB === 'string' && kindA !== 'string') {
    const read = readAs(b as string, kindA);
    if (read !== undefined) return { a: a as Comparable, b: read };
  }
  return { reason: `cannot compare ${describeValue(a)} (${kindA}) with ${describeValue(b)} (${kindB})` };
}

/**
 * Compares `a` with `b` by `operator`: `==` and `!=` for texts, numbers and booleans, `<`, `>`, `<=`, `>=`
 * for numbers, `CONTAINS`, `NOT_CONTAINS`, `STARTS_WITH`, `ENDS_WITH` for texts (is `b` in `a`...). A
 * number or boolean written as text compares with a number or boolean. Anything else is not comparable.
 *
 * @example
 * compareValues('hello world', 'world', 'CONTAINS'); // { ok: true, result: true }
 * compareValues(3, '10', '<'); // { ok: true, result: true }
 */
export function compareValues(a: unknown, b: unknown, operator: unknown): Comparison {
  if (!isComparisonOperator(operator)) return { ok: false, reason: `unknown operator ${describeValue(operator)}` };
  const aligned = align(a, b);
  if ('reason' in aligned) return { ok: false, reason: aligned.reason };
  const { a: left, b: right } = aligned;
  switch (operator) {
    case '==':
      return { ok: true, result: left === right };
    case '!=':
      return { ok: true, result: left !== right };
    case '<':
    case '>':
    case '<=':
    case '>=': {
      if (typeof left !== 'number' || typeof right !== 'number')
        return { ok: false, reason: `'${operator}' compares numbers, not ${describeValue(left)} and ${describeValue(right)}` };
      const result = operator === '<' ? left < right : operator === '>' ? left > right : operator === '<=' ? left <= right : left >= right;
      return { ok: true, result };
    }
    default: {
      if (typeof left !== 'string' || typeof right !== 'string')
        return { ok: false, reason: `'${operator}' compares texts, not ${describeValue(left)} and ${describeValue(right)}` };
      if (operator === 'CONTAINS') return { ok: true, result: left.includes(right) };
      if (operator === 'NOT_CONTAINS') return { ok: true, result: !left.includes(right) };
      if (operator === 'STARTS_WITH') return { ok: true, result: left.startsWith(right) };
      return { ok: true, result: left.endsWith(right) };
    }
  }
}
