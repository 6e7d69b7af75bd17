import { afterEach, describe, expect, it } from 'vitest';
import { SipHeaders, type SipRequest, type SipResponse } from '../message/sip-message.js';
import type { SipPeer } from '../transport/sip-transport.js';
import { ClientTransactions } from './client-transactions.js';

const peer: SipPeer = { protocol: 'tcp', address: '127.0.0.1', port: 5060 };

function invite(): SipRequest {
  const headers = new SipHeaders([
    ['From', '<sip:palaver@127.0.0.1>;tag=ours'],
    ['To', '<sip:+15550123@127.0.0.1>'],
    ['Call-ID', 'fork@palaver'],
    ['CSeq', '1 INVITE'],
  ]);
  return { kind: 'request', method: 'INVITE', uri: 'sip:+15550123@127.0.0.1', headers, body: Buffer.alloc(0) };
}

/** A 200 OK to the INVITE as sent (its Via), from the callee whose To tag is `tag`. */
function ok(sent: SipRequest, tag: string): SipResponse {
  const headers = new SipHeaders([
    ['Via', sent.headers.get('via')!],
    ['From', sent.headers.get('from')!],
    ['To', `<sip:+15550123@127.0.0.1>;tag=${tag}`],
    ['Call-ID', 'fork@palaver'],
    ['CSeq', '1 INVITE'],
  ]);
  return { kind: 'response', status: 200, reason: 'OK', headers, body: Buffer.alloc(0) };
}

function ack(tag: string): SipRequest {
  const headers = new SipHeaders([
    ['To', `<sip:+15550123@127.0.0.1>;tag=${tag}`],
    ['CSeq', '1 ACK'],
  ]);
  return { kind: 'request', method: 'ACK', uri: `sip:${tag}@127.0.0.1`, headers, body: Buffer.alloc(0) };
}

/** The 2xx answers of a forked INVITE (RFC 3261 13.2.2.4) as the client transactions see them. */
describe('client transactions: a forked INVITE answered twice', () => {
  let transactions: ClientTransactions | undefined;
  afterEach(() => transactions?.close());

  it('hands the other fork over once, and repeats each fork its own ACK when its 2xx is retransmitted', async () => {
    const sent: SipRequest[] = [];
    transactions = new ClientTransactions(
      (message) => sent.push(message),
      () => 'SIP/2.0/TCP 127.0.0.1:5070',
    );
    const others: string[] = [];
    const answered = transactions.request(invite(), peer, undefined, (response) => others.push(response.headers.get('to')!));
    const [outgoing] = sent;
    expect(transactions.handle(ok(outgoing!, 'forkA'))).toBe(true);
    expect((await answered).headers.get('to')).toMatch(/tag=forkA/);
    transactions.rememberAck(outgoing!, ack('forkA'), peer);

    // The other callee answers: handed over (the dialog ACKs it and sends BYE), once, even when retransmitted before its ACK.
    expect(transactions.handle(ok(outgoing!, 'forkB'))).toBe(true);
    expect(transactions.handle(ok(outgoing!, 'forkB'))).toBe(true);
    expect(others).toEqual(['<sip:+15550123@127.0.0.1>;tag=forkB']);
    transactions.rememberAck(outgoing!, ack('forkB'), peer);

    sent.length = 0;
    transactions.handle(ok(outgoing!, 'forkB'));
    transactions.handle(ok(outgoing!, 'forkA'));
    expect(sent.map((message) => message.uri)).toEqual(['sip:forkB@127.0.0.1', 'sip:forkA@127.0.0.1']);
    expect(others).toHaveLength(1);
  });
});
