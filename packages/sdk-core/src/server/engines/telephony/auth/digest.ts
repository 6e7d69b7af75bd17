import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a nonce is good for; an older one gets a fresh challenge with `stale=true` (RFC 2617 3.2.1). */
export const NONCE_LIFETIME_MS = 5 * 60_000;

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** Parses `Digest realm="x", nonce="y", ...` into lower-cased keys. */
export function parseDigestHeader(value: string): Record<string, string> | undefined {
  const match = /^\s*Digest\s+(.*)$/is.exec(value);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  const pattern = /([A-Za-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let found = pattern.exec(match[1]!); found; found = pattern.exec(match[1]!)) {
    params[found[1]!.toLowerCase()] = found[2] ?? found[3] ?? '';
  }
  return params;
}

export type DigestVerdict = 'ok' | 'missing' | 'stale' | 'wrong';

/**
 * The server side of SIP digest authentication (RFC 3261 22, RFC 2617 with qop=auth, MD5). Nonces are
 * stateless: a timestamp signed with the endpoint's key, so any retransmission or instance can check them.
 *
 * @example
 * const digest = new DigestChallenger('palaver');
 * const verdict = digest.verify(request.headers.get('authorization'), 'INVITE', credentials);
 * if (verdict !== 'ok') respond(401, { headers: [['WWW-Authenticate', digest.challenge(verdict === 'stale')]] });
 */
export class DigestChallenger {
  private readonly key = randomBytes(32);

  constructor(
    readonly realm: string,
    private readonly now: () => number = Date.now,
  ) {}

  challenge(stale = false): string {
    const nonce = this.nonce();
    return `Digest realm="${this.realm}", nonce="${nonce}", opaque="${md5(nonce).slice(0, 16)}", algorithm=MD5, qop="auth"${stale ? ', stale=true' : ''}`;
  }

  verify(header: string | undefined, method: string, credentials: { username: string; password: string }): DigestVerdict {
    if (!header) return 'missing';
    const params = parseDigestHeader(header);
    if (!params || !params['nonce'] || !params['response'] || !params['uri']) return 'missing';
    if (params['realm'] !== this.realm) return 'missing';
    if (params['algorithm'] && params['algorithm'].toUpperCase() !== 'MD5') return 'missing';
    const age = this.nonceAge(params['nonce']);
    if (age === undefined) return 'missing';
    if (params['username'] !== credentials.username) return 'wrong';
    const expected = digestResponse({
      username: credentials.username,
      password: credentials.password,
      realm: this.realm,
      method,
      uri: params['uri'],
      nonce: params['nonce'],
      qop: params['qop'],
      nc: params['nc'],
      cnonce: params['cnonce'],
    });
    const given = Buffer.from(params['response'].toLowerCase());
    if (given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) return 'wrong';
    return age > NONCE_LIFETIME_MS ? 'stale' : 'ok';
  }

  private nonce(): string {
    const stamp = this.now().toString(16);
    const signature = createHmac('sha256', this.key).update(stamp).digest('hex').slice(0, 24);
    return `${stamp}.${signature}`;
  }

  /** Milliseconds since the nonce was issued; undefined when it is not ours. */
  private nonceAge(nonce: string): number | undefined {
    const [stamp, signature] = nonce.split('.');
    if (!stamp || !signature) return undefined;
    const expected = createHmac('sha256', this.key).update(stamp).digest('hex').slice(0, 24);
    if (signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), Buffer.from(expected))) return undefined;
    return this.now() - parseInt(stamp, 16);
  }
}

interface DigestInput {
  username: string;
  password: string;
  realm: string;
  method: string;
  uri: string;
  nonce: string;
  qop: string | undefined;
  nc: string | undefined;
  cnonce: string | undefined;
}

function digestResponse(input: DigestInput): string {
  const ha1 = md5(`${input.username}:${input.realm}:${input.password}`);
  const ha2 = md5(`${input.method}:${input.uri}`);
  if (input.qop) return md5(`${ha1}:${input.nonce}:${input.nc ?? ''}:${input.cnonce ?? ''}:${input.qop}:${ha2}`);
  return md5(`${ha1}:${input.nonce}:${ha2}`);
}

/** The client side: an Authorization value answering a 401/407 challenge (outbound calls through a trunk). */
export function answerChallenge(challenge: string, method: string, uri: string, credentials: { username: string; password: string }): string | undefined {
  const params = parseDigestHeader(challenge);
  if (!params || !params['nonce'] || params['realm'] === undefined) return undefined;
  if (params['algorithm'] && params['algorithm'].toUpperCase() !== 'MD5') return undefined;
  const qopOffered = (params['qop'] ?? '').split(',').map((qop) => qop.trim());
  const qop = qopOffered.includes('auth') ? 'auth' : undefined;
  const cnonce = randomBytes(8).toString('hex');
  const nc = '00000001';
  const response = digestResponse({ ...credentials, realm: params['realm'], method, uri, nonce: params['nonce'], qop, nc, cnonce });
  const parts = [
    `username="${credentials.username}"`,
    `realm="${params['realm']}"`,
    `nonce="${params['nonce']}"`,
    `uri="${uri}"`,
    `response="${response}"`,
    'algorithm=MD5',
  ];
  if (params['opaque'] !== undefined) parts.push(`opaque="${params['opaque']}"`);
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  return `Digest ${parts.join(', ')}`;
}
