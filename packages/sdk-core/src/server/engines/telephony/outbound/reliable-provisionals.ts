import type { SipCall } from '../dialog/sip-call.js';
import { nextHop, routeSetOfResponse } from '../dialog/route-set.js';
import { namesOption } from '../dialog/session-timer.js';
import { parseNameAddress } from '../message/sip-address.js';
import type { SipResponse } from '../message/sip-message.js';
import type { SipPeer } from '../transport/sip-transport.js';

/**
 * Acknowledges the reliable provisional responses to our INVITE (RFC 3262 4; we say `Supported: 100rel`, as
 * carriers that send early media in a reliable 183 expect): one PRACK per new RSeq, sent in the early dialog the
 * response set up (its To tag, Contact and Record-Route). A retransmission (an RSeq already seen) is not PRACKed again
 * (our PRACK's own transaction retransmits).
 */
export function provisionalAcknowledger(call: SipCall, trunk: SipPeer): (response: SipResponse) => void {
  let lastRseq = 0;
  return (response) => {
    const rseq = Number(response.headers.get('rseq'));
    const to = response.headers.get('to');
    if (!namesOption(response, 'require', '100rel') || !Number.isInteger(rseq) || rseq <= lastRseq || !to) return;
    lastRseq = rseq;
    const dialog = call.dialog;
    dialog.setRemote(to);
    const contact = response.headers.get('contact');
    if (contact) dialog.remoteTarget = parseNameAddress(contact).uri;
    dialog.routeSet = routeSetOfResponse(response);
    void (async () => {
      dialog.peer = await nextHop(dialog.routeSet, trunk);
      await call.sendRequest(dialog.request('PRACK', { headers: [['RAck', `${rseq} ${response.headers.get('cseq')}`]] }));
    })().catch(() => undefined);
  };
}
