import { randomBytes } from 'node:crypto';
import { SIP_CALL_STATUS_ATTRIBUTE } from '../../../../contract/wire.js';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { SipCallFailed, type OutboundCallRequest, type PlacedCall } from '../../../kernel/ports/sip-calls.js';
import { answerChallenge } from '../auth/digest.js';
import { CallBridge } from '../bridge/call-bridge.js';
import { sipAttributes } from '../bridge/sip-attributes.js';
import { SipCall } from '../dialog/sip-call.js';
import { newTag, SipDialog } from '../dialog/sip-dialog.js';
import type { EndpointContext } from '../endpoint-context.js';
import { parseNameAddress } from '../message/sip-address.js';
import { SipHeaders, type SipRequest, type SipResponse } from '../message/sip-message.js';
import { RtpSession } from '../rtp/rtp-session.js';
import { nextHop, routeSetOfResponse } from '../dialog/route-set.js';
import { allowsUpdate, sessionTimerFor } from '../dialog/session-refresh.js';
import { sessionRequestHeaders, sessionTermsAsUac } from '../dialog/session-timer.js';
import { ALLOW } from '../inbound/inbound-invite.js';
import { endOtherFork } from './forked-answers.js';
import { provisionalAcknowledger } from './reliable-provisionals.js';
import { negotiate, OFFERED_CODECS, OFFERED_DTMF_PAYLOAD_TYPE, offerSecurity, SdpError, writeSdp } from '../sdp/sdp-negotiation.js';
import type { SipPeer } from '../transport/sip-transport.js';

async function trunkPeer(address: string, transport: SipPeer['protocol']): Promise<SipPeer> {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(address.replace(/^sips?:/, ''));
  const host = match?.[1] ?? address;
  const port = match?.[2] ? Number(match[2]) : transport === 'tls' ? 5061 : 5060;
  const ip = isIP(host) ? host : (await lookup(host)).address;
  // Over TLS the provider's certificate must name the host we were given, not the address it resolved to.
  return { protocol: transport, address: ip, port, ...(transport === 'tls' ? { serverName: host } : {}) };
}

function calleeUri(callTo: string, trunkAddress: string, transport: SipPeer['protocol']): string {
  if (/^sips?:/i.test(callTo)) return callTo;
  const user = callTo.replace(/^tel:/i, '');
  return `sip:${user}@${trunkAddress.replace(/^sips?:/, '')}${transport === 'udp' ? '' : `;transport=${transport}`}`;
}

/**
 * Dials out through an outbound trunk (LiveKit's `CreateSIPParticipant`): the callee's participant joins the
 * room at once with `sip.callStatus` = `dialing`, then `ringing` on 180/183, `active` on 200 OK (media
 * starts, DTMF digits are sent), or `hangup` when the call fails (busy, declined, unreachable, no answer). Through a
 * forking proxy, each callee's 18x is an early dialog of its own (PRACKed in it); the callee whose 2xx comes first is
 * the call (its early answer, when its 2xx has none), and any other callee answering is ACKed and sent BYE.
 */
export async function placeOutboundCall(context: EndpointContext, request: OutboundCallRequest): Promise<PlacedCall> {
  const { trunk } = request;
  const peer = await trunkPeer(trunk.address, trunk.transport);
  const callId = `${randomBytes(12).toString('hex')}@palaver`;
  const remoteUri = calleeUri(request.callTo, trunk.address, peer.protocol);
  const local = `<sip:${trunk.number || 'palaver'}@${context.advertisedAddress}>;tag=${newTag()}`;
  const dialog = new SipDialog(callId, local, `<${remoteUri}>`, remoteUri, peer, context.contact(peer.protocol), 0);
  let call: SipCall | undefined;
  const rtp = await RtpSession.open(context.bindAddress, {
    audio: (pcm) => call?.bridge?.callerAudio(pcm),
    dtmf: (event) => call?.bridge?.publishDtmf(event.code, event.digit),
  });
  call = new SipCall({
    direction: 'outbound',
    dialog,
    rtp,
    clock: context.clock,
    send: (message) => context.client.request(message, dialog.peer),
    onEnded: (ended, reason) => {
      context.logger.info({ callId: ended.callId, reason }, 'SIP call ended');
      context.callEnded(ended);
    },
  });
  const placed = call;
  context.calls.set(callId, placed);
  let bridge: CallBridge;
  try {
    bridge = await CallBridge.join({
      transport: context.transport,
      room: request.roomName,
      identity: request.participantIdentity,
      name: request.participantName,
      metadata: request.participantMetadata,
      attributes: sipAttributes({
        sipCallId: callId,
        status: 'dialing',
        phoneNumber: request.callTo,
        trunkNumber: trunk.number,
        trunkId: trunk.trunkId,
        extra: request.participantAttributes,
      }),
      onGone: () => void placed.hangUp('room-ended'),
    });
  } catch (error) {
    await placed.hangUp('failed');
    throw error;
  }
  placed.bridge = bridge;
  const result: PlacedCall = {
    participantId: bridge.connection.sid,
    participantIdentity: request.participantIdentity,
    roomName: request.roomName,
    sipCallId: callId,
  };
  const answered = dial(context, placed, request, peer, remoteUri);
  if (request.waitUntilAnswered) {
    await answered;
    return result;
  }
  answered.catch((error: unknown) => context.logger.info({ callId, err: error }, 'Outbound SIP call not answered'));
  return result;
}

async function dial(context: EndpointContext, call: SipCall, request: OutboundCallRequest, peer: SipPeer, remoteUri: string): Promise<void> {
  const { trunk } = request;
  const bridge = call.bridge!;
  const offer = writeSdp({
    address: context.advertisedAddress,
    port: call.rtp.port,
    sessionId: Date.now(),
    version: 1,
    codecs: OFFERED_CODECS,
    dtmfPayloadType: OFFERED_DTMF_PAYLOAD_TYPE,
    direction: 'sendrecv',
    ...offerSecurity(trunk.mediaEncryption ?? 'disabled', call.rtp.localKeys),
  });
  const extra: Array<[string, string]> = [...Object.entries(trunk.headers), ...Object.entries(request.headers)];
  call.localSdp = offer;
  let sessionSeconds = Math.max(context.sessionTimer.expiresSeconds, context.sessionTimer.minSeconds);
  const invite = (authorization?: [string, string]): SipRequest => {
    const built = call.dialog.request('INVITE', {
      headers: [
        ['Allow', ALLOW],
        ['Supported', 'timer, 100rel'],
        ...sessionRequestHeaders(sessionSeconds, context.sessionTimer),
        ['Content-Type', 'application/sdp'],
        ...extra,
        ...(authorization ? [authorization] : []),
      ],
      body: Buffer.from(offer),
    });
    return { ...built, uri: remoteUri };
  };
  let sent = invite();
  let ringingTimer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const acknowledgeReliable = provisionalAcknowledger(call, peer, (message, to) => context.client.request(message, to));
  // Each early dialog's answer (a forking proxy's callees each send theirs), and whose was taken last.
  const earlyAnswers = new Map<string, string>();
  let earlyTag: string | undefined;
  const onProvisional = (response: SipResponse) => {
    acknowledgeReliable(response);
    if (response.status === 180 || response.status === 183) void bridge.setAttributes({ [SIP_CALL_STATUS_ATTRIBUTE]: 'ringing' }).catch(() => undefined);
    if (acceptEarlyMedia(context, call, response)) {
      earlyTag = toTagOf(response);
      earlyAnswers.set(earlyTag, response.body.toString('utf8'));
    }
  };
  const send = (message: SipRequest): Promise<SipResponse> => {
    clearTimeout(ringingTimer);
    ringingTimer = setTimeout(() => {
      timedOut = true;
      context.client.cancel(message.headers.get('call-id')!);
    }, request.ringingTimeoutMs);
    // A second callee answering (another To tag) is ACKed and sent BYE: the call keeps the first.
    return context.client.request(message, peer, onProvisional, (other) => {
      void endOtherFork(context, call, message, other, peer).catch((error: unknown) =>
        context.logger.warn({ callId: call.callId, err: error }, 'the other callee of a forked INVITE could not be ended'),
      );
    });
  };
  let response = await send(sent);
  if ((response.status === 401 || response.status === 407) && (trunk.authUsername || trunk.authPassword)) {
    const challenge = response.headers.get(response.status === 401 ? 'www-authenticate' : 'proxy-authenticate');
    const authorization = challenge && answerChallenge(challenge, 'INVITE', remoteUri, { username: trunk.authUsername, password: trunk.authPassword });
    if (authorization) {
      sent = invite([response.status === 401 ? 'Authorization' : 'Proxy-Authorization', authorization]);
      response = await send(sent);
    }
  }
  const minimum = Number(response.headers.get('min-se')?.split(';')[0]);
  if (response.status === 422 && minimum > sessionSeconds) {
    // Our interval was below the callee's minimum (RFC 4028 7.4): ask again with theirs.
    sessionSeconds = minimum;
    sent = invite(authorization(sent));
    response = await send(sent);
  }
  clearTimeout(ringingTimer);
  if (call.state === 'ended') return;
  if (response.status < 200 || response.status >= 300) {
    await bridge.setAttributes({ [SIP_CALL_STATUS_ATTRIBUTE]: 'hangup' }).catch(() => undefined);
    await call.hangUp('failed');
    throw timedOut ? new SipCallFailed(408, 'No answer') : new SipCallFailed(response.status, response.reason);
  }
  const to = response.headers.get('to')!;
  call.dialog.setRemote(to);
  const contact = response.headers.get('contact');
  if (contact) call.dialog.remoteTarget = parseNameAddress(contact).uri;
  call.dialog.routeSet = routeSetOfResponse(response);
  call.dialog.peer = await nextHop(call.dialog.routeSet, peer);
  const seq = Number(/^\d+/.exec(sent.headers.get('cseq')!)![0]);
  const ack = withVia(context, call.dialog.ack(seq), call.dialog.peer);
  context.sendStateless(ack, call.dialog.peer);
  context.client.rememberAck(sent, ack, call.dialog.peer);
  try {
    // The 2xx's answer wins; without one, the early answer (a 183's SDP) of the callee who answered stands.
    const tag = toTagOf(response);
    const answer = response.body.length > 0 ? response.body.toString('utf8') : tag !== earlyTag ? earlyAnswers.get(tag) : undefined;
    if (answer || !call.rtp.negotiated) call.rtp.configure(negotiate(answer ?? '', ['PCMU', 'PCMA'], trunk.mediaEncryption ?? 'disabled'));
    // An early answer taken plain does not satisfy a trunk that requires SRTP.
    if (trunk.mediaEncryption === 'required' && !call.rtp.encrypted) throw new SdpError(488, 'Media encryption is required and the callee answered plain RTP');
  } catch (error) {
    await call.hangUp('failed');
    throw error instanceof SdpError ? new SipCallFailed(488, error.message) : error;
  }
  call.activate(bridge);
  call.sessionTimer = sessionTimerFor(context, call, allowsUpdate(response.headers.getAll('allow')));
  const session = sessionTermsAsUac(response);
  if (session) call.sessionTimer.arm(session);
  await bridge.setAttributes({ [SIP_CALL_STATUS_ATTRIBUTE]: 'active' });
  if (request.maxCallDurationMs > 0) {
    const limit = setTimeout(() => void call.hangUp('max-duration'), request.maxCallDurationMs);
    limit.unref();
  }
  if (request.dtmf) await call.rtp.sendDigits(request.dtmf);
}

function withVia(context: EndpointContext, request: SipRequest, peer: SipPeer): SipRequest {
  const via = `SIP/2.0/${peer.protocol.toUpperCase()} ${context.sentBy(peer.protocol)};branch=z9hG4bK${randomBytes(10).toString('hex')};rport`;
  return { ...request, headers: new SipHeaders([['Via', via], ...request.headers.list()]) };
}

/** The Authorization header a request carried (kept when it is sent again). */
function authorization(request: SipRequest): [string, string] | undefined {
  for (const name of ['Authorization', 'Proxy-Authorization']) {
    const value = request.headers.get(name);
    if (value) return [name, value];
  }
  return undefined;
}

/**
 * Early media (RFC 3960): a 183 (or 180) with SDP is the callee's answer before the call is answered (carrier
 * announcements, ringback). Its audio goes to the room at once; the room's audio waits for the 200 OK.
 */
function acceptEarlyMedia(context: EndpointContext, call: SipCall, response: SipResponse): boolean {
  if (response.body.length === 0 || !/^application\/sdp/i.test(response.headers.get('content-type') ?? '') || call.state !== 'setup') return false;
  try {
    call.rtp.configure(negotiate(response.body.toString('utf8'), ['PCMU', 'PCMA']));
    context.logger.debug({ callId: call.callId, status: response.status }, 'SIP early media');
    return true;
  } catch {
    // An early answer we cannot use: the 2xx's answer will decide.
    return false;
  }
}

/** The To tag of a response: which callee (early dialog) it is from. */
function toTagOf(response: SipResponse): string {
  return parseNameAddress(response.headers.get('to') ?? '').params['tag'] ?? '';
}
