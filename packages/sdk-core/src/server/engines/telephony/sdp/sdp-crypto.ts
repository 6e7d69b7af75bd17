import { randomBytes } from 'node:crypto';
import type * as sdpTransform from 'sdp-transform';

/** The one SRTP suite the endpoint speaks (RFC 4568 6.2.1; LiveKit SIP's default): AES-128 counter mode, 80-bit HMAC-SHA1 tag. */
export const SRTP_SUITE = 'AES_CM_128_HMAC_SHA1_80';
const KEY_BYTES = 16;
const SALT_BYTES = 14;

/** An SRTP master key and salt, as one `inline:` key of an SDP `a=crypto` line carries them (base64 of key || salt). */
export interface SrtpKeys {
  key: Buffer;
  salt: Buffer;
}

/** The crypto attribute both sides agreed on: its tag and the other side's keys (ours go in our SDP under the same tag). */
export interface NegotiatedCrypto {
  tag: number;
  remote: SrtpKeys;
}

export function newSrtpKeys(): SrtpKeys {
  return { key: randomBytes(KEY_BYTES), salt: randomBytes(SALT_BYTES) };
}

type MediaSection = sdpTransform.SessionDescription['media'][number];

/**
 * The first `a=crypto` line of a media section the endpoint can use (in the other side's order): our suite, one
 * `inline:` key of the right length, no lifetime shorter than a call or key index (MKI), and no session parameters
 * (UNENCRYPTED_SRTP and the like change the packet format). Undefined when there is none.
 */
export function chooseCrypto(media: MediaSection): NegotiatedCrypto | undefined {
  for (const line of media.crypto ?? []) {
    if (line.suite.toUpperCase() !== SRTP_SUITE || line.sessionConfig) continue;
    // `inline:<base64>[|<lifetime>][|<MKI>:<length>]`; one key only (several keys are `;`-separated in the config).
    const match = /^inline:([A-Za-z0-9+/=]+)(?:\|([^|;]+))?(?:\|([^|;]+))?$/.exec(line.config.trim());
    if (!match) continue;
    const material = Buffer.from(match[1]!, 'base64');
    if (material.length !== KEY_BYTES + SALT_BYTES) continue;
    const extras = [match[2], match[3]].filter((part): part is string => part !== undefined);
    // A lifetime (`2^31` or a number) is fine; an MKI other than `1:` is not (we send packets without one).
    if (extras.some((part) => part.includes(':'))) continue;
    return { tag: line.id, remote: { key: material.subarray(0, KEY_BYTES), salt: material.subarray(KEY_BYTES) } };
  }
  return undefined;
}

/** Our `a=crypto` line with `keys` under `tag`. */
export function cryptoLine(tag: number, keys: SrtpKeys): NonNullable<MediaSection['crypto']>[number] {
  return { id: tag, suite: SRTP_SUITE, config: `inline:${Buffer.concat([keys.key, keys.salt]).toString('base64')}` };
}
