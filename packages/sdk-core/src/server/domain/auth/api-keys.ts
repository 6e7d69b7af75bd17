import * as nodeCrypto from 'node:crypto';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { timedCache } from '../../kernel/timed-cache.js';
import type { Store } from '../../store/database.js';
import { newId, nowIso } from '../../store/ids.js';
import type { ChangeNotices } from '../change-notices.js';

export interface VerifiedKey {
  id: string;
  project: string;
  projectDisabled: boolean;
}

/** Node's one-shot `crypto.hash` (Node >= 20.12; the packages promise Node 20): a third cheaper than a `Hash` object. */
const hashOnce = (nodeCrypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

/** The key's SHA-256 digest in hex, as stored. */
function digest(key: string): string {
  return hashOnce ? hashOnce('sha256', key, 'hex') : createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Generates a new API key string: `pk_` and 32 random bytes. */
export function generateApiKey(): string {
  return `pk_${randomBytes(32).toString('base64url')}`;
}

/** How long a verified key is trusted without reading the database again (see docs/decisions/0062). */
export const VERIFIED_KEY_TTL_MS = 1000;
const MAX_VERIFIED_KEYS = 1000;

/**
 * API keys, stored as SHA-256 digests and compared in constant time. A verified key is remembered for
 * {@link VERIFIED_KEY_TTL_MS}: revoking a key or disabling a project takes effect on the next request, on this
 * instance and (through the change notices) on the others; a change made by a process without the bus (the
 * CLI on the database) within that time.
 */
export class ApiKeyService {
  private readonly verified = timedCache<string, VerifiedKey>({ max: MAX_VERIFIED_KEYS, ttlMs: VERIFIED_KEY_TTL_MS });

  constructor(
    private readonly store: Store,
    private readonly notices?: Pick<ChangeNotices, 'announce'>,
  ) {}

  /** Forgets every remembered verification (a key revoked or a project disabled, here or on another instance). */
  forgetVerified(): void {
    this.verified.clear();
  }

  /** Forgets every remembered verification here and tells the other instances to do the same. */
  async keysChanged(): Promise<void> {
    this.forgetVerified();
    await this.notices?.announce('api-keys');
  }

  async create(project: string, name: string, key: string = generateApiKey()): Promise<{ id: string; key: string }> {
    const id = newId('key');
    await this.store.db
      .insertInto('api_keys')
      .values({
        id,
        project,
        name,
        key_hash: digest(key),
        key_prefix: key.slice(0, 10),
        created_at: nowIso(),
        revoked_at: null,
      })
      .execute();
    return { id, key };
  }

  /** The key's id and project, or undefined when the key is unknown or revoked. */
  async verify(key: string): Promise<VerifiedKey | undefined> {
    const presented = digest(key);
    const remembered = this.verified.get(presented);
    if (remembered) return remembered;
    const verified = await this.verifyStored(presented);
    if (verified) {
      this.verified.set(presented, verified);
    } else {
      this.verified.delete(presented);
    }
    return verified;
  }

  private async verifyStored(presented: string): Promise<VerifiedKey | undefined> {
    const row = await this.store.db
      .selectFrom('api_keys')
      .innerJoin('projects', 'projects.id', 'api_keys.project')
      .select(['api_keys.id', 'api_keys.project', 'api_keys.key_hash', 'api_keys.revoked_at', 'projects.disabled'])
      .where('api_keys.key_hash', '=', presented)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) return undefined;
    // Both sides are 32-byte digests, so timingSafeEqual never sees unequal lengths.
    if (!timingSafeEqual(Buffer.from(row.key_hash, 'hex'), Buffer.from(presented, 'hex'))) return undefined;
    return { id: row.id, project: row.project, projectDisabled: Number(row.disabled) !== 0 };
  }

  async exists(key: string): Promise<boolean> {
    return (await this.verify(key)) !== undefined;
  }

  async list(project: string) {
    return this.store.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'key_prefix', 'created_at', 'revoked_at'])
      .where('project', '=', project)
      .orderBy('created_at')
      .execute();
  }

  async revoke(id: string): Promise<boolean> {
    const result = await this.store.db
      .updateTable('api_keys')
      .set({ revoked_at: nowIso() })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await this.keysChanged();
    return Number(result.numUpdatedRows) > 0;
  }
}
