import type { EndpointContext } from '../endpoint-context.js';
import { negotiate } from '../sdp/sdp-negotiation.js';
import { acknowledgeInvite } from './dialog-ack.js';
import type { SipCall } from './sip-call.js';
import { sessionRequestHeaders, SessionTimer } from './session-timer.js';

/**
 * A call's session timer: our refreshes are UPDATEs when the other side allows them (no SDP, RFC 4028 9), else
 * re-INVITEs offering the SDP we last sent (same version: nothing changes); a lapsed session hangs up (BYE).
 */
export function sessionTimerFor(context: EndpointContext, call: SipCall, peerAllowsUpdate: boolean): SessionTimer {
  return new SessionTimer({
    refresh: async (seconds) => {
      const headers: Array<[string, string]> = [...sessionRequestHeaders(seconds, context.sessionTimer, 'uac'), ['Supported', 'timer']];
      if (peerAllowsUpdate) return call.sendRequest(call.dialog.request('UPDATE', { headers }));
      const invite = call.dialog.request('INVITE', { headers: [...headers, ['Content-Type', 'application/sdp']], body: Buffer.from(call.localSdp) });
      const response = await call.sendRequest(invite);
      if (response.status >= 200 && response.status < 300 && call.state !== 'ended') {
        acknowledgeInvite(context, call.dialog, invite);
        if (response.body.length > 0) {
          try {
            call.rtp.configure(
              negotiate(response.body.toString('utf8'), call.rtp.negotiated ? [call.rtp.negotiated.codec.name] : undefined, call.rtp.renegotiation),
            );
          } catch {
            // An answer we cannot read keeps the media as it was.
          }
        }
      }
      return response;
    },
    expired: () => {
      context.logger.info({ callId: call.callId }, 'SIP session not refreshed in time');
      void call.hangUp('session-expired');
    },
  });
}

/** Whether a message's Allow lists UPDATE. */
export function allowsUpdate(allow: string[]): boolean {
  return allow.some((method) => method.trim().toUpperCase() === 'UPDATE');
}
