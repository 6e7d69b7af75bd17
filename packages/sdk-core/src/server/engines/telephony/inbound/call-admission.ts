import type { InboundCallIdentity, InboundCallRoute, SipTrunkCredentials } from '../../../kernel/ports/sip-directory.js';
import type { EndpointContext } from '../endpoint-context.js';
import { parseNameAddress, parseUri } from '../message/sip-address.js';
import { SipParseError, type SipRequest } from '../message/sip-message.js';
import { sessionTermsAsUas, type UasSessionTerms } from '../dialog/session-timer.js';
import { negotiate, SdpError, type NegotiatedMedia } from '../sdp/sdp-negotiation.js';

/** An INVITE the endpoint takes: who calls whom, the media agreed, the trunk and where the call goes. */
export interface AdmittedCall {
  identity: InboundCallIdentity;
  offer: NegotiatedMedia;
  trunk: SipTrunkCredentials;
  route: InboundCallRoute;
  /** The session timer agreed (RFC 4028). */
  session: Extract<UasSessionTerms, { interval: unknown }>;
}

/** Why an INVITE is refused: the SIP answer. */
export interface Refusal {
  status: number;
  reason?: string;
  headers?: Array<[string, string]>;
}

/**
 * The checks of an INVITE, in order: its session interval (422 below our Min-SE), the parties (400), the offer (400 / 415 / 488), the trunk (404, or 403 for
 * the source address), the trunk's digest (401 challenge, 403 wrong), the dispatch rule (404).
 */
export async function admitCall(context: EndpointContext, request: SipRequest, sourceAddress: string): Promise<AdmittedCall | Refusal> {
  const session = sessionTermsAsUas(request, context.sessionTimer);
  if ('tooSmall' in session) return { status: 422, reason: 'Session Interval Too Small', headers: session.tooSmall };
  let identity: InboundCallIdentity;
  try {
    const from = parseUri(parseNameAddress(request.headers.get('from')!).uri);
    const to = parseUri(parseNameAddress(request.headers.get('to')!).uri);
    const callId = request.headers.get('call-id')!;
    identity = { callId, fromUser: from.user, fromHost: from.host, toUser: to.user || parseUri(request.uri).user, toHost: to.host, sourceAddress };
  } catch (error) {
    if (error instanceof SipParseError) return { status: 400, reason: error.message };
    throw error;
  }
  const contentType = (request.headers.get('content-type') ?? '').toLowerCase();
  if (request.body.length === 0) return { status: 400, reason: 'An offer in the INVITE is required' };
  if (!contentType.startsWith('application/sdp')) return { status: 415, headers: [['Accept', 'application/sdp']] };
  let offer: NegotiatedMedia;
  try {
    offer = negotiate(request.body.toString('utf8'));
  } catch (error) {
    if (error instanceof SdpError) return { status: error.status, reason: error.message };
    throw error;
  }
  const match = await context.directory.findInboundTrunk(identity);
  if (!match) return { status: 404, reason: 'No trunk for this number' };
  if (match.kind === 'address-refused') return { status: 403, reason: 'Source address not allowed' };
  const trunk = match.trunk;
  if (trunk.authUsername || trunk.authPassword) {
    const verdict = context.digest.verify(request.headers.get('authorization'), 'INVITE', { username: trunk.authUsername, password: trunk.authPassword });
    if (verdict === 'missing' || verdict === 'stale') return { status: 401, headers: [['WWW-Authenticate', context.digest.challenge(verdict === 'stale')]] };
    if (verdict === 'wrong') return { status: 403, reason: 'Wrong credentials' };
  }
  // The trunk's media encryption decides whether the offer is taken plain, encrypted, or refused (488).
  try {
    offer = negotiate(request.body.toString('utf8'), undefined, trunk.mediaEncryption ?? 'disabled');
  } catch (error) {
    if (error instanceof SdpError) return { status: error.status, reason: error.message };
    throw error;
  }
  const route = await context.directory.dispatch(identity, trunk);
  if (!route) return { status: 404, reason: 'No dispatch rule for this call' };
  return { identity, offer, trunk, route, session };
}
