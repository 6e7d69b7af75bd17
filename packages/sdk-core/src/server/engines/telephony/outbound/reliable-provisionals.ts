import type { SipCall } from '../dialog/sip-call.js';
import type { SipDialog } from '../dialog/sip-dialog.js';
import { nextHop, routeSetOfResponse } from '../dialog/route-set.js';
import { namesOption } from '../dialog/session-timer.js';
import { parseNameAddress } from '../message/sip-address.js';
import type { SipRequest, SipResponse } from '../message/sip-message.js';
import type { SipPeer } from '../transport/sip-transport.js';

/** Sends an in-dialog request through a client transaction, to `peer`. */
type SendRequest = (request: SipRequest, peer: SipPeer) => Promise<SipResponse>;

/** One early dialog (a callee's To tag) and the last RSeq it was PRACKed for. */
interface EarlyDialog {
  dialog: Promise<SipDialog>;
  lastRseq: number;
}

/**
 * Acknowledges the reliable provisional responses to our INVITE (RFC 3262 4; we say `Supported: 100rel`, as
 * carriers that send early media in a reliable 183 expect): one PRACK per new RSeq, sent in the early dialog the
 * response belongs to. Through a forking proxy several callees answer with their own To tag (RFC 3261 12.1.2): each
 * is an early dialog of its own, with its own RSeq space, Contact and Record-Route. A retransmission (an RSeq already
 * seen in that dialog) is not PRACKed again (our PRACK's own transaction retransmits).
 */
export function provisionalAcknowledger(call: SipCall, trunk: SipPeer, send: SendRequest): (response: SipResponse) => void {
  const early = new Map<string, EarlyDialog>();
  return (response) => {
    const rseq = Number(response.headers.get('rseq'));
    const to = response.headers.get('to');
    if (!namesOption(response, 'require', '100rel') || !Number.isInteger(rseq) || !to) return;
    const tag = parseNameAddress(to).params['tag'] ?? '';
    let fork = early.get(tag);
    if (!fork) {
      const contact = response.headers.get('contact');
      const routeSet = routeSetOfResponse(response);
      const target = contact ? parseNameAddress(contact).uri : call.dialog.remoteTarget;
      fork = { dialog: nextHop(routeSet, trunk).then((peer) => call.dialog.early(to, target, routeSet, peer)), lastRseq: 0 };
      early.set(tag, fork);
    }
    if (rseq <= fork.lastRseq) return;
    fork.lastRseq = rseq;
    const rack = `${rseq} ${response.headers.get('cseq')}`;
    void fork.dialog.then((dialog) => send(dialog.request('PRACK', { headers: [['RAck', rack]] }), dialog.peer)).catch(() => undefined);
  };
}
