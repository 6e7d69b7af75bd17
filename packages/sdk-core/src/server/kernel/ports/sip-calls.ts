import type { OutboundTrunk } from './sip-directory.js';

/**
 * What the SIP service (LiveKit's `CreateSIPParticipant`, `TransferSIPParticipant`) asks of the platform's SIP
 * endpoint. Absent when the endpoint is not running (no `PALAVER_SIP_PORT`): the service then answers Twirp
 * `unavailable`, or forwards to a LiveKit deployment's SIP service when one is configured.
 */
export interface SipCalls {
  /**
   * Dials out through the trunk and joins the callee to the room as a participant of kind `sip` whose
   * `sip.callStatus` attribute goes dialing -> ringing -> active (or hangup). Resolves once the participant exists
   * (dialing), or when `waitUntilAnswered` once the callee answered; rejects with a `SipCallFailed` when it did not.
   */
  placeCall(request: OutboundCallRequest): Promise<PlacedCall>;
  /** Sends REFER on the participant's call (blind transfer to a `tel:` or `sip:` URI); resolves when accepted. */
  transfer(request: TransferRequest): Promise<void>;
}

export interface OutboundCallRequest {
  trunk: OutboundTrunk;
  /** The number or SIP user to call. */
  callTo: string;
  roomName: string;
  participantIdentity: string;
  participantName: string;
  participantMetadata: string;
  participantAttributes: Record<string, string>;
  /** DTMF digits to send once answered (`w` = 0.5 s pause), as LiveKit's `dtmf` field. */
  dtmf: string;
  waitUntilAnswered: boolean;
  /** Extra SIP headers for the INVITE. */
  headers: Record<string, string>;
  ringingTimeoutMs: number;
  maxCallDurationMs: number;
  /** The human the call's seconds are metered to. */
  human: string;
}

export interface PlacedCall {
  participantId: string;
  participantIdentity: string;
  roomName: string;
  sipCallId: string;
}

export interface TransferRequest {
  roomName: string;
  participantIdentity: string;
  transferTo: string;
  playDialtone: boolean;
}

/** An outbound call that was not answered: the final SIP status (486 busy, 480, 404, 408 timeout, 503...). */
export class SipCallFailed extends Error {
  constructor(
    readonly sipStatus: number,
    readonly sipReason: string,
  ) {
    super(`The call was not answered: SIP ${sipStatus} ${sipReason}`);
    this.name = 'SipCallFailed';
  }
}
