import * as sdpTransform from 'sdp-transform';
import type { SipMediaEncryption } from '../../../kernel/ports/sip-directory.js';
import { chooseCrypto, cryptoLine, SRTP_SUITE, type NegotiatedCrypto, type SrtpKeys } from './sdp-crypto.js';

/** An SDP the endpoint cannot use: `status` is the SIP answer (400 unreadable, 488 nothing in common). */
export class SdpError extends Error {
  constructor(
    readonly status: 400 | 488,
    message: string,
  ) {
    super(message);
    this.name = 'SdpError';
  }
}

export type AudioCodecName = 'PCMU' | 'PCMA' | 'opus';

export interface AudioCodec {
  name: AudioCodecName;
  payloadType: number;
  clockRate: number;
  channels: number;
}

export type MediaDirection = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive';

/** Plain RTP, or SRTP's profile (RFC 3711); a best-effort SRTP offer is `RTP/AVP` with `a=crypto` lines. */
export type MediaProtocol = 'RTP/AVP' | 'RTP/SAVP';

/** The media both sides agreed on, as read from the other side's SDP. */
export interface NegotiatedMedia {
  codec: AudioCodec;
  /** RFC 4733 `telephone-event` payload type (at the codec's clock rate when offered so); undefined when not offered. */
  dtmfPayloadType: number | undefined;
  /** Its clock rate (8000 for most phones, even beside Opus). */
  dtmfClockRate: number;
  remoteAddress: string;
  remotePort: number;
  /** The other side's direction: `sendonly` or `inactive` (or address 0.0.0.0) means we are on hold. */
  direction: MediaDirection;
  /** The m-line's profile (default `RTP/AVP`); our answer uses the same. */
  protocol?: MediaProtocol;
  /** SRTP (SDES): the crypto line taken and the other side's keys; undefined = plain RTP. */
  crypto?: NegotiatedCrypto;
}

const STATIC: Record<number, AudioCodec> = {
  0: { name: 'PCMU', payloadType: 0, clockRate: 8000, channels: 1 },
  8: { name: 'PCMA', payloadType: 8, clockRate: 8000, channels: 1 },
};

type MediaSection = sdpTransform.SessionDescription['media'][number];

function parse(text: string): sdpTransform.SessionDescription {
  if (!/^v=0\s*$/m.test(text)) throw new SdpError(400, 'The body is not SDP (no v=0 line)');
  let session: sdpTransform.SessionDescription;
  try {
    session = sdpTransform.parse(text);
  } catch {
    throw new SdpError(400, 'The SDP could not be read');
  }
  return session;
}

function codecsOf(media: MediaSection): AudioCodec[] {
  const payloads = String(media.payloads ?? '')
    .split(/\s+/)
    .filter((payload) => payload !== '')
    .map(Number);
  const codecs: AudioCodec[] = [];
  for (const payloadType of payloads) {
    const rtp = media.rtp.find((entry) => entry.payload === payloadType);
    if (rtp) {
      const name = rtp.codec.toUpperCase() === 'OPUS' ? 'opus' : rtp.codec.toUpperCase();
      if ((name === 'PCMU' || name === 'PCMA') && rtp.rate === 8000) codecs.push({ name, payloadType, clockRate: 8000, channels: 1 });
      else if (name === 'opus' && rtp.rate === 48000) codecs.push({ name, payloadType, clockRate: 48000, channels: Number(rtp.encoding ?? 2) });
    } else if (STATIC[payloadType]) codecs.push(STATIC[payloadType]);
  }
  return codecs;
}

function dtmfOf(media: MediaSection, clockRate: number): { payloadType: number | undefined; clockRate: number } {
  const events = media.rtp.filter((entry) => entry.codec.toLowerCase() === 'telephone-event');
  const chosen = events.find((entry) => entry.rate === clockRate) ?? events[0];
  return { payloadType: chosen?.payload, clockRate: chosen?.rate ?? clockRate };
}

/**
 * Reads an offer (or answer) and picks the first audio codec the endpoint speaks, in the other side's order, and
 * whether media is encrypted as `encryption` (the trunk's) allows: `required` takes SRTP only, `disabled` plain RTP
 * only (an `RTP/SAVP` offer gets 488, a best-effort offer's `a=crypto` is ignored), `allowed` either.
 */
export function negotiate(
  text: string,
  supported: readonly AudioCodecName[] = ['PCMU', 'PCMA', 'opus'],
  encryption: SipMediaEncryption = 'allowed',
): NegotiatedMedia {
  const session = parse(text);
  const audio = session.media.find((media) => media.type === 'audio' && media.port > 0);
  if (!audio) throw new SdpError(488, 'The SDP offers no audio stream');
  const { protocol, crypto } = mediaSecurity(audio, encryption);
  const codec = codecsOf(audio).find((candidate) => supported.includes(candidate.name));
  if (!codec) throw new SdpError(488, 'No common audio codec (PCMU, PCMA or Opus)');
  const remoteAddress = audio.connection?.ip ?? session.connection?.ip;
  if (!remoteAddress) throw new SdpError(400, 'The SDP has no connection address');
  const declared = audio.direction ?? session.direction ?? 'sendrecv';
  const direction: MediaDirection = remoteAddress === '0.0.0.0' ? (declared === 'sendrecv' ? 'sendonly' : declared) : declared;
  const dtmf = dtmfOf(audio, codec.clockRate);
  return {
    codec,
    dtmfPayloadType: dtmf.payloadType,
    dtmfClockRate: dtmf.clockRate,
    remoteAddress,
    remotePort: audio.port,
    direction,
    protocol,
    ...(crypto ? { crypto } : {}),
  };
}

/** The media section's profile and the crypto line taken, or the 488 that `encryption` asks for. */
function mediaSecurity(audio: MediaSection, encryption: SipMediaEncryption): { protocol: MediaProtocol; crypto: NegotiatedCrypto | undefined } {
  if (audio.protocol !== 'RTP/AVP' && audio.protocol !== 'RTP/SAVP') {
    throw new SdpError(488, `Media protocol ${audio.protocol} is not supported (RTP/AVP, or RTP/SAVP with SDES keys)`);
  }
  const protocol: MediaProtocol = audio.protocol;
  const crypto = chooseCrypto(audio);
  if (protocol === 'RTP/SAVP' && encryption === 'disabled') throw new SdpError(488, 'SRTP (RTP/SAVP) is not accepted: media encryption is disabled');
  if (protocol === 'RTP/SAVP' && !crypto) throw new SdpError(488, `No usable SRTP key: an a=crypto line with ${SRTP_SUITE} and one inline key is required`);
  if (!crypto && encryption === 'required') throw new SdpError(488, `Media encryption is required: SRTP (RTP/SAVP with a=crypto ${SRTP_SUITE})`);
  return { protocol, crypto: encryption === 'disabled' ? undefined : crypto };
}

export interface LocalDescription {
  address: string;
  port: number;
  sessionId: number;
  version: number;
  codecs: AudioCodec[];
  dtmfPayloadType: number | undefined;
  /** Default the first codec's clock rate. */
  dtmfClockRate?: number;
  direction: MediaDirection;
  /** Default `RTP/AVP`. */
  protocol?: MediaProtocol;
  /** Our SRTP keys under the crypto line's tag (an answer repeats the offer's tag). */
  crypto?: { tag: number; keys: SrtpKeys };
}

/** Writes the endpoint's SDP (offer or answer). */
export function writeSdp(local: LocalDescription): string {
  const family = local.address.includes(':') ? 6 : 4;
  const rtp: MediaSection['rtp'] = local.codecs.map((codec) => ({
    payload: codec.payloadType,
    codec: codec.name,
    rate: codec.clockRate,
    ...(codec.channels > 1 ? { encoding: codec.channels } : {}),
  }));
  const fmtp: MediaSection['fmtp'] = [];
  if (local.dtmfPayloadType !== undefined) {
    const rate = local.dtmfClockRate ?? local.codecs[0]?.clockRate ?? 8000;
    rtp.push({ payload: local.dtmfPayloadType, codec: 'telephone-event', rate });
    fmtp.push({ payload: local.dtmfPayloadType, config: '0-16' });
  }
  for (const codec of local.codecs) if (codec.name === 'opus') fmtp.push({ payload: codec.payloadType, config: 'useinbandfec=1' });
  const description: sdpTransform.SessionDescription = {
    version: 0,
    origin: { username: 'palaver', sessionId: local.sessionId, sessionVersion: local.version, netType: 'IN', ipVer: family, address: local.address },
    name: 'palaver',
    connection: { version: family, ip: local.address },
    timing: { start: 0, stop: 0 },
    media: [
      {
        type: 'audio',
        port: local.port,
        protocol: local.protocol ?? 'RTP/AVP',
        payloads: rtp.map((entry) => entry.payload).join(' '),
        rtp,
        fmtp,
        ptime: 20,
        direction: local.direction,
        ...(local.crypto ? { crypto: [cryptoLine(local.crypto.tag, local.crypto.keys)] } : {}),
      },
    ],
  };
  return sdpTransform.write(description);
}

/** What we answer to the other side's direction (RFC 3264 6.1). */
export function answerDirection(remote: MediaDirection): MediaDirection {
  if (remote === 'sendonly') return 'recvonly';
  if (remote === 'recvonly') return 'sendonly';
  return remote;
}

/**
 * How an outbound offer is secured by the trunk's media encryption (as LiveKit SIP offers): `disabled` plain RTP,
 * `allowed` best effort (`RTP/AVP` with our `a=crypto`, so a callee without SRTP still answers), `required` `RTP/SAVP`.
 */
export function offerSecurity(encryption: SipMediaEncryption, keys: SrtpKeys): Pick<LocalDescription, 'protocol' | 'crypto'> {
  if (encryption === 'disabled') return {};
  return { protocol: encryption === 'required' ? 'RTP/SAVP' : 'RTP/AVP', crypto: { tag: 1, keys } };
}

/** The codecs the endpoint offers on outbound calls, in preference order. */
export const OFFERED_CODECS: AudioCodec[] = [STATIC[0]!, STATIC[8]!];
export const OFFERED_DTMF_PAYLOAD_TYPE = 101;
