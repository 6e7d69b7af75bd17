import { CallBridge } from '../bridge/call-bridge.js';
import { sipAttributes } from '../bridge/sip-attributes.js';
import { SipCall } from '../dialog/sip-call.js';
import { newTag, SipDialog } from '../dialog/sip-dialog.js';
import type { EndpointContext } from '../endpoint-context.js';
import { parseNameAddress } from '../message/sip-address.js';
import { parseCSeq } from '../message/sip-message.js';
import { createResponse } from '../message/sip-response.js';
import { RtpSession } from '../rtp/rtp-session.js';
import { answerDirection, writeSdp } from '../sdp/sdp-negotiation.js';
import type { ServerTransaction } from '../transaction/server-transactions.js';
import { admitCall, type AdmittedCall } from './call-admission.js';
import { PinEntry } from './pin-entry.js';
import { askForPin } from './pin-prompts.js';
import { ReliableProvisional } from './reliable-provisional.js';
import { nextHop, recordRouteHeaders, routeSetOfRequest } from '../dialog/route-set.js';
import { allowsUpdate, sessionTimerFor } from '../dialog/session-refresh.js';
import { namesOption } from '../dialog/session-timer.js';

export const ALLOW = 'INVITE, ACK, BYE, CANCEL, OPTIONS, REFER, NOTIFY, UPDATE, PRACK';
/** The extensions the endpoint supports (replaces, session timers, reliable provisionals). */
export const SUPPORTED = 'replaces, timer, 100rel';

/** A `sips:` Request-URI: the dialog is secure and our Contact is `sips:` too (RFC 3261 12.1.1). */
function isSips(uri: string): boolean {
  return /^sips:/i.test(uri);
}

/** A new INVITE still being set up; CANCEL ends it with 487. */
export interface PendingInvite {
  transaction: ServerTransaction;
  toTag: string;
  cancelled: boolean;
}

export function newPendingInvite(transaction: ServerTransaction): PendingInvite {
  return { transaction, toTag: newTag(), cancelled: false };
}

/**
 * Answers a dialog-creating INVITE: {@link admitCall}'s checks, then the caller joins the room and the 200 OK goes
 * out (with a PIN, the 200 OK first and the room once the caller keyed it). Every refusal is a SIP error response
 * and leaves nothing behind (no room member, no RTP port).
 */
export async function handleInboundInvite(context: EndpointContext, transaction: ServerTransaction, pending: PendingInvite): Promise<void> {
  const request = transaction.request;
  transaction.respond(createResponse(request, 100));
  const admitted = await admitCall(context, request, transaction.peer.address);
  if (!('route' in admitted)) {
    const { status, reason, headers = [] } = admitted;
    return transaction.respond(createResponse(request, status, { toTag: pending.toTag, headers, ...(reason ? { reason } : {}) }));
  }
  if (pending.cancelled) return;
  const { identity, offer, route } = admitted;
  const pin = route.pin ? new PinEntry(route.pin) : undefined;
  const call = await openCall(context, transaction, pending, admitted, pin);
  const ringing = ringReliably(context, transaction, call);
  if (!pin) {
    const bridge = await joinRoom(context, call, admitted);
    if (!bridge) return transaction.respond(createResponse(request, 503, { toTag: pending.toTag, reason: 'The room is not available' }));
    if (pending.cancelled) return void (await bridge.leave(), await call.hangUp('remote-hangup'));
    call.bridge = bridge;
  }
  const answer = writeSdp({
    address: context.advertisedAddress,
    port: call.rtp.port,
    sessionId: Date.now(),
    version: 1,
    codecs: [offer.codec],
    dtmfPayloadType: offer.dtmfPayloadType,
    dtmfClockRate: offer.dtmfClockRate,
    direction: answerDirection(offer.direction),
    ...call.rtp.answerSecurity(),
  });
  if (ringing && !(await ringing)) {
    transaction.respond(createResponse(request, 500, { toTag: pending.toTag, reason: 'No PRACK for the reliable 180' }));
    return call.hangUp('failed');
  }
  const headers: Array<[string, string]> = [
    ['Contact', call.dialog.contact],
    ...recordRouteHeaders(request),
    ['Allow', ALLOW],
    ['Supported', SUPPORTED],
    ...admitted.session.headers,
    ['Content-Type', 'application/sdp'],
  ];
  transaction.respond(createResponse(request, 200, { toTag: pending.toTag, headers, body: Buffer.from(answer) }), () => void call.hangUp('no-ack'));
  call.localSdp = answer;
  call.activate(call.bridge);
  call.sessionTimer = sessionTimerFor(context, call, allowsUpdate(request.headers.getAll('allow')));
  call.sessionTimer.arm(admitted.session.interval);
  context.logger.info({ callId: identity.callId, room: route.roomName, codec: offer.codec.name, pin: Boolean(pin) }, 'SIP call answered');
  if (pin) {
    if (!(await askForPin(context, call, pin))) return call.hangUp('failed');
    const bridge = await joinRoom(context, call, admitted);
    if (!bridge || call.state === 'ended') return void (await bridge?.leave(), await call.hangUp('failed'));
    call.attach(bridge);
  }
  // What answers the call (the rule's session, app run or agent dispatch) starts now that the caller is in the room;
  // the caller hears its greeting when it is ready. If it cannot start, nobody would answer: the call ends.
  try {
    await context.directory.answer?.(route);
  } catch (error) {
    context.logger.warn({ err: error, callId: identity.callId, room: route.roomName }, 'Nothing could answer the SIP call');
    await call.hangUp('failed');
  }
}

/** The call's RTP port and dialog; key presses go to the PIN entry until there is a room to publish them to. */
async function openCall(
  context: EndpointContext,
  transaction: ServerTransaction,
  pending: PendingInvite,
  admitted: AdmittedCall,
  pin: PinEntry | undefined,
): Promise<SipCall> {
  const { request } = transaction;
  const { identity, route } = admitted;
  const rtp = await RtpSession.open(context.bindAddress, {
    audio: (pcm) => call.bridge?.callerAudio(pcm),
    dtmf: (event) => {
      if (call.bridge) return call.bridge.publishDtmf(event.code, event.digit);
      call.stopPlaying();
      pin?.key(event.digit);
    },
  });
  rtp.configure(admitted.offer);
  const remoteContact = request.headers.get('contact');
  const dialog = new SipDialog(
    identity.callId,
    `${request.headers.get('to')!};tag=${pending.toTag}`,
    request.headers.get('from')!,
    parseNameAddress(remoteContact ?? request.headers.get('from')!).uri,
    transaction.peer,
    context.contact(transaction.peer.protocol, isSips(request.uri)),
  );
  dialog.acceptRemoteSeq(parseCSeq(request.headers.get('cseq')!).seq);
  dialog.routeSet = routeSetOfRequest(request);
  dialog.peer = await nextHop(dialog.routeSet, transaction.peer);
  const call: SipCall = new SipCall({
    direction: 'inbound',
    dialog,
    rtp,
    clock: context.clock,
    send: (message) => context.client.request(message, dialog.peer),
    onEnded: (ended, reason) => {
      pin?.cancel();
      context.logger.info({ callId: ended.callId, reason }, 'SIP call ended');
      context.callEnded(ended);
      // What answered the call ends with it (no grace for a caller to come back: a new call is a new participant).
      if (ended.bridge) {
        context.directory
          .callEnded?.(route)
          .catch((error: unknown) => context.logger.warn({ err: error, callId: ended.callId }, 'Ending what answered the call failed'));
      }
    },
  });
  context.calls.set(identity.callId, call);
  return call;
}

/** The caller's participant in the route's room (kind `sip`, LiveKit SIP's attributes); undefined when it failed. */
async function joinRoom(context: EndpointContext, call: SipCall, admitted: AdmittedCall): Promise<CallBridge | undefined> {
  const { identity, trunk, route } = admitted;
  try {
    return await CallBridge.join({
      transport: context.transport,
      room: route.roomName,
      identity: route.participantIdentity,
      name: route.participantName,
      metadata: route.participantMetadata,
      attributes: sipAttributes({
        sipCallId: identity.callId,
        status: 'active',
        phoneNumber: identity.fromUser,
        trunkNumber: identity.toUser,
        trunkId: trunk.trunkId,
        ruleId: route.ruleId,
        extra: route.participantAttributes,
      }),
      onGone: () => void call.hangUp('room-ended'),
    });
  } catch (error) {
    await call.hangUp('failed');
    context.logger.warn({ err: error, callId: identity.callId }, 'SIP call could not join its room');
    return undefined;
  }
}

/**
 * A caller that supports or requires 100rel (RFC 3262) hears a reliable 180 Ringing while its room is being joined;
 * the 200 OK waits for its PRACK. Other callers get 100 Trying then 200 OK, as before.
 */
function ringReliably(context: EndpointContext, transaction: ServerTransaction, call: SipCall): Promise<boolean> | undefined {
  const request = transaction.request;
  if (!namesOption(request, 'require', '100rel') && !namesOption(request, 'supported', '100rel')) return undefined;
  const provisional = new ReliableProvisional(transaction);
  call.prack = (rack) => provisional.prack(rack);
  call.cleanups.push(() => provisional.stop());
  const headers: Array<[string, string]> = [['Contact', call.dialog.contact], ...recordRouteHeaders(request), ['Allow', ALLOW]];
  context.logger.debug({ callId: call.callId }, 'SIP reliable 180 Ringing');
  return provisional.send(createResponse(request, 180, { toTag: call.dialog.localTag, headers }));
}
