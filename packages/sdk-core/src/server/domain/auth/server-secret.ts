import { hkdfSync, randomBytes } from 'node:crypto';
import type { Store } from '../../store/database.js';

const SETTING = 'server_secret';

/** Purposes a key is derived for; each gets an independent 32-byte key. */
export type KeyPurpose = 'usage-token' | 'secret-encryption' | 'settings-encryption' | 'media-token';

/** The server's root secret and the keys derived from it with HKDF-SHA256. */
export class ServerSecret {
  private constructor(private readonly root: Buffer) {}

  /**
   * Uses the configured secret, or the one stored in the database, or generates and stores one.
   * Production deployments set `PALAVER_SECRET_KEY` so the root key is not kept beside the data.
   */
  static async load(store: Store, configured: string | undefined): Promise<ServerSecret> {
    if (configured) return new ServerSecret(Buffer.from(configured, 'utf8'));
    const row = await store.db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirst();
    if (row) return new ServerSecret(Buffer.from(row.value, 'base64url'));
    const generated = randomBytes(32);
    await store.db
      .insertInto('settings')
      .values({ key: SETTING, value: generated.toString('base64url') })
      .onConflict((conflict) => conflict.column('key').doNothing())
      .execute();
    // Another instance may have won the race: read back what is stored.
    const stored = await store.db.selectFrom('settings').select('value').where('key', '=', SETTING).executeTakeFirstOrThrow();
    return new ServerSecret(Buffer.from(stored.value, 'base64url'));
  }

  derive(purpose: KeyPurpose): Uint8Array {
    return new Uint8Array(hkdfSync('sha256', this.root, Buffer.alloc(0), `palaver:${purpose}`, 32));
  }
}
