import type { Store } from '../../store/database.js';
import { newId, nowIso } from '../../store/ids.js';

const ALGORITHM = 'HS256';
const ISSUER = 'palaver';
const AUDIENCE = 'palaver-api';

let jose: Promise<typeof import('jose')> | undefined;
/** jose (~60 ms to load) is loaded with the first token made or checked, not at start-up. */
function loadJose(): Promise<typeof import('jose')> {
  jose ??= import('jose');
  return jose;
}

export interface VerifiedToken {
  id: string;
  project: string;
  human: string;
  projectDisabled: boolean;
}

/**
 * Usage tokens: JWTs (HS256, algorithm pinned) bound to one project and human, with a server-side
 * record that is authoritative for expiry and revocation, so `update_ttl` and `revoke` take effect on
 * the very next request. The JWT's `exp` is `iat` + the TTL it was minted with; the record starts there and
 * `update_ttl` moves it either way (decision 0004). A token past its `exp` whose record was extended stays valid:
 * its signature and claims are still checked, only the record decides when it ends.
 */
export class UsageTokenService {
  constructor(
    private readonly store: Store,
    private readonly key: Uint8Array,
    private readonly now: () => number = Date.now,
  ) {}

  async create(project: string, human: string, ttlSeconds: number): Promise<string> {
    const id = newId('tok');
    const issuedAt = this.now();
    // Whole seconds, as the JWT carries them: the record expires when the JWT does.
    const issuedAtSeconds = Math.floor(issuedAt / 1000);
    const expiresAtSeconds = issuedAtSeconds + ttlSeconds;
    await this.store.db
      .insertInto('usage_tokens')
      .values({
        id,
        project,
        human,
        created_at: new Date(issuedAt).toISOString(),
        expires_at: new Date(expiresAtSeconds * 1000).toISOString(),
        revoked_at: null,
      })
      .execute();
    const { SignJWT } = await loadJose();
    return new SignJWT({ prj: project })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(human)
      .setJti(id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(issuedAtSeconds)
      .setExpirationTime(expiresAtSeconds)
      .sign(this.key);
  }

  /** The token's identity when its signature, claims and server-side record are all valid. */
  async verify(token: string): Promise<VerifiedToken | undefined> {
    const { jwtVerify, errors } = await loadJose();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: [ALGORITHM],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: new Date(this.now()),
      }));
    } catch (error) {
      // jose checks `exp` last, after the signature, algorithm, issuer and audience: an expired JWT is
      // otherwise genuine, and its record may have been extended by update_ttl.
      if (!(error instanceof errors.JWTExpired) || error.claim !== 'exp') return undefined;
      payload = error.payload;
    }
    if (typeof payload.jti !== 'string' || typeof payload.sub !== 'string' || typeof payload.prj !== 'string') return undefined;
    const record = await this.store.db
      .selectFrom('usage_tokens')
      .innerJoin('projects', 'projects.id', 'usage_tokens.project')
      .selectAll('usage_tokens')
      .select('projects.disabled')
      .where('usage_tokens.id', '=', payload.jti)
      .executeTakeFirst();
    if (!record || record.revoked_at !== null) return undefined;
    if (Date.parse(record.expires_at) <= this.now()) return undefined;
    if (record.project !== payload.prj || record.human !== payload.sub) return undefined;
    return { id: record.id, project: record.project, human: record.human, projectDisabled: Number(record.disabled) !== 0 };
  }

  private activeTokens(project: string, human: string) {
    return this.store.db
      .selectFrom('usage_tokens')
      .selectAll()
      .where('project', '=', project)
      .where('human', '=', human)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(this.now()).toISOString());
  }

  /** Remaining whole seconds of the human's longest-lived active token, or undefined when none. */
  async remainingSeconds(project: string, human: string): Promise<number | undefined> {
    const row = await this.activeTokens(project, human).orderBy('expires_at', 'desc').executeTakeFirst();
    if (!row) return undefined;
    return Math.max(0, Math.ceil((Date.parse(row.expires_at) - this.now()) / 1000));
  }

  /** Sets the remaining lifetime of every active token of the human (shorter or longer); false when none is active. */
  async updateTtl(project: string, human: string, ttlSeconds: number): Promise<boolean> {
    const tokens = await this.activeTokens(project, human).execute();
    if (tokens.length === 0) return false;
    for (const token of tokens) {
      const expiresAt = this.now() + ttlSeconds * 1000;
      await this.store.db
        .updateTable('usage_tokens')
        .set({ expires_at: new Date(expiresAt).toISOString() })
        .where('id', '=', token.id)
        .execute();
    }
    return true;
  }

  /** Revokes every active token of the human; false when none was active. */
  async revoke(project: string, human: string): Promise<boolean> {
    const result = await this.store.db
      .updateTable('usage_tokens')
      .set({ revoked_at: nowIso() })
      .where('project', '=', project)
      .where('human', '=', human)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', new Date(this.now()).toISOString())
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
