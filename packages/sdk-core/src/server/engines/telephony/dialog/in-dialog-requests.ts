import { SIP_CALL_STATUS_ATTRIBUTE } from '../../../../contract/wire.js';
import type { EndpointContext } from '../endpoint-context.js';
import { ALLOW, SUPPORTED } from '../inbound/inbound-invite.js';
import { sessionTermsAsUas } from './session-timer.js';
import { parseNameAddress } from '../message/sip-address.js';
import { parseCSeq } from '../message/sip-message.js';
import { createResponse } from '../message/sip-response.js';
import { answerDirection, negotiate, SdpError, writeSdp } from '../sdp/sdp-negotiation.js';
import type { ServerTransaction } from '../transaction/server-transactions.js';
import type { SipCall } from './sip-call.js';

/** Transfers waiting for the NOTIFY that says how the REFER went (RFC 3515). */
export type TransferWaiters = Map<string, (status: number) => void>;

/**
 * Requests inside a call's dialog: BYE (the phone hung up), re-INVITE (hold, resume, new media address),
 * NOTIFY (progress of a transfer we asked for), INFO and OPTIONS (answered, nothing to do).
 */
export async function handleInDialogRequest(
  context: EndpointContext,
  transaction: ServerTransaction,
  call: SipCall,
  transfers: TransferWaiters,
): Promise<void> {
  const request = transaction.request;
  const respond = (status: number, options: Parameters<typeof createResponse>[2] = {}) => transaction.respond(createResponse(request, status, options));
  const toTag = parseNameAddress(request.headers.get('to')!).params['tag'];
  if (toTag !== call.dialog.localTag) return respond(481);
  if (!call.dialog.acceptRemoteSeq(parseCSeq(request.headers.get('cseq')!).seq)) return respond(500, { reason: 'CSeq out of order' });
  switch (request.method) {
    case 'BYE':
      respond(200);
      await call.remoteEnded();
      return;
    case 'INVITE':
    case 'UPDATE':
      return refreshOrOffer(context, transaction, call);
    case 'PRACK':
      return respond(call.prack?.(request.headers.get('rack')) ? 200 : 481);
    case 'NOTIFY': {
      respond(200);
      const status = /^SIP\/2\.0 (\d{3})/.exec(request.body.toString('utf8'))?.[1];
      if (status && Number(status) >= 200) transfers.get(call.callId)?.(Number(status));
      return;
    }
    case 'OPTIONS':
      return respond(200, {
        headers: [
          ['Allow', ALLOW],
          ['Accept', 'application/sdp'],
        ],
      });
    case 'INFO':
      return respond(200);
    default:
      return respond(405, { headers: [['Allow', ALLOW]] });
  }
}

/**
 * A re-INVITE or UPDATE: a session refresh (RFC 4028; 422 below our Min-SE) and, with an offer, hold (sendonly /
 * inactive / 0.0.0.0), resume, or a new address: the same codec, the direction mirrored. An UPDATE without SDP is
 * a refresh only.
 */
function refreshOrOffer(context: EndpointContext, transaction: ServerTransaction, call: SipCall): void {
  const request = transaction.request;
  const session = sessionTermsAsUas(request, context.sessionTimer);
  if ('tooSmall' in session) return transaction.respond(createResponse(request, 422, { reason: 'Session Interval Too Small', headers: session.tooSmall }));
  const refreshed = () => call.sessionTimer?.arm(session.interval);
  const contact: [string, string] = ['Contact', call.dialog.contact];
  if (request.method === 'UPDATE' && request.body.length === 0) {
    transaction.respond(createResponse(request, 200, { headers: [contact, ['Supported', SUPPORTED], ...session.headers] }));
    return refreshed();
  }
  const current = call.rtp.negotiated;
  let media = current;
  if (request.body.length > 0) {
    try {
      media = negotiate(request.body.toString('utf8'), current ? [current.codec.name] : undefined, call.rtp.renegotiation);
    } catch (error) {
      if (error instanceof SdpError) return transaction.respond(createResponse(request, error.status, { reason: error.message }));
      throw error;
    }
    call.rtp.configure(media);
  }
  if (!media) return transaction.respond(createResponse(request, 488));
  const answer = writeSdp({
    address: context.advertisedAddress,
    port: call.rtp.port,
    sessionId: call.answeredAt ?? Date.now(),
    version: Date.now() % 1_000_000_000,
    codecs: [media.codec],
    dtmfPayloadType: media.dtmfPayloadType,
    dtmfClockRate: media.dtmfClockRate,
    direction: answerDirection(media.direction),
    ...call.rtp.answerSecurity(),
  });
  const onHold = media.direction === 'sendonly' || media.direction === 'inactive';
  void call.bridge?.setAttributes({ [SIP_CALL_STATUS_ATTRIBUTE]: onHold ? 'on-hold' : 'active' }).catch(() => undefined);
  transaction.respond(
    createResponse(request, 200, {
      headers: [contact, ['Allow', ALLOW], ['Supported', SUPPORTED], ...session.headers, ['Content-Type', 'application/sdp']],
      body: Buffer.from(answer),
    }),
  );
  call.localSdp = answer;
  refreshed();
}
