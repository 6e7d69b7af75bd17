import { monotonicFactory } from 'ulid';

const nextUlid = monotonicFactory();

/**
 * A new identifier: a readable prefix and a ULID, so ids sort by creation time.
 * @example newId('persona') // 'persona_01JD3...'
 */
export function newId(prefix: string): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}

/** Current time as the ISO string the store uses. */
export function nowIso(): string {
  return new Date().toISOString();
}
