import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { randomInt } from 'node:crypto';
import { RtpHeader, RtpPacket } from 'werift';
import type { SipMediaEncryption } from '../../../kernel/ports/sip-directory.js';
import { newSrtpKeys, type SrtpKeys } from '../sdp/sdp-crypto.js';
import type { LocalDescription, NegotiatedMedia } from '../sdp/sdp-negotiation.js';
import { createCallCodec, type CallCodec } from './call-codec.js';
import { DtmfReceiver, dtmfCode, dtmfPayloads, type DtmfEvent } from './dtmf.js';
import { JitterBuffer } from './jitter-buffer.js';
import { SrtpProtection } from './srtp-protection.js';

/** RFC 3389 comfort noise: carries no speech, ignored. */
const COMFORT_NOISE_PAYLOAD_TYPE = 13;
const JITTER_DEPTH = 3;
/** A quiet line releases what the jitter buffer holds after this. */
const QUIET_FLUSH_MS = 80;

export interface RtpSessionListener {
  /** Decoded caller audio: 48 kHz mono, one RTP packet's worth. */
  audio(pcm: Int16Array): void;
  dtmf(event: DtmfEvent): void;
}

/**
 * One call's RTP (RFC 3550) on its own UDP port: decodes the caller's audio through a jitter buffer, reads
 * RFC 4733 DTMF, ignores comfort noise, and sends the room's audio back to where the caller's packets come
 * from (symmetric RTP, so callers behind NAT hear us), or to the SDP's address until the first packet. When the
 * SDP agreed on SRTP (`a=crypto`), packets are protected both ways ({@link SrtpProtection}) with {@link localKeys}.
 *
 * @example
 * const rtp = await RtpSession.open('127.0.0.1', listener);
 * rtp.configure(negotiate(offer));
 * rtp.sendFrame(pcm48k);
 */
export class RtpSession {
  private media: NegotiatedMedia | undefined;
  private codec: CallCodec | undefined;
  private remote: { address: string; port: number } | undefined;
  private latched = false;
  private readonly jitter = new JitterBuffer<RtpPacket>(JITTER_DEPTH);
  private readonly dtmfReceiver = new DtmfReceiver();
  private quietTimer: NodeJS.Timeout | undefined;
  private sequence = randomInt(0, 0xffff);
  private timestamp = randomInt(0, 0x7fffffff);
  private readonly ssrc = randomInt(1, 0x7fffffff);
  private marker = true;
  private sendingDtmf = false;
  private closed = false;
  private srtp: SrtpProtection | undefined;
  /** Our SRTP master key and salt for this call (in our `a=crypto` line when the call is encrypted). */
  readonly localKeys: SrtpKeys = newSrtpKeys();
  /** Counters for tests and the bench (`unauthenticated`: SRTP packets that failed their check). */
  readonly stats = { received: 0, sent: 0, ignored: 0, comfortNoise: 0, unauthenticated: 0 };

  private constructor(
    private readonly socket: Socket,
    private readonly listener: RtpSessionListener,
  ) {
    socket.on('message', (data, info) => this.receive(data, info.address, info.port));
    socket.on('error', () => undefined);
  }

  static async open(host: string, listener: RtpSessionListener): Promise<RtpSession> {
    const socket = createSocket({ type: host.includes(':') ? 'udp6' : 'udp4' });
    socket.bind(0, host);
    await once(socket, 'listening');
    return new RtpSession(socket, listener);
  }

  get port(): number {
    return this.socket.address().port;
  }

  get negotiated(): NegotiatedMedia | undefined {
    return this.media;
  }

  /** Applies an offer/answer (the first, or a re-INVITE's: hold, resume, a new address or codec). */
  configure(media: NegotiatedMedia): void {
    const codecChanged = !this.media || this.media.codec.payloadType !== media.codec.payloadType || this.media.codec.name !== media.codec.name;
    const addressChanged = !this.media || this.media.remoteAddress !== media.remoteAddress || this.media.remotePort !== media.remotePort;
    this.media = media;
    if (codecChanged) this.codec = createCallCodec(media.codec);
    if (addressChanged || !this.latched) {
      this.remote = { address: media.remoteAddress, port: media.remotePort };
      this.latched = false;
    }
    if (!media.crypto) this.srtp = undefined;
    else if (!this.srtp?.receivesWith(media.crypto.remote)) this.srtp = new SrtpProtection(this.localKeys, media.crypto.remote);
  }

  /** Whether media is SRTP. */
  get encrypted(): boolean {
    return this.srtp !== undefined;
  }

  /** What a new offer or answer in this call may do (a re-INVITE's): an encrypted call stays encrypted (else 488). */
  get renegotiation(): SipMediaEncryption {
    return this.srtp ? 'required' : 'allowed';
  }

  /** What our SDP answer says about encryption: the offer's profile, and our keys under its crypto tag when SRTP. */
  answerSecurity(): Pick<LocalDescription, 'protocol' | 'crypto'> {
    const crypto = this.media?.crypto;
    return { protocol: this.media?.protocol ?? 'RTP/AVP', ...(crypto ? { crypto: { tag: crypto.tag, keys: this.localKeys } } : {}) };
  }

  /** Whether the other side wants our audio now (not on hold). */
  get sending(): boolean {
    return this.media !== undefined && (this.media.direction === 'sendrecv' || this.media.direction === 'recvonly') && this.media.remoteAddress !== '0.0.0.0';
  }

  /** Sends one 20 ms frame of 48 kHz mono PCM (dropped while on hold or while a key press is being sent). */
  sendFrame(pcm: Int16Array): void {
    if (!this.codec || !this.sending || this.sendingDtmf || this.closed) return;
    this.sendPacket(this.codec.codec.payloadType, this.codec.encode(pcm), this.timestamp);
    this.timestamp = (this.timestamp + this.codec.timestampStep) >>> 0;
  }

  /** Sends digits as RFC 4733 events (`w` waits 0.5 s); resolves when sent. Needs `telephone-event` in the SDP. */
  async sendDigits(digits: string): Promise<void> {
    for (const digit of digits) {
      if (this.closed) return;
      if (digit.toLowerCase() === 'w') {
        await sleep(500);
        continue;
      }
      const code = dtmfCode(digit);
      const payloadType = this.media?.dtmfPayloadType;
      if (code === undefined || payloadType === undefined || !this.codec) continue;
      this.sendingDtmf = true;
      this.marker = true;
      const stamp = this.timestamp;
      for (const payload of dtmfPayloads(code, this.media!.dtmfClockRate)) {
        this.sendPacket(payloadType, payload, stamp);
        await sleep(20);
      }
      this.timestamp = (this.timestamp + this.codec.timestampStep * 8) >>> 0;
      this.sendingDtmf = false;
      this.marker = true;
      await sleep(60);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.quietTimer);
    this.socket.close();
  }

  private sendPacket(payloadType: number, payload: Uint8Array, timestamp: number): void {
    if (!this.remote) return;
    const header = new RtpHeader({ payloadType, sequenceNumber: this.sequence, timestamp, ssrc: this.ssrc, marker: this.marker });
    this.marker = false;
    this.sequence = (this.sequence + 1) & 0xffff;
    this.stats.sent += 1;
    const packet = this.srtp ? this.srtp.protect(header, Buffer.from(payload)) : new RtpPacket(header, Buffer.from(payload)).serialize();
    this.socket.send(packet, this.remote.port, this.remote.address);
  }

  private receive(data: Buffer, address: string, port: number): void {
    if (this.closed || !this.media || data.length < 12 || data[0]! >> 6 !== 2) return;
    // RTCP multiplexed on the port (payload types 72-76 with the marker bit) is not audio (nor SRTP to check).
    const rawType = data[1]! & 0x7f;
    if (rawType >= 72 && rawType <= 76) return;
    const plain = this.srtp ? this.srtp.unprotect(data) : data;
    if (!plain) {
      this.stats.unauthenticated += 1;
      return;
    }
    let packet: RtpPacket;
    try {
      packet = RtpPacket.deSerialize(plain);
    } catch {
      this.stats.ignored += 1;
      return;
    }
    const payloadType = packet.header.payloadType;
    const isDtmf = payloadType === this.media.dtmfPayloadType;
    // Comfort noise (RFC 3389) and anything not negotiated carry nothing to play.
    if (!isDtmf && payloadType !== this.media.codec.payloadType) {
      if (payloadType === COMFORT_NOISE_PAYLOAD_TYPE) this.stats.comfortNoise += 1;
      else this.stats.ignored += 1;
      return;
    }
    this.stats.received += 1;
    // Symmetric RTP: answer where the caller's media really comes from.
    if (!this.latched || this.remote?.address !== address || this.remote.port !== port) {
      this.remote = { address, port };
      this.latched = true;
    }
    if (isDtmf) {
      const event = this.dtmfReceiver.receive(packet.payload, packet.header.timestamp);
      if (event) this.listener.dtmf(event);
      return;
    }
    for (const ready of this.jitter.push(packet.header.sequenceNumber, packet)) this.play(ready);
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => {
      for (const ready of this.jitter.flush()) this.play(ready);
    }, QUIET_FLUSH_MS);
  }

  private play(packet: RtpPacket): void {
    if (!this.codec || packet.header.payloadType !== this.codec.codec.payloadType) return;
    this.listener.audio(this.codec.decode(packet.payload));
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
