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
  /** The ACK sent for each 2xx, by its To tag (a forked INVITE may get several): re-sent when that 2xx is retransmitted. */
  acks: Map<string, { request: SipRequest; peer: SipPeer }>;
  /** A 2xx of another fork after the first (its To tag differs): the dialog ACKs and ends it. */
  onOtherAnswer: ((response: SipResponse) => void) | undefined;
  /** The To tags of the other forks' 2xx already handed to {@link onOtherAnswer}. */
  otherTags: Set<string>;
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

  /**
   * Sends `request` (its top Via is added here) and resolves with the final response (408 on timeout). For an INVITE
   * through a forking proxy, `onOtherAnswer` gets each 2xx of another callee (another To tag) after the first.
   */
  request(
    request: SipRequest,
    peer: SipPeer,
    onProvisional?: (response: SipResponse) => void,
    onOtherAnswer?: (response: SipResponse) => void,
  ): Promise<SipResponse> {
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
        acks: new Map(),
        onOtherAnswer,
        otherTags: new Set(),
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
      if (same && entry.request.method === 'INVITE') entry.acks.set(toTag(ack.headers.get('to')), { request: ack, peer });
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
      // A retransmitted final answer: repeat our ACK. A 2xx of another fork: its own dialog, which we end.
      if (entry.request.method === 'INVITE') {
        if (response.status >= 300) this.send(this.nonSuccessAck(entry.request, response), entry.peer);
        else if (response.status < 300) this.otherAnswer(entry, response);
      }
      return true;
    }
    entry.final = response;
    clearTimeout(entry.retransmitTimer);
    if (entry.request.method === 'INVITE' && response.status >= 300) this.send(this.nonSuccessAck(entry.request, response), entry.peer);
    // Keep the entry a while to absorb retransmissions of the final answer (timers D/K), and, after an INVITE's 2xx,
    // other forks' 2xx (64*T1 on any transport, RFC 3261 13.2.2.4).
    clearTimeout(entry.timeoutTimer);
    const forks = entry.request.method === 'INVITE' && response.status < 300;
    entry.timeoutTimer = setTimeout(() => this.pending.delete(key), entry.peer.protocol === 'udp' || forks ? SIP_TRANSACTION_TIMEOUT : 0);
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

  /** A 2xx after the first: our ACK again when it is the same fork's, else handed over once per other fork. */
  private otherAnswer(entry: Pending, response: SipResponse): void {
    const tag = toTag(response.headers.get('to'));
    const ack = entry.acks.get(tag);
    if (ack) return this.send(ack.request, ack.peer);
    if (tag === toTag(entry.final!.headers.get('to')) || entry.otherTags.has(tag)) return;
    entry.otherTags.add(tag);
    entry.onOtherAnswer?.(response);
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

/** The tag of a To header value ('' when it has none). */
function toTag(to: string | undefined): string {
  return /;\s*tag=([^;>\s]+)/i.exec(to ?? '')?.[1] ?? '';
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
