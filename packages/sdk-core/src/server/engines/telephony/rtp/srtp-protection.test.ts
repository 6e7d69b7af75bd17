import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import { negotiate, offerSecurity, SdpError, writeSdp } from '../sdp/sdp-negotiation.js';
import { newSrtpKeys } from '../sdp/sdp-crypto.js';
import { SrtpProtection } from './srtp-protection.js';

describe('SRTP protection (werift, AES_CM_128_HMAC_SHA1_80)', () => {
  it('what one side protects the other decrypts; a changed byte or the wrong key fails the check', () => {
    const [alice, bob] = [newSrtpKeys(), newSrtpKeys()];
    const sender = new SrtpProtection(alice, bob);
    const receiver = new SrtpProtection(bob, alice);
    const payload = Buffer.from(Array.from({ length: 160 }, (_, index) => index & 0xff));
    const header = new RtpHeader({ payloadType: 0, sequenceNumber: 65535, timestamp: 1234, ssrc: 42 });
    const protectedPacket = sender.protect(header, payload);
    expect(protectedPacket.length).toBe(12 + 160 + 10);
    expect(protectedPacket.subarray(12, 172).equals(payload)).toBe(false);
    const plain = RtpPacket.deSerialize(receiver.unprotect(protectedPacket)!);
    expect(plain.header.sequenceNumber).toBe(65535);
    expect(plain.payload.equals(payload)).toBe(true);
    const tampered = Buffer.from(protectedPacket);
    tampered[20]! ^= 1;
    expect(receiver.unprotect(tampered)).toBeUndefined();
    expect(new SrtpProtection(bob, newSrtpKeys()).unprotect(protectedPacket)).toBeUndefined();
  });
});

describe('SDP media encryption (SDES, RFC 4568)', () => {
  const keys = newSrtpKeys();
  const sdp = (encryption: 'disabled' | 'allowed' | 'required') =>
    writeSdp({
      address: '127.0.0.1',
      port: 4000,
      sessionId: 1,
      version: 1,
      codecs: [{ name: 'PCMU', payloadType: 0, clockRate: 8000, channels: 1 }],
      dtmfPayloadType: undefined,
      direction: 'sendrecv',
      ...offerSecurity(encryption, keys),
    });

  it('offers plain, best effort (RTP/AVP with a=crypto) or RTP/SAVP, and reads the keys back', () => {
    expect(sdp('disabled')).toMatch(/m=audio 4000 RTP\/AVP 0/);
    expect(sdp('disabled')).not.toMatch(/a=crypto/);
    expect(sdp('allowed')).toMatch(/m=audio 4000 RTP\/AVP 0[\s\S]*a=crypto:1 AES_CM_128_HMAC_SHA1_80 inline:/);
    expect(sdp('required')).toMatch(/m=audio 4000 RTP\/SAVP 0/);
    const read = negotiate(sdp('required'), undefined, 'required');
    expect(read.protocol).toBe('RTP/SAVP');
    expect(read.crypto?.remote.key.equals(keys.key)).toBe(true);
    expect(read.crypto?.remote.salt.equals(keys.salt)).toBe(true);
  });

  it('applies the policy: required refuses plain, disabled refuses RTP/SAVP and ignores best-effort keys, allowed takes either', () => {
    const refusal = (text: string, encryption: 'disabled' | 'allowed' | 'required') => {
      try {
        negotiate(text, undefined, encryption);
        return undefined;
      } catch (error) {
        return error instanceof SdpError ? error.status : error;
      }
    };
    expect(refusal(sdp('disabled'), 'required')).toBe(488);
    expect(refusal(sdp('required'), 'disabled')).toBe(488);
    expect(negotiate(sdp('allowed'), undefined, 'disabled').crypto).toBeUndefined();
    expect(negotiate(sdp('allowed'), undefined, 'required').crypto).toBeDefined();
    expect(negotiate(sdp('disabled'), undefined, 'allowed').crypto).toBeUndefined();
    expect(negotiate(sdp('required'), undefined, 'allowed').crypto).toBeDefined();
    // An unknown suite or a key with an MKI is no usable key: RTP/SAVP with only those is refused.
    expect(refusal(sdp('required').replace('AES_CM_128_HMAC_SHA1_80', 'AES_256_CM_HMAC_SHA1_80'), 'allowed')).toBe(488);
    expect(refusal(sdp('required').replace(/(inline:\S+)/, '$1|2^20|1:4'), 'allowed')).toBe(488);
  });
});
