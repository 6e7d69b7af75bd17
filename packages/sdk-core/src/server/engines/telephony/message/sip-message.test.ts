import { describe, expect, it } from 'vitest';
import { parseSipMessage, serializeSipMessage, SipParseError } from './sip-message.js';
import { parseNameAddress, parseUri, parseVia } from './sip-address.js';
import { SipStreamFramer } from '../transport/sip-stream-framer.js';

const invite = [
  'INVITE sip:+15550000@10.0.0.1 SIP/2.0',
  'v: SIP/2.0/UDP 10.0.0.2:5062;branch=z9hG4bK1;rport, SIP/2.0/TCP proxy:5060;branch=z9hG4bK0',
  'f: "Ann, B" <sip:+15550100@10.0.0.2>;tag=a1',
  't: <sip:+15550000@10.0.0.1>',
  'i: abc@10.0.0.2',
  'CSeq: 7 INVITE',
  'Subject: folded',
  ' line',
  'l: 4',
  '',
  'v=0\r\nextra',
].join('\r\n');

describe('SIP messages', () => {
  it('reads compact headers, folded lines, Via lists and a body cut at Content-Length', () => {
    const message = parseSipMessage(Buffer.from(invite));
    expect(message.kind).toBe('request');
    if (message.kind !== 'request') return;
    expect(message.method).toBe('INVITE');
    expect(message.headers.getAll('via')).toHaveLength(2);
    expect(parseVia(message.headers.get('via')!)).toMatchObject({ transport: 'UDP', host: '10.0.0.2', port: 5062, params: { branch: 'z9hG4bK1', rport: '' } });
    expect(parseNameAddress(message.headers.get('from')!)).toEqual({ display: 'Ann, B', uri: 'sip:+15550100@10.0.0.2', params: { tag: 'a1' } });
    expect(message.headers.get('subject')).toBe('folded line');
    expect(message.body.toString()).toBe('v=0\r');
    const again = parseSipMessage(serializeSipMessage(message));
    expect(again.headers.get('call-id')).toBe('abc@10.0.0.2');
  });

  it.each([
    ['a bad start line', 'HELLO\r\n\r\n'],
    ['a CSeq that is not a number', invite.replace('CSeq: 7 INVITE', 'CSeq: x INVITE')],
    ['a CSeq of another method', invite.replace('CSeq: 7 INVITE', 'CSeq: 7 BYE')],
    ['no Call-ID', invite.replace('i: abc@10.0.0.2\r\n', '')],
    ['a Content-Length beyond the body', invite.replace('l: 4', 'l: 400')],
    ['a header line without a colon', invite.replace('Subject: folded', 'Subject folded')],
  ])('refuses %s', (_, text) => {
    expect(() => parseSipMessage(Buffer.from(text))).toThrow(SipParseError);
  });

  it('reads sip and tel URIs', () => {
    expect(parseUri('sip:+1555@[::1]:5070;transport=tcp')).toMatchObject({ user: '+1555', host: '::1', port: 5070, params: { transport: 'tcp' } });
    expect(parseUri('tel:+15550100')).toMatchObject({ scheme: 'tel', user: '+15550100' });
    expect(() => parseUri('http://example.com')).toThrow(SipParseError);
  });

  it('frames a TCP stream by Content-Length, across chunks and keep-alives', () => {
    const framer = new SipStreamFramer();
    const one = Buffer.from(invite.replace('l: 4', 'l: 3'));
    const whole = Buffer.concat([Buffer.from('\r\n\r\n'), one, one]);
    const frames = [...framer.push(whole.subarray(0, 50)), ...framer.push(whole.subarray(50))];
    expect(frames).toHaveLength(2);
    expect(() => new SipStreamFramer().push(Buffer.from('OPTIONS sip:x SIP/2.0\r\nVia: a\r\n\r\n'))).toThrow(/Content-Length/);
  });
});
