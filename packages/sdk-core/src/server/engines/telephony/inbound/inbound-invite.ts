import { randomBytes } from 'node:crypto';
import {
  SIP_CALL_ID_ATTRIBUTE,
  SIP_CALL_STATUS_ATTRIBUTE,
  SIP_PHONE_NUMBER_ATTRIBUTE,
  SIP_RULE_ID_ATTRIBUTE,
  SIP_TRUNK_ID_ATTRIBUTE,
  SIP_TRUNK_NUMBER_ATTRIBUTE,
} from '../../../../contract/wire.js';
import type { InboundCallIdentity } from '../../../kernel/ports/sip-directory.js';
import { CallBridge } from '../bridge/call-bridge.js';
import { SipCall } from '../dialog/sip-call.js';
import { newTag, SipDialog } from '../dialog/sip-dialog.js';
import type { EndpointContext } from '../endpoint-context.js';
import { parseNameAddress, parseUri } from '../message/sip-address.js';
import { parseCSeq, SipParseError } from '../message/sip-message.js';
import { createResponse } from '../message/sip-response.js';
import { RtpSession } from '../rtp/rtp-session.js';
import { answerDirection, negotiate, SdpError, writeSdp } from '../sdp/sdp-negotiation.js';
import type { ServerTransaction } from '../transaction/server-transactions.js';

export const ALLOW = 'INVITE, ACK, BYE, CANCEL, OPTIONS, REFER, NOTIFY';

/** A new INVITE still being set up; CANCEL ends it with 487. */
export interface PendingInvite {
  transaction: ServerTransaction;
  toTag: string;
  cancelled: boolean;
}

/**
 * Answers a dialog-creating INVITE: the trunk (source address, numbers), the digest challenge, the dispatch
 * rule, the SDP; then the caller joins the room and the 200 OK goes out. Every refusal is a SIP error
 * response and leaves nothing behind (no room member, no RTP port).
 */
export async function handleInboundInvite(context: EndpointContext, transaction: ServerTransaction, pending: PendingInvite): Promise<void> {
  const request = transaction.request;
  const reject = (status: number, reason?: string, headers: Array<[string, string]> = []) =>
    transaction.respond(createResponse(request, status, { toTag: pending.toTag, headers, ...(reason ? { reason } : {}) }));
  transaction.respond(createResponse(request, 100));

  let identity: InboundCallIdentity;
  try {
    const from = parseUri(parseNameAddress(request.headers.get('from')!).uri);
    const to = parseUri(parseNameAddress(request.headers.get('to')!).uri);
    identity = {
      callId: request.headers.get('call-id')!,
      fromUser: from.user,
      fromHost: from.host,
      toUser: to.user || parseUri(request.uri).user,
      toHost: to.host,
      sourceAddress: transaction.peer.address,
    };
  } catch (error) {
    if (error instanceof SipParseError) return reject(400, error.message);
    throw error;
  }

  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  if (request.body.length === 0) return reject(400, 'An offer in the INVITE is required');
  if (!contentType.startsWith('application/sdp')) return reject(415, undefined, [['Accept', 'application/sdp']]);
  let offer;
  try {
    offer = negotiate(request.body.toString('utf8'));
  } catch (error) {
    if (error instanceof SdpError) return reject(error.status, error.message);
    throw error;
  }

  const match = await context.directory.findInboundTrunk(identity);
  if (!match) return reject(404, 'No trunk for this number');
  if (match.kind === 'address-refused') return reject(403, 'Source address not allowed');
  const trunk = match.trunk;
  if (trunk.authUsername || trunk.authPassword) {
    const verdict = context.digest.verify(request.headers.get('authorization'), 'INVITE', { username: trunk.authUsername, password: trunk.authPassword });
    if (verdict === 'missing' || verdict === 'stale') return reject(401, undefined, [['WWW-Authenticate', context.digest.challenge(verdict === 'stale')]]);
    if (verdict === 'wrong') return reject(403, 'Wrong credentials');
  }
  const route = await context.directory.dispatch(identity, trunk);
  if (!route) return reject(404, 'No dispatch rule for this call');
  if (pending.cancelled) return;

  const rtp = await RtpSession.open(context.bindAddress, {
    audio: (pcm) => call.bridge?.callerAudio(pcm),
    dtmf: (event) => call.bridge?.publishDtmf(event.code, event.digit),
  });
  rtp.configure(offer);
  const remoteContact = request.headers.get('contact');
  const dialog = new SipDialog(
    identity.callId,
    `${request.headers.get('to')!};tag=${pending.toTag}`,
    request.headers.get('from')!,
    remoteContact ? parseNameAddress(remoteContact).uri : parseNameAddress(request.headers.get('from')!).uri,
    transaction.peer,
    context.contact(transaction.peer.protocol),
  );
  dialog.acceptRemoteSeq(parseCSeq(request.headers.get('cseq')!).seq);
  const call: SipCall = new SipCall({
    direction: 'inbound',
    dialog,
    rtp,
    clock: context.clock,
    send: (message) => context.client.request(message, dialog.peer),
    onEnded: (ended, reason) => {
      context.logger.info({ callId: ended.callId, reason }, 'SIP call ended');
      context.callEnded(ended);
      // What answered the call ends with it (no grace for a caller to come back: a new call is a new participant).
      if (ended.answeredAt !== undefined) {
        context.directory
          .callEnded?.(route)
          .catch((error: unknown) => context.logger.warn({ err: error, callId: ended.callId }, 'Ending what answered the call failed'));
      }
    },
  });
  context.calls.set(identity.callId, call);

  let bridge: CallBridge;
  try {
    bridge = await CallBridge.join({
      transport: context.transport,
      room: route.roomName,
      identity: route.participantIdentity,
      name: route.participantName,
      metadata: route.participantMetadata,
      attributes: {
        [SIP_CALL_ID_ATTRIBUTE]: `SCL_${randomBytes(6).toString('hex')}`,
        'sip.callIDFull': identity.callId,
        [SIP_CALL_STATUS_ATTRIBUTE]: 'active',
        [SIP_PHONE_NUMBER_ATTRIBUTE]: identity.fromUser,
        [SIP_TRUNK_NUMBER_ATTRIBUTE]: identity.toUser,
        [SIP_TRUNK_ID_ATTRIBUTE]: trunk.trunkId,
        [SIP_RULE_ID_ATTRIBUTE]: route.ruleId,
        ...route.participantAttributes,
      },
      onGone: () => void call.hangUp('room-ended'),
    });
  } catch (error) {
    await call.hangUp('failed');
    context.logger.warn({ err: error, callId: identity.callId }, 'SIP call could not join its room');
    return reject(503, 'The room is not available');
  }
  if (pending.cancelled) {
    await bridge.leave();
    await call.hangUp('remote-hangup');
    return;
  }
  call.bridge = bridge;
  const answer = writeSdp({
    address: context.advertisedAddress,
    port: rtp.port,
    sessionId: Date.now(),
    version: 1,
    codecs: [offer.codec],
    dtmfPayloadType: offer.dtmfPayloadType,
    dtmfClockRate: offer.dtmfClockRate,
    direction: answerDirection(offer.direction),
  });
  transaction.respond(
    createResponse(request, 200, {
      toTag: pending.toTag,
      headers: [
        ['Contact', context.contact(transaction.peer.protocol)],
        ['Allow', ALLOW],
        ['Supported', 'replaces'],
        ['Content-Type', 'application/sdp'],
      ],
      body: Buffer.from(answer),
    }),
    () => void call.hangUp('no-ack'),
  );
  call.activate(bridge);
  context.logger.info({ callId: identity.callId, room: route.roomName, codec: offer.codec.name }, 'SIP call answered');
  // What answers the call (the rule's session, app run or agent dispatch) starts now that the caller is in the room;
  // the caller hears its greeting when it is ready. If it cannot start, nobody would answer: the call ends.
  try {
    await context.directory.answer?.(route);
  } catch (error) {
    context.logger.warn({ err: error, callId: identity.callId, room: route.roomName }, 'Nothing could answer the SIP call');
    await call.hangUp('failed');
  }
}

export function newPendingInvite(transaction: ServerTransaction): PendingInvite {
  return { transaction, toTag: newTag(), cancelled: false };
}
