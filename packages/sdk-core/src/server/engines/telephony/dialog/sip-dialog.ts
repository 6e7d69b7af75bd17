import { randomBytes } from 'node:crypto';
import { SipHeaders, type SipRequest } from '../message/sip-message.js';
import { parseNameAddress, formatNameAddress } from '../message/sip-address.js';
import type { SipPeer } from '../transport/sip-transport.js';
import { isLooseRoute } from './route-set.js';

export function newTag(): string {
  return randomBytes(6).toString('hex');
}

/**
 * A dialog (RFC 3261 section 12): the two parties' addresses and tags, the remote target, and our CSeq. It
 * builds the in-dialog requests (BYE, re-INVITE, REFER) and checks the other side's CSeq order.
 */
export class SipDialog {
  /** Our CSeq counter: one object shared with the early dialogs {@link early} makes, so every request's CSeq is above the last. */
  private readonly seq: { local: number };
  private remoteSeq: number | undefined;
  /** The proxies our in-dialog requests go through (Route headers, RFC 3261 12.2.1.1); {@link peer} is the first. */
  routeSet: string[] = [];

  constructor(
    readonly callId: string,
    /** Our From/To value, with our tag. */
    readonly local: string,
    /** Theirs, with their tag. */
    public remote: string,
    /** Their Contact URI: where in-dialog requests go. */
    public remoteTarget: string,
    /** The transport and address in-dialog requests are sent to. */
    public peer: SipPeer,
    readonly contact: string,
    /** Our first CSeq less one, or the counter of the dialog this one is an early sibling of. */
    initialSeq: number | { local: number } = 1,
  ) {
    this.seq = typeof initialSeq === 'number' ? { local: initialSeq } : initialSeq;
  }

  /**
   * Another early dialog of the same INVITE (RFC 3261 12.1.2, 13.2.2.4: a forking proxy's callees each answer with
   * their own To tag): ours, theirs from `remote`, sharing this dialog's CSeq counter.
   */
  early(remote: string, remoteTarget: string, routeSet: string[], peer: SipPeer): SipDialog {
    const dialog = new SipDialog(this.callId, this.local, formatNameAddress(parseNameAddress(remote)), remoteTarget, peer, this.contact, this.seq);
    dialog.routeSet = routeSet;
    return dialog;
  }

  get localTag(): string {
    return parseNameAddress(this.local).params['tag'] ?? '';
  }

  get remoteTag(): string {
    return parseNameAddress(this.remote).params['tag'] ?? '';
  }

  /** Their To tag learnt from a 2xx (outbound calls). */
  setRemote(value: string): void {
    const address = parseNameAddress(value);
    this.remote = formatNameAddress(address);
  }

  /** A request from the other side in this dialog: false when its CSeq is older than the last one (500). */
  acceptRemoteSeq(seq: number): boolean {
    if (this.remoteSeq !== undefined && seq < this.remoteSeq) return false;
    this.remoteSeq = seq;
    return true;
  }

  request(method: string, options: { headers?: Array<[string, string]>; body?: Buffer; seq?: number } = {}): SipRequest {
    const seq = options.seq ?? (this.seq.local += 1);
    const target = this.target();
    const headers = new SipHeaders([
      ['From', this.local],
      ['To', this.remote],
      ['Call-ID', this.callId],
      ['CSeq', `${seq} ${method}`],
      ['Max-Forwards', '70'],
      ...target.routes.map((route): [string, string] => ['Route', route]),
      ['Contact', this.contact],
      ['User-Agent', 'palaver'],
      ...(options.headers ?? []),
    ]);
    return { kind: 'request', method, uri: target.uri, headers, body: options.body ?? Buffer.alloc(0) };
  }

  /** The ACK of a 2xx to an INVITE with CSeq `seq` (RFC 3261 13.2.2.4: a new transaction, same CSeq number). */
  ack(seq: number): SipRequest {
    const target = this.target();
    const headers = new SipHeaders([
      ['From', this.local],
      ['To', this.remote],
      ['Call-ID', this.callId],
      ['CSeq', `${seq} ACK`],
      ['Max-Forwards', '70'],
      ...target.routes.map((route): [string, string] => ['Route', route]),
    ]);
    return { kind: 'request', method: 'ACK', uri: target.uri, headers, body: Buffer.alloc(0) };
  }

  /**
   * The Request-URI and Route headers (RFC 3261 12.2.1.1): the remote target behind loose routers (`;lr`); a strict
   * router's URI as the Request-URI, the remote target last in Route.
   */
  private target(): { uri: string; routes: string[] } {
    const [first, ...rest] = this.routeSet;
    if (!first) return { uri: this.remoteTarget, routes: [] };
    if (isLooseRoute(first)) return { uri: this.remoteTarget, routes: this.routeSet };
    return { uri: parseNameAddress(first).uri, routes: [...rest, `<${this.remoteTarget}>`] };
  }
}
