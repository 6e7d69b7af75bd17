/**
 * What the platform's SIP endpoint asks the SIP service (trunks and dispatch rules stored through LiveKit's
 * `livekit.SIP` Twirp API) when a call arrives or is placed. The endpoint owns the protocol (transactions, digest
 * challenge, SDP, RTP); the directory owns the stored configuration and the routing decision.
 */
export interface SipDirectory {
  /**
   * The inbound trunk a call belongs to: matched on the dialled number (`numbers`, empty = any), the caller's
   * number (`allowedNumbers`, empty = any) and the source address (`allowedAddresses`: IPs or CIDRs, empty = any).
   * Undefined when no trunk accepts the call (the endpoint answers 404, or 403 when only the address failed).
   */
  findInboundTrunk(call: InboundCallIdentity): Promise<InboundTrunkMatch | undefined>;
  /** Where an accepted call goes: the room, the caller's participant and what answers it (the dispatch rule's). */
  dispatch(call: InboundCallIdentity, trunk: SipTrunkCredentials): Promise<InboundCallRoute | undefined>;
  /** An outbound trunk by id (for `CreateSIPParticipant`). */
  outboundTrunk(trunkId: string): Promise<OutboundTrunk | undefined>;
  /**
   * Starts what answers an accepted call (the route's `answer`: the rule's realtime session or app run, and its LiveKit
   * Agents dispatches), to call once the caller's participant is in `route.roomName`. Rejects when it could not start
   * (the endpoint then ends the call). The platform's directory always has it (`SipService.answerCall`); a directory
   * without it routes calls nobody answers.
   */
  answer?(route: InboundCallRoute): Promise<void>;
  /**
   * The answered call ended (either side hung up, or it failed): the service ends what answered it at once (a realtime
   * session would otherwise wait out its human-left grace; an app run ends by its empty-room rule). Never rejects.
   */
  callEnded?(route: InboundCallRoute): Promise<void>;
}

/** The parties of an INVITE as the endpoint read them. */
export interface InboundCallIdentity {
  /** The SIP Call-ID. */
  callId: string;
  /** The caller's user part (a phone number such as `+15550100` or a SIP user). */
  fromUser: string;
  fromHost: string;
  /** The dialled user part (the trunk's number). */
  toUser: string;
  toHost: string;
  /** The address the INVITE came from (`ip`, no port). */
  sourceAddress: string;
}

export interface SipTrunkCredentials {
  trunkId: string;
  /** The project the trunk was created in: sessions, usage and webhooks of its calls belong to it. */
  project: string;
  /** Digest credentials the caller must answer with; both empty = no authentication. */
  authUsername: string;
  authPassword: string;
  /** SRTP for the call's media (the trunk's `media.encryption`, or its older `media_encryption`); default disabled. */
  mediaEncryption?: SipMediaEncryption;
}

/**
 * LiveKit's `SIPMediaEncryption`: `disabled` plain RTP only, `allowed` SRTP when the other side offers or accepts it,
 * `required` SRTP only (a plain offer is refused with 488). Keys are exchanged in SDP (SDES, RFC 4568).
 */
export type SipMediaEncryption = 'disabled' | 'allowed' | 'required';

export type InboundTrunkMatch = { kind: 'trunk'; trunk: SipTrunkCredentials } | { kind: 'address-refused'; trunkId: string };

export interface InboundCallRoute {
  ruleId: string;
  project: string;
  roomName: string;
  /** Identity, name, metadata and attributes of the caller's participant (kind `sip`), as LiveKit SIP sets them. */
  participantIdentity: string;
  participantName: string;
  participantMetadata: string;
  participantAttributes: Record<string, string>;
  /** The human the call's seconds are metered to (the caller's number unless the rule names one). */
  human: string;
  /** A PIN the caller must key in (DTMF) before joining; empty = none. */
  pin: string;
  /** What answers in the room: the rule's agent dispatch (realtime session config or an app run), opaque here. */
  answer: unknown;
}

export interface OutboundTrunk {
  trunkId: string;
  project: string;
  /** SIP address of the provider (`host[:port]`) and transport. */
  address: string;
  transport: 'udp' | 'tcp' | 'tls';
  /** The number calls come from (the From user). */
  number: string;
  authUsername: string;
  authPassword: string;
  headers: Record<string, string>;
  mediaEncryption?: SipMediaEncryption;
}
