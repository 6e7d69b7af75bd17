import { randomBytes } from 'node:crypto';
import type { EndpointContext } from '../endpoint-context.js';
import { parseCSeq, SipHeaders, type SipRequest } from '../message/sip-message.js';
import type { SipDialog } from './sip-dialog.js';

/**
 * The ACK of a 2xx to our INVITE or re-INVITE (RFC 3261 13.2.2.4): a transaction of its own, through the dialog's
 * route set, repeated by the client transactions when the 2xx is.
 */
export function acknowledgeInvite(context: EndpointContext, dialog: SipDialog, invite: SipRequest): void {
  const peer = dialog.peer;
  const ack = dialog.ack(parseCSeq(invite.headers.get('cseq')!).seq);
  const via = `SIP/2.0/${peer.protocol.toUpperCase()} ${context.sentBy(peer.protocol)};branch=z9hG4bK${randomBytes(10).toString('hex')};rport`;
  const sent: SipRequest = { ...ack, headers: new SipHeaders([['Via', via], ...ack.headers.list()]) };
  context.sendStateless(sent, peer);
  context.client.rememberAck(invite, sent, peer);
}
