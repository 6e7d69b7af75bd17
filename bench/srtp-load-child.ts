/**
 * The callers of the sip-security bench, in a process of their own (their CPU is not the server's): N calls to the
 * endpoint, each streaming 20 ms PCMU packets for the hold and receiving what comes back, plain RTP or SRTP (SDES)
 * with the endpoint's own SRTP and SDP parts, so both modes cost the callers the same. Prints one JSON line when the
 * calls are up (`{"up":n}`) and one when they are done (`{"received":[...],"unauthenticated":n}`). Each caller's
 * media is an RtpSession of the endpoint (the same encoder, decoder and SRTP as the server side).
 *
 * Run by sip-security.bench.ts: `node --import tsx srtp-load-child.ts <sipPort> <number> <plain|srtp> <calls> <holdS>`.
 */
import { createSocket, type Socket } from 'node:dgram';
import { RtpSession } from '../packages/sdk-core/src/server/engines/telephony/rtp/rtp-session.js';
import { negotiate, offerSecurity, writeSdp } from '../packages/sdk-core/src/server/engines/telephony/sdp/sdp-negotiation.js';

const [sipPort, number, mode, callCount, holdSeconds] = process.argv.slice(2);
const calls = Number(callCount);
const holdMs = Number(holdSeconds) * 1000;
const secure = mode === 'srtp';

interface Caller {
  sip: Socket;
  rtp: RtpSession;
  bye(): void;
}

async function bind(): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

async function call(index: number): Promise<Caller> {
  const sip = await bind();
  const rtp = await RtpSession.open('127.0.0.1', { audio: () => undefined, dtmf: () => undefined });
  const sdp = writeSdp({
    address: '127.0.0.1',
    port: rtp.port,
    sessionId: index,
    version: 1,
    codecs: [{ name: 'PCMU', payloadType: 0, clockRate: 8000, channels: 1 }],
    dtmfPayloadType: undefined,
    direction: 'sendrecv',
    ...offerSecurity(secure ? 'required' : 'disabled', rtp.localKeys),
  });
  const callId = `load-${mode}-${index}-${Date.now()}`;
  const local = `127.0.0.1:${sip.address().port}`;
  const head = (method: string, cseq: number, to: string) => [
    `${method} sip:${number}@127.0.0.1:${sipPort} SIP/2.0`,
    `Via: SIP/2.0/UDP ${local};branch=z9hG4bK${method}${index}${cseq}${Date.now()};rport`,
    `From: <sip:+1555${String(index).padStart(7, '0')}@127.0.0.1>;tag=load${index}`,
    `To: ${to}`,
    `Call-ID: ${callId}`,
    `CSeq: ${cseq} ${method}`,
    `Contact: <sip:caller@${local}>`,
    'Max-Forwards: 70',
  ];
  const send = (lines: string[], body = '') =>
    sip.send(Buffer.from([...lines, `Content-Length: ${Buffer.byteLength(body)}`, '', body].join('\r\n')), Number(sipPort), '127.0.0.1');
  const answer = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`call ${index}: no answer`)), 30_000);
    sip.on('message', (data) => {
      const text = data.toString('utf8');
      if (/^SIP\/2\.0 [2-6]\d\d/.test(text) && text.includes(' INVITE\r\n')) {
        clearTimeout(timer);
        if (text.startsWith('SIP/2.0 200')) resolve(text);
        else reject(new Error(`call ${index}: ${text.split('\r\n')[0]}`));
      }
    });
    send([...head('INVITE', 1, `<sip:${number}@127.0.0.1>`), 'Content-Type: application/sdp'], sdp);
  });
  const to = /^To: (.*)$/m.exec(answer)![1]!.trim();
  send(head('ACK', 1, to));
  rtp.configure(negotiate(answer.slice(answer.indexOf('\r\n\r\n') + 4), ['PCMU'], secure ? 'required' : 'disabled'));
  return { sip, rtp, bye: () => send(head('BYE', 2, to)) };
}

const callers: Caller[] = [];
for (let index = 0; index < calls; index += 1) {
  callers.push(await call(index));
  // Ten calls a second, as the telephony bench's SIPp does.
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(JSON.stringify({ up: callers.length }));
// A 440 Hz tone, 20 ms at 48 kHz per packet, as the telephony bench's SIPp streams.
const frame = Int16Array.from({ length: 960 }, (_, index) => Math.round(Math.sin((2 * Math.PI * 440 * index) / 48_000) * 8000));
const tick = setInterval(() => {
  for (const caller of callers) caller.rtp.sendFrame(frame);
}, 20);
await new Promise((resolve) => setTimeout(resolve, holdMs));
clearInterval(tick);
for (const caller of callers) caller.bye();
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(
  JSON.stringify({
    received: callers.map((caller) => caller.rtp.stats.received),
    unauthenticated: callers.reduce((sum, caller) => sum + caller.rtp.stats.unauthenticated, 0),
  }),
);
for (const caller of callers) {
  caller.sip.close();
  caller.rtp.close();
}
