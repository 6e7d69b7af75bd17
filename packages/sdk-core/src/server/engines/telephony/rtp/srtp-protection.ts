import { ProtectionProfileAes128CmHmacSha1_80, RtpHeader, SrtpSession } from 'werift';
import type { SrtpKeys } from '../sdp/sdp-crypto.js';

/**
 * One call's SRTP (RFC 3711, AES_CM_128_HMAC_SHA1_80) over werift's SRTP contexts: our keys protect what we send,
 * the other side's (from its `a=crypto`) check and decrypt what arrives. Rollover counters are kept per SSRC by werift.
 *
 * @example
 * const srtp = new SrtpProtection(ourKeys, negotiated.crypto.remote);
 * socket.send(srtp.protect(header, payload));
 */
export class SrtpProtection {
  private readonly session: SrtpSession;

  constructor(
    local: SrtpKeys,
    readonly remote: SrtpKeys,
  ) {
    this.session = new SrtpSession({
      keys: { localMasterKey: local.key, localMasterSalt: local.salt, remoteMasterKey: remote.key, remoteMasterSalt: remote.salt },
      profile: ProtectionProfileAes128CmHmacSha1_80,
    });
  }

  /** The SRTP packet: header, encrypted payload, 80-bit tag. */
  protect(header: RtpHeader, payload: Buffer): Buffer {
    return this.session.encrypt(payload, header);
  }

  /** {@link protect} for a whole plain RTP packet (header and payload serialized). */
  protectPacket(packet: Buffer): Buffer {
    const header = RtpHeader.deSerialize(packet);
    return this.session.encrypt(packet.subarray(header.payloadOffset), header);
  }

  /** The plain RTP packet, or undefined when the packet does not authenticate (wrong key, forged, damaged). */
  unprotect(packet: Buffer): Buffer | undefined {
    try {
      return this.session.decrypt(packet);
    } catch {
      return undefined;
    }
  }

  /** Whether `keys` are the ones this protection checks arriving packets with (a re-INVITE may bring new ones). */
  receivesWith(keys: SrtpKeys): boolean {
    return this.remote.key.equals(keys.key) && this.remote.salt.equals(keys.salt);
  }
}
