/**
 * Finds assertions on wall-clock figures in test sources: an elapsed time, a latency or a duration measured
 * with the clock compared with `toBeLessThan` / `toBeGreaterThan` (`OrEqual`), `toBeCloseTo` a number, or inside an
 * `expect(a < b).toBe(true)`. Tests assert behaviour (what happened, in which order); figures belong in `pnpm bench`.
 *
 * What counts as measured, per file (string literals and comments are left out):
 * - a clock read minus something: `performance.now() - started`, `Date.now() - before`;
 * - the difference of two instants: `heardAt - sentAt`, `events[6].at - events[1].at`, `Date.parse(b) - Date.parse(a)`,
 *   where an instant is a clock read, `Date.parse(...)`, `.getTime()`, a name or property `at` / `...At`, or a
 *   variable assigned a clock read (`const started = performance.now()`);
 * - a variable or object property assigned such a difference, or anything computed from one
 *   (`const elapsed = ...`, `{ ms: performance.now() - started }`, `const seconds = elapsed / 1000`);
 * - names that say so: `elapsed...`, `...latency...`, `took`, and the figures the platform measures per turn
 *   (`responseMs`, `endOfSpeechDecisionMs`, `sttFinalMs`, `llmFirstTokenMs`, `ttsFirstAudioMs`, `endAfterSpeechMs`,
 *   `endToEnd...`).
 * Flagged when such a value meets a figure in the comparison: a number other than 0, or a constant (`..._MS`).
 * Not flagged: an order of instants (`expect(a.at).toBeLessThan(b.at)`), a measured value compared with 0 (it is
 * positive) or with another measurement of the same interval (`recorded <= observed`), values that are not measured
 * (a policy's chosen wait, an amount of audio), deadlines for waiting.
 */

export interface TimedAssertion {
  file: string;
  /** 1-based line of the `expect(`. */
  line: number;
  /** The assertion as written, on one line. */
  text: string;
  /** What made it timed. */
  reason: string;
}

const IDENTIFIER = /[A-Za-z_$][\w$]*/;
const CLOCK_READ = /(?:\bperformance\s*\.\s*now|\bDate\s*\.\s*now|\bprocess\s*\.\s*hrtime(?:\s*\.\s*bigint)?)\s*\(\s*\)/;
const MEASURED_NAME =
  /^(?:elapsed\w*|\w*Elapsed\w*|\w*[Ll]atenc(?:y|ies)\w*|took|\w*responseMs|\w*DecisionMs|\w*sttFinalMs|\w*FirstTokenMs|\w*FirstAudioMs|\w*AfterSpeechMs|\w*[Ee]ndToEnd\w*)$/;
const ORDER_MATCHERS = new Set(['toBeLessThan', 'toBeLessThanOrEqual', 'toBeGreaterThan', 'toBeGreaterThanOrEqual']);
const TRUTH_MATCHERS = new Set(['toBe', 'toEqual', 'toStrictEqual', 'toBeTruthy', 'toBeFalsy']);
/** Characters after which a `/` starts a regular expression rather than a division. */
const REGEX_PRECEDERS = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

/**
 * The source with the contents of string, template and regular expression literals and of comments replaced
 * by spaces (line breaks kept), so positions and lines stay those of the source.
 */
export function maskLiterals(source: string): string {
  const out = source.split('');
  const blank = (from: number, to: number) => {
    for (let index = from; index < to; index += 1) if (out[index] !== '\n') out[index] = ' ';
  };
  let previous = '';
  let index = 0;
  while (index < source.length) {
    const char = source[index]!;
    const next = source[index + 1];
    if (char === '/' && next === '/') {
      const end = source.indexOf('\n', index);
      const stop = end === -1 ? source.length : end;
      blank(index, stop);
      index = stop;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = source.indexOf('*/', index + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(index, stop);
      index = stop;
      continue;
    }
    if (char === "'" || char === '"' || char === '`') {
      let cursor = index + 1;
      while (cursor < source.length && source[cursor] !== char) {
        if (source[cursor] === '\\') cursor += 1;
        else if (char !== '`' && source[cursor] === '\n') break;
        cursor += 1;
      }
      blank(index + 1, cursor);
      index = cursor + 1;
      previous = char;
      continue;
    }
    if (char === '/' && (REGEX_PRECEDERS.has(previous) || /\breturn$/.test(source.slice(Math.max(0, index - 8), index).trimEnd()))) {
      let cursor = index + 1;
      let inClass = false;
      while (cursor < source.length && source[cursor] !== '\n' && (inClass || source[cursor] !== '/')) {
        if (source[cursor] === '\\') cursor += 1;
        else if (source[cursor] === '[') inClass = true;
        else if (source[cursor] === ']') inClass = false;
        cursor += 1;
      }
      blank(index + 1, cursor);
      index = cursor + 1;
      while (index < source.length && /[a-z]/.test(source[index]!)) index += 1;
      previous = '/';
      continue;
    }
    if (!/\s/.test(char)) previous = char;
    index += 1;
  }
  return out.join('');
}

/** The index just past the bracket closing the one at `open` (`(`, `[` or `{`), in masked code. */
function closingOf(code: string, open: number): number {
  let depth = 0;
  for (let index = open; index < code.length; index += 1) {
    const char = code[index]!;
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return code.length;
}

/** Splits masked code at the commas outside brackets. */
function topLevelParts(code: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < code.length; index += 1) {
    const char = code[index]!;
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') depth -= 1;
    else if (char === ',' && depth === 0) {
      parts.push(code.slice(start, index));
      start = index + 1;
    }
  }
  parts.push(code.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** Where the expression starting at `from` ends: a `;`, or a `,` / closing bracket / line break outside brackets. */
function expressionEnd(code: string, from: number, stopAtComma: boolean): number {
  let depth = 0;
  for (let index = from; index < code.length; index += 1) {
    const char = code[index]!;
    if (char === '(' || char === '[' || char === '{') depth += 1;
    else if (char === ')' || char === ']' || char === '}') {
      if (depth === 0) return index;
      depth -= 1;
    } else if (depth === 0 && (char === ';' || (stopAtComma && char === ','))) return index;
    else if (depth === 0 && char === '\n' && !/^\s*[.?:+\-*/|&]/.test(code.slice(index + 1, index + 80)) && !/[=+\-*/|&?:,(]\s*$/.test(code.slice(from, index)))
      return index;
  }
  return code.length;
}

/** The operand ending just before `position` (`a.b[1]!.at`, `f(x)`, `(x - y)`), or undefined. */
function operandBefore(code: string, position: number): string | undefined {
  let end = position;
  while (end > 0 && /\s/.test(code[end - 1]!)) end -= 1;
  let start = end;
  for (;;) {
    while (start > 0 && code[start - 1] === '!') start -= 1;
    const char = code[start - 1];
    if (char === ')' || char === ']') {
      // A call, an index or parentheses: what comes before them belongs to the operand too.
      let depth = 0;
      let cursor = start - 1;
      for (; cursor >= 0; cursor -= 1) {
        if (code[cursor] === ')' || code[cursor] === ']') depth += 1;
        else if (code[cursor] === '(' || code[cursor] === '[') {
          depth -= 1;
          if (depth === 0) break;
        }
      }
      start = Math.max(cursor, 0);
      continue;
    }
    if (char === undefined || !/[\w$]/.test(char)) break;
    while (start > 0 && /[\w$]/.test(code[start - 1]!)) start -= 1;
    let dot = start;
    while (dot > 0 && /\s/.test(code[dot - 1]!)) dot -= 1;
    if (code[dot - 1] === '.' && code[dot - 2] === '?') start = dot - 2;
    else if (code[dot - 1] === '.' && code[dot - 2] !== '.') start = dot - 1;
    else break;
  }
  const operand = code.slice(start, end).trim();
  return operand === '' ? undefined : operand;
}

/** The operand starting just after `position`. */
function operandAfter(code: string, position: number): string | undefined {
  let start = position;
  while (start < code.length && /\s/.test(code[start]!)) start += 1;
  let end = start;
  for (;;) {
    const char = code[end];
    if (char === '(' || char === '[') end = closingOf(code, end);
    else if (char !== undefined && /[\w$.!?]/.test(char)) end += 1;
    else break;
  }
  const operand = code.slice(start, end).trim();
  return operand === '' ? undefined : operand;
}

/** What the analysis knows about one file's names. */
interface Taint {
  /** Variables holding an instant (assigned a clock read). */
  instants: Set<string>;
  /** Variables holding something measured. */
  measured: Set<string>;
  /** Object properties given something measured (`{ ms: performance.now() - started }`). */
  measuredProperties: Set<string>;
}

function lastName(operand: string): string | undefined {
  const trimmed = operand.replace(/!+$/, '');
  if (trimmed.endsWith(')') || trimmed.endsWith(']')) return undefined;
  return /([A-Za-z_$][\w$]*)$/.exec(trimmed)?.[1];
}

function isInstant(operand: string, taint: Taint): boolean {
  const bare = operand.replace(/^\(+|\)+$/g, '').trim();
  if (new RegExp(`^${CLOCK_READ.source}$`).test(bare)) return true;
  if (/^Date\s*\.\s*parse\s*\(/.test(bare) || /\.\s*getTime\s*\(\s*\)$/.test(bare)) return true;
  const name = lastName(bare);
  if (name === undefined) return false;
  if (name === 'at' || /[a-z0-9]At$/.test(name)) return true;
  return /^[A-Za-z_$][\w$]*$/.test(bare) && taint.instants.has(name);
}

/** Why `expression` holds something measured with the clock, or undefined. */
function measuredIn(expression: string, taint: Taint): string | undefined {
  for (const match of expression.matchAll(new RegExp(`${CLOCK_READ.source}\\s*-(?![-=])`, 'g'))) {
    const subtracted = operandAfter(expression, match.index + match[0].length);
    // `Date.now() - 1000` is an instant a second ago, not a time that passed.
    if (subtracted !== undefined && !/^[\d_.]+$/.test(subtracted)) return 'a clock read minus an earlier one';
  }
  for (let index = expression.indexOf('-'); index !== -1; index = expression.indexOf('-', index + 1)) {
    if (expression[index + 1] === '-' || expression[index - 1] === '-' || expression[index + 1] === '=') continue;
    const left = operandBefore(expression, index);
    const right = operandAfter(expression, index + 1);
    if (left && right && isInstant(left, taint) && isInstant(right, taint)) return `the time between two instants (${left} - ${right})`;
  }
  for (const match of expression.matchAll(new RegExp(IDENTIFIER.source, 'g'))) {
    const name = match[0];
    const before = expression.slice(0, match.index).trimEnd();
    const after = expression.slice(match.index + name.length).trimStart();
    if (/[\w$]$/.test(expression.slice(0, match.index))) continue;
    // Calls, and object keys or type annotations.
    if (after.startsWith('(') || (after.startsWith(':') && !after.startsWith('::'))) continue;
    if (before.endsWith('.')) {
      if (MEASURED_NAME.test(name) || taint.measuredProperties.has(name)) return `a measured figure (.${name})`;
    } else if (/^(?:\?\.|\.|\[)/.test(after)) {
      // Something read from a value: measured when the value says it is (`latency.textContent()`).
      if (MEASURED_NAME.test(name)) return `a measured figure (${name})`;
    } else if (MEASURED_NAME.test(name)) return `a measured figure (${name})`;
    else if (taint.measured.has(name)) return `a figure measured with the clock (${name})`;
  }
  return undefined;
}

/** Names assigned a clock read (instants) or something measured, followed through assignments. */
function taintOf(code: string): Taint {
  const taint: Taint = { instants: new Set(), measured: new Set(), measuredProperties: new Set() };
  const assignments: Array<{ name: string; expression: string; property: boolean }> = [];
  const declaration = /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=;\n]+)?=(?![=>])/g;
  const reassignment = /(?:^|[;{}])[ \t]*([A-Za-z_$][\w$]*)\s*=(?![=>])/gm;
  const property = /[{,]\s*([A-Za-z_$][\w$]*)\s*:(?!:)/g;
  for (const pattern of [declaration, reassignment]) {
    for (const match of code.matchAll(pattern)) {
      const from = match.index + match[0].length;
      assignments.push({ name: match[1]!, expression: code.slice(from, expressionEnd(code, from, false)), property: false });
    }
  }
  for (const match of code.matchAll(property)) {
    const from = match.index + match[0].length;
    assignments.push({ name: match[1]!, expression: code.slice(from, expressionEnd(code, from, true)), property: true });
  }
  for (const { name, expression, property: isProperty } of assignments) {
    if (isProperty) continue;
    if (new RegExp(`^\\s*${CLOCK_READ.source}\\s*$`).test(expression) || /^\s*Math\s*\.\s*(?:floor|round)\s*\(\s*Date\s*\.\s*now\s*\(\s*\)/.test(expression))
      taint.instants.add(name);
  }
  for (let changed = true; changed;) {
    changed = false;
    for (const { name, expression, property: isProperty } of assignments) {
      const names = isProperty ? taint.measuredProperties : taint.measured;
      if (names.has(name) || measuredIn(expression, taint) === undefined) continue;
      names.add(name);
      changed = true;
    }
  }
  return taint;
}

function lineOf(code: string, index: number): number {
  let line = 1;
  for (let cursor = 0; cursor < index; cursor += 1) if (code[cursor] === '\n') line += 1;
  return line;
}

const isNumber = (text: string) => /^-?[\d_]+(?:\.\d+)?(?:e-?\d+)?$/i.test(text.trim());

/**
 * The figure a comparison holds, if any: a number other than 0 or a constant (`HOST_LOSS_BOUND_MS`), outside call
 * arguments and indexes (`events[6]`, `at(-1)`), and not a unit's factor (`/ 1000`). A comparison of two measured
 * values without one (`recorded <= observed`) is a relation between measurements, not a limit.
 */
function figureIn(expression: string): string | undefined {
  let top = '';
  for (let index = 0; index < expression.length; index += 1) {
    const char = expression[index]!;
    const before = expression.slice(0, index).trimEnd();
    if ((char === '(' || char === '[') && /[\w$)\]!]$/.test(before)) {
      const end = closingOf(expression, index);
      top += ' '.repeat(end - index);
      index = end - 1;
    } else top += char;
  }
  for (const match of top.matchAll(/(?<![\w$.])(?:\d[\d_]*(?:\.\d+)?(?:e-?\d+)?|[A-Z][A-Z\d]*(?:_[A-Z\d]+)+)(?![\w$])/g)) {
    if (/^0(?:\.0*)?$/.test(match[0])) continue;
    if (/[*/]\s*$/.test(top.slice(0, match.index))) continue;
    return match[0];
  }
  return undefined;
}

/**
 * The timed assertions of one source file.
 *
 * @example
 * findTimedAssertions('const t = performance.now();\nexpect(performance.now() - t).toBeLessThan(500);', 'x.test.ts');
 * // [{ file: 'x.test.ts', line: 2, text: 'expect(performance.now() - t).toBeLessThan(500)', reason: 'a clock read minus an earlier one' }]
 */
export function findTimedAssertions(source: string, file = '<source>'): TimedAssertion[] {
  const code = maskLiterals(source);
  const taint = taintOf(code);
  const found: TimedAssertion[] = [];
  for (const match of code.matchAll(/\bexpect\s*(?:\.\s*soft\s*)?\(/g)) {
    const open = match.index + match[0].length - 1;
    const subjectEnd = closingOf(code, open);
    const subject = topLevelParts(code.slice(open + 1, subjectEnd - 1))[0] ?? '';
    const tail = /^\s*(?:\.\s*(?:not|resolves|rejects)\s*)*\.\s*([A-Za-z]+)\s*\(/.exec(code.slice(subjectEnd));
    if (!tail) continue;
    const matcher = tail[1]!;
    const argumentsOpen = subjectEnd + tail[0].length - 1;
    const end = closingOf(code, argumentsOpen);
    const [bound = ''] = topLevelParts(code.slice(argumentsOpen + 1, end - 1));
    let reason: string | undefined;
    if (ORDER_MATCHERS.has(matcher)) {
      const measured = measuredIn(subject, taint) ?? measuredIn(bound, taint);
      const figure = figureIn(subject) ?? figureIn(bound);
      if (measured && figure) reason = `${measured} against ${figure}`;
    } else if (matcher === 'toBeCloseTo') {
      const inSubject = measuredIn(subject, taint);
      if (inSubject && isNumber(bound)) reason = `${inSubject} against ${bound.trim()}`;
      else if (isNumber(subject) && measuredIn(bound, taint)) reason = `${measuredIn(bound, taint)} against ${subject.trim()}`;
    } else if (TRUTH_MATCHERS.has(matcher) && /(?<![=!<>])(?:<=?|>=?)(?![=>])/.test(subject.replace(/=>/g, '  '))) {
      const measured = measuredIn(subject, taint);
      const figure = figureIn(subject);
      if (measured && figure) reason = `${measured} against ${figure}`;
    }
    if (reason === undefined) continue;
    found.push({ file, line: lineOf(code, match.index), text: source.slice(match.index, end).replace(/\s+/g, ' '), reason });
  }
  return found;
}
