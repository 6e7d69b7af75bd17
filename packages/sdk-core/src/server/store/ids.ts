import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

const POOL_SIZE = 4096;
const pool = new Uint8Array(POOL_SIZE);
let cursor = POOL_SIZE;

/**
 * Cryptographic randomness for ULIDs, drawn from a pooled buffer: ulid's default asks the operating system
 * for one byte per character (16 calls per id), which showed up in request profiles.
 */
function pooledRandom(): number {
  if (cursor >= POOL_SIZE) {
    randomFillSync(pool);
    cursor = 0;
  }
  return pool[cursor++]! / 256;
}

const nextUlid = monotonicFactory(pooledRandom);

/**
 * A new identifier: a readable prefix and a ULID, so ids sort by creation time.
 * @example newId('persona') // 'persona_01jd3...'
 */
export function newId(prefix: string): string {
  return `${prefix}_${nextUlid().toLowerCase()}`;
}

/** Current time as the ISO string the store uses. */
export function nowIso(): string {
  return new Date().toISOString();
}
