import { acknowledgeInvite } from '../dialog/dialog-ack.js';
import { nextHop, routeSetOfResponse } from '../dialog/route-set.js';
import type { SipCall } from '../dialog/sip-call.js';
import type { EndpointContext } from '../endpoint-context.js';
import { parseNameAddress } from '../message/sip-address.js';
import type { SipRequest, SipResponse } from '../message/sip-message.js';
import type { SipPeer } from '../transport/sip-transport.js';

/**
 * A second callee answered our forked INVITE (a 2xx with another To tag, after the call took the first: RFC 3261
 * 13.2.2.4): its dialog is set up only to be ended, so the callee stops ringing and holds no call. It is ACKed (again
 * when its 2xx is retransmitted) and then sent a BYE, through its own Contact and Record-Route.
 *
 * @example
 * context.client.request(invite, peer, onProvisional, (response) => void endOtherFork(context, call, invite, response, peer));
 */
export async function endOtherFork(context: EndpointContext, call: SipCall, invite: SipRequest, response: SipResponse, trunk: SipPeer): Promise<void> {
  const to = response.headers.get('to');
  if (!to) return;
  const contact = response.headers.get('contact');
  const routeSet = routeSetOfResponse(response);
  const dialog = call.dialog.early(to, contact ? parseNameAddress(contact).uri : call.dialog.remoteTarget, routeSet, await nextHop(routeSet, trunk));
  acknowledgeInvite(context, dialog, invite);
  context.logger.info({ callId: call.callId, tag: dialog.remoteTag }, 'SIP forked INVITE answered twice: the other callee is sent BYE');
  const answer = await context.client.request(dialog.request('BYE'), dialog.peer);
  if (answer.status >= 300) context.logger.warn({ callId: call.callId, tag: dialog.remoteTag, status: answer.status }, "the other callee's BYE was refused");
}
