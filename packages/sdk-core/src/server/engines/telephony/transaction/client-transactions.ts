import { randomBytes } from 'node:crypto';
import { SipHeaders, parseCSeq, type SipRequest, type SipResponse } from '../message/sip-message.js';
import { parseVia } from '../message/sip-address.js';
import type { SipPeer } from '../transport/sip-transport.js';
import { SIP_T1, SIP_T2, SIP_TRANSACTION_TIMEOUT } from './timers.js';

type Send = (message: SipRequest, peer: SipPeer) => void;

export function newBranch(): string {
  return `z9hG4bK${randomBytes(10).toString('hex')}`;
}

interface Pending {
  request: SipRequest;
  peer: SipPeer;
  onProvisional: ((response: SipResponse) => void) | undefined;
  resolve: (response: SipResponse) => void;
  retransmitTimer: NodeJS.Timeout | undefined;
  timeoutTimer: NodeJS.Timeout | undefined;
  final: SipResponse | undefined;
  /** The ACK sent for a 2xx: re-sent when the 2xx is retransmitted. */
  ack: { request: SipRequest; peer: SipPeer } | undefined;
}

/**
 * Requests the endpoint sends (INVITE, BYE, REFER, re-INVITE), with retransmission over UDP (timers A/E) and
 * a timeout that answers 408 (timers B/F). A non-2xx final answer to an INVITE is acknowledged here (17.1.1.3);
 * the 2xx ACK belongs to the dialog, which hands it over with {@link ClientTransactions.rememberAck}.
 */
export class ClientTransactions {
  private readonly pending = new Map<string, Pending>();

  constructor(
    private readonly send: Send,
    private readonly via: (peer: SipPeer) => string,
  ) {}

  /** Sends `request` (its top Via is added here) and resolves with the final response (408 on timeout). */
  request(request: SipRequest, peer: SipPeer, onProvisional?: (response: SipResponse) => void): Promise<SipResponse> {
    const branch = newBranch();
    const headers = new SipHeaders([['Via', `${this.via(peer)};branch=${branch};rport`], ...request.headers.list().filter(([name]) => name !== 'via')]);
    const sent: SipRequest = { ...request, headers };
    const key = `${branch}|${request.method}`;
    return new Promise<SipResponse>((resolve) => {
      const entry: Pending = {
        request: sent,
        peer,
        onProvisional,
        resolve,
        retransmitTimer: undefined,
        timeoutTimer: undefined,
        final: undefined,
        ack: undefined,
      };
      this.pending.set(key, entry);
      this.send(sent, peer);
      if (peer.protocol === 'udp') this.retransmit(entry, SIP_T1);
      entry.timeoutTimer = setTimeout(() => {
        clearTimeout(entry.retransmitTimer);
        this.pending.delete(key);
        if (!entry.final) resolve(timeoutResponse(sent));
      }, SIP_TRANSACTION_TIMEOUT);
    });
  }

  /** After a 2xx to an INVITE: the ACK to repeat if the 2xx is retransmitted. */
  rememberAck(invite: SipRequest, ack: SipRequest, peer: SipPeer): void {
    for (const entry of this.pending.values()) {
      const same = entry.request.headers.get('call-id') === invite.headers.get('call-id') && entry.request.headers.get('cseq') === invite.headers.get('cseq');
      if (same && entry.request.method === 'INVITE') entry.ack = { request: ack, peer };
    }
  }

  /** Cancels the call's INVITE still waiting for a final answer (RFC 3261 9.1: its Via, CSeq number, To). */
  cancel(callId: string): void {
    for (const entry of this.pending.values()) {
      const invite = entry.request;
      if (invite.method !== 'INVITE' || entry.final || invite.headers.get('call-id') !== callId) continue;
      const seq = parseCSeq(invite.headers.get('cseq')!).seq;
      const headers = new SipHeaders([
        ['Via', invite.headers.get('via')!],
        ['From', invite.headers.get('from')!],
        ['To', invite.headers.get('to')!],
        ['Call-ID', callId],
        ['CSeq', `${seq} CANCEL`],
        ['Max-Forwards', '70'],
      ]);
      this.send({ kind: 'request', method: 'CANCEL', uri: invite.uri, headers, body: Buffer.alloc(0) }, entry.peer);
    }
  }

  /** Routes a response to its transaction; false when none matches (a stray response, dropped). */
  handle(response: SipResponse): boolean {
    const top = response.headers.get('via');
    if (!top) return false;
    const branch = parseVia(top).params['branch'];
    const method = parseCSeq(response.headers.get('cseq') ?? '').method;
    const key = `${branch}|${method}`;
    const entry = this.pending.get(key);
    if (!entry) return false;
    if (response.status < 200) {
      if (entry.request.method === 'INVITE') clearTimeout(entry.retransmitTimer);
      if (!entry.final) entry.onProvisional?.(response);
      return true;
    }
    if (entry.final) {
      // A retransmitted final answer: repeat our ACK.
      if (entry.request.method === 'INVITE') {
        if (response.status >= 300) this.send(this.nonSuccessAck(entry.request, response), entry.peer);
        else if (entry.ack) this.send(entry.ack.request, entry.ack.peer);
      }
      return true;
    }
    entry.final = response;
    clearTimeout(entry.retransmitTimer);
    if (entry.request.method === 'INVITE' && response.status >= 300) this.send(this.nonSuccessAck(entry.request, response), entry.peer);
    // Keep the entry a while to absorb retransmissions of the final answer (timers D/K), INVITE 2xx included.
    clearTimeout(entry.timeoutTimer);
    entry.timeoutTimer = setTimeout(() => this.pending.delete(key), entry.peer.protocol === 'udp' ? SIP_TRANSACTION_TIMEOUT : 0);
    entry.resolve(response);
    return true;
  }

  /**
   * The connection to `peer` failed (refused, reset, a TLS certificate not trusted): its requests still waiting are
   * answered 503 at once (RFC 3261 8.1.3.1) instead of timing out after 32 s.
   */
  transportFailed(peer: SipPeer, reason: string): void {
    for (const [key, entry] of this.pending) {
      const same = entry.peer.protocol === peer.protocol && entry.peer.address === peer.address && entry.peer.port === peer.port;
      if (!same || entry.final) continue;
      clearTimeout(entry.retransmitTimer);
      clearTimeout(entry.timeoutTimer);
      this.pending.delete(key);
      entry.resolve(localResponse(entry.request, 503, `Service Unavailable (${reason})`));
    }
  }

  close(): void {
    for (const entry of this.pending.values()) {
      clearTimeout(entry.retransmitTimer);
      clearTimeout(entry.timeoutTimer);
      if (!entry.final) entry.resolve(timeoutResponse(entry.request));
    }
    this.pending.clear();
  }

  private retransmit(entry: Pending, interval: number): void {
    entry.retransmitTimer = setTimeout(() => {
      if (entry.final) return;
      this.send(entry.request, entry.peer);
      const next = entry.request.method === 'INVITE' ? interval * 2 : Math.min(interval * 2, SIP_T2);
      this.retransmit(entry, next);
    }, interval);
  }

  /** RFC 3261 17.1.1.3: same branch, Request-URI, From, Call-ID; the response's To; CSeq number with ACK. */
  private nonSuccessAck(invite: SipRequest, response: SipResponse): SipRequest {
    const cseq = parseCSeq(invite.headers.get('cseq')!);
    const headers = new SipHeaders([
      ['Via', invite.headers.get('via')!],
      ['From', invite.headers.get('from')!],
      ['To', response.headers.get('to')!],
      ['Call-ID', invite.headers.get('call-id')!],
      ['CSeq', `${cseq.seq} ACK`],
      ['Max-Forwards', '70'],
    ]);
    return { kind: 'request', method: 'ACK', uri: invite.uri, headers, body: Buffer.alloc(0) };
  }
}

function timeoutResponse(request: SipRequest): SipResponse {
  return localResponse(request, 408, 'Request Timeout');
}

/** An answer made up here (no response came): a timeout or a transport error. */
function localResponse(request: SipRequest, status: number, reason: string): SipResponse {
  return {
    kind: 'response',
    status,
    reason,
    headers: new SipHeaders([['To', request.headers.get('to') ?? '']]),
    body: Buffer.alloc(0),
  };
}
