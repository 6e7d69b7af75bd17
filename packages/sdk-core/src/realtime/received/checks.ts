/**
 * The few checks the connector runs on what it receives (data packets, agent metadata) and on what an app passes it,
 * in place of the contract's zod schemas: zod (even `zod/mini`) weighed 8.4 kB gzip of the 25 kB the connector may
 * load (issue 30, decision 0119). Each check answers the value as the contract's zod schema would parse it (an object
 * copied without unknown keys, defaults filled) or throws. Shapes are typed by the contract's types, so a field added
 * to the contract does not compile here until it is checked too; `received-checks.test.ts` holds them to the schemas.
 */

/** Answers `value` as the type `T` the contract gives it, or throws. */
export type Check<T> = (value: unknown) => T;

/** One check per key of `T`, optional keys included. */
export type Shape<T> = { [K in keyof Required<T>]: Check<T[K]> };

function invalid(): never {
  throw new TypeError('not as the contract says');
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Any value, but present (zod requires a `z.unknown()` key of an object). */
export const unknown: Check<unknown> = (value) => (value === undefined ? invalid() : value);
export const boolean: Check<boolean> = (value) => (typeof value === 'boolean' ? value : invalid());

/** A string of `min` to `max` UTF-16 units (zod's length). */
export const string =
  (min = 0, max = Infinity): Check<string> =>
  (value) =>
    typeof value === 'string' && value.length >= min && value.length <= max ? value : invalid();

/** A finite number from `min` to `max`; a safe integer when `integer` (zod's `z.int()`). */
export const number =
  (min = -Infinity, max = Infinity, integer = false): Check<number> =>
  (value) =>
    typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isSafeInteger(value)) ? value : invalid();

export const int = (min?: number): Check<number> => number(min, Infinity, true);

export const literal =
  <const T extends string>(expected: T): Check<T> =>
  (value) =>
    value === expected ? expected : invalid();

/** One of the keys of `values`: written as a record so that the compiler holds it to every member of the union `T`. */
export const oneOf =
  <T extends string>(values: Record<T, 1>): Check<T> =>
  (value) =>
    typeof value === 'string' && Object.hasOwn(values, value) ? (value as T) : invalid();

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (value) =>
    value === null ? null : check(value);

export const optional =
  <T>(check: Check<T>): Check<T | undefined> =>
  (value) =>
    value === undefined ? undefined : check(value);

export const nullish = <T>(check: Check<T>): Check<T | null | undefined> => optional(nullable(check));

/** `fallback` when absent (zod's `_default`). */
export const withDefault =
  <T>(check: Check<T>, fallback: () => T): Check<T> =>
  (value) =>
    value === undefined ? fallback() : check(value);

export const array =
  <T>(check: Check<T>): Check<T[]> =>
  (value) =>
    Array.isArray(value) ? value.map(check) : invalid();

export const record: Check<Record<string, unknown>> = (value) => (isRecord(value) ? { ...value } : invalid());

/** Anything `accept` accepts, as is (zod's `z.custom`). */
export const custom =
  <T>(accept: (value: unknown) => boolean): Check<T> =>
  (value) =>
    accept(value) ? (value as T) : invalid();

/** The first of `checks` that accepts the value (zod's `union`). */
export const union =
  <T>(...checks: Check<T>[]): Check<T> =>
  (value) => {
    for (const check of checks) {
      const checked = parseWith(check, value);
      if (checked !== undefined) return checked;
    }
    return invalid();
  };

/** An object with the keys of `shape`, checked; unknown keys are dropped, or kept when `loose` (zod's `looseObject`). */
export function object<T>(shape: Shape<T>, loose = false): Check<T> {
  return (value) => {
    if (!isRecord(value)) invalid();
    const parsed: Record<string, unknown> = loose ? { ...value } : {};
    for (const key in shape) {
      const checked = shape[key](value[key]);
      if (checked !== undefined) parsed[key] = checked;
    }
    return parsed as T;
  };
}

/** A union tagged by `type`: the check of the member its tag names (zod's `discriminatedUnion`). */
export function tagged<T extends { type: string }>(members: { [Tag in T['type']]: Check<Extract<T, { type: Tag }>> }): Check<T> {
  return (value) => {
    const tag = isRecord(value) ? value.type : undefined;
    return typeof tag === 'string' && Object.hasOwn(members, tag) ? members[tag as T['type']](value) : invalid();
  };
}

/** Parses with `check`: undefined when the value is not as the contract says. */
export function parseWith<T>(check: Check<T>, value: unknown): T | undefined {
  try {
    return check(value);
  } catch {
    return undefined;
  }
}
