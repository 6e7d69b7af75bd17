import type { SipRequest, SipResponse } from '../message/sip-message.js';
import { parseVia } from '../message/sip-address.js';
import type { SipPeer } from '../transport/sip-transport.js';
import { SIP_T1, SIP_T2, SIP_TRANSACTION_TIMEOUT } from './timers.js';

type Send = (message: SipResponse, peer: SipPeer) => void;

/** A request being answered: its responses go back to where it came from, retransmitted as RFC 3261 17.2 says. */
export class ServerTransaction {
  private last: SipResponse | undefined;
  private retransmitTimer: NodeJS.Timeout | undefined;
  private giveUpTimer: NodeJS.Timeout | undefined;
  private acknowledged = false;
  private done = false;

  constructor(
    readonly request: SipRequest,
    readonly peer: SipPeer,
    private readonly send: Send,
    private readonly release: () => void,
  ) {}

  get finalSent(): boolean {
    return this.last !== undefined && this.last.status >= 200;
  }

  get lastResponse(): SipResponse | undefined {
    return this.last;
  }

  /**
   * Sends a response. A final answer to an INVITE over UDP is repeated (T1 doubling up to T2) until the ACK
   * comes; `onNoAck` runs when it never does (the call must end).
   */
  respond(response: SipResponse, onNoAck?: () => void): void {
    if (this.done || this.finalSent) return;
    this.last = response;
    this.send(response, this.peer);
    if (response.status < 200) return;
    if (this.request.method === 'INVITE' && !this.acknowledged) {
      if (this.peer.protocol === 'udp') this.retransmit(SIP_T1);
      this.giveUpTimer = setTimeout(() => {
        this.stopRetransmitting();
        if (!this.acknowledged) onNoAck?.();
        this.finish();
      }, SIP_TRANSACTION_TIMEOUT);
    } else {
      // Absorb retransmissions of the request for a while (timer J), then forget it.
      this.giveUpTimer = setTimeout(() => this.finish(), this.peer.protocol === 'udp' ? SIP_TRANSACTION_TIMEOUT : 0);
    }
  }

  /** The ACK for the final response arrived. */
  acknowledge(): void {
    if (this.acknowledged) return;
    this.acknowledged = true;
    this.stopRetransmitting();
    clearTimeout(this.giveUpTimer);
    // Keep absorbing ACK retransmissions briefly (timer I).
    this.giveUpTimer = setTimeout(() => this.finish(), this.peer.protocol === 'udp' ? SIP_T2 + SIP_T1 : 0);
  }

  /** The same request again: repeat the last response (RFC 3261 17.2.1, 17.2.2). */
  retransmitted(): void {
    if (this.last) this.send(this.last, this.peer);
  }

  finish(): void {
    if (this.done) return;
    this.done = true;
    this.stopRetransmitting();
    clearTimeout(this.giveUpTimer);
    this.release();
  }

  private retransmit(interval: number): void {
    this.retransmitTimer = setTimeout(() => {
      if (this.acknowledged || this.done || !this.last) return;
      this.send(this.last, this.peer);
      this.retransmit(Math.min(interval * 2, SIP_T2));
    }, interval);
  }

  private stopRetransmitting(): void {
    clearTimeout(this.retransmitTimer);
    this.retransmitTimer = undefined;
  }
}

/**
 * The server transactions of an endpoint, matched by the top Via's branch and the method (ACK matches the
 * INVITE it acknowledges). Only RFC 3261 branches (`z9hG4bK`) are supported; older peers are answered 400.
 */
export class ServerTransactions {
  private readonly transactions = new Map<string, ServerTransaction>();

  constructor(private readonly send: Send) {}

  get size(): number {
    return this.transactions.size;
  }

  /** The transaction a request belongs to, if it is a retransmission or an ACK of a non-2xx answer. */
  match(request: SipRequest): ServerTransaction | undefined {
    const key = transactionKey(request);
    return key === undefined ? undefined : this.transactions.get(key);
  }

  /**
   * An ACK whose branch matches nothing: a peer that builds a new branch for the ACK of an error answer (RFC
   * 2543 style) still ends that answer's retransmissions, matched by Call-ID and CSeq number.
   */
  matchAck(ack: SipRequest): ServerTransaction | undefined {
    const callId = ack.headers.get('call-id');
    const seq = ack.headers.get('cseq')?.split(/\s+/)[0];
    for (const transaction of this.transactions.values()) {
      const request = transaction.request;
      if (request.method !== 'INVITE' || !transaction.finalSent || (transaction.lastResponse?.status ?? 0) < 300) continue;
      if (request.headers.get('call-id') === callId && request.headers.get('cseq')?.split(/\s+/)[0] === seq) return transaction;
    }
    return undefined;
  }

  begin(request: SipRequest, peer: SipPeer): ServerTransaction {
    const key = transactionKey(request) ?? `${Math.random()}`;
    const transaction = new ServerTransaction(request, peer, this.send, () => {
      if (this.transactions.get(key) === transaction) this.transactions.delete(key);
    });
    this.transactions.set(key, transaction);
    return transaction;
  }

  close(): void {
    for (const transaction of [...this.transactions.values()]) transaction.finish();
  }
}

function transactionKey(request: SipRequest): string | undefined {
  const top = request.headers.get('via');
  if (!top) return undefined;
  const branch = parseVia(top).params['branch'];
  if (!branch) return undefined;
  const method = request.method === 'ACK' ? 'INVITE' : request.method;
  return `${branch}|${method}`;
}
