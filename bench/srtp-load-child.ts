/**
 * The callers of the sip-security bench, in a process of their own (their CPU is not the server's): N calls to the
 * endpoint, each streaming 20 ms PCMU packets for the hold and receiving what comes back, plain RTP or SRTP (SDES)
 * with the endpoint's own SRTP and SDP parts, so both modes cost the callers the same. Prints one JSON line when the
 * calls are up (`{"up":n}`) and one when they are done (`{"received":[...],"unauthenticated":n}`). The callers
 * are kept cheap so they keep up on a loaded machine: one PCMU packet serialized once per call and sent every 20 ms
 * (new sequence number and timestamp, SRTP-protected with the endpoint's own SrtpProtection), and what comes back
 * counted (SRTP: checked and decrypted, as a phone would), never decoded.
 *
 * Run by sip-security.bench.ts: `node --import tsx srtp-load-child.ts <sipPort> <number> <plain|srtp> <calls> <holdS>`.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createCallCodec, negotiate, newSrtpKeys, offerSecurity, SrtpProtection, writeSdp } from '@palaver/sdk-core/testing';

const [sipPort, number, mode, callCount, holdSeconds] = process.argv.slice(2);
const calls = Number(callCount);
const holdMs = Number(holdSeconds) * 1000;
const secure = mode === 'srtp';

interface Caller {
  sip: Socket;
  rtp: Socket;
  remote: { address: string; port: number };
  srtp: SrtpProtection | undefined;
  /** The call's RTP packet (PCMU, 160 bytes of a 440 Hz tone): sequence number and timestamp rewritten per send. */
  packet: Buffer;
  received: number;
  unauthenticated: number;
  bye(): void;
}

async function bind(): Promise<Socket> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

async function call(index: number): Promise<Caller> {
  const [sip, rtp] = [await bind(), await bind()];
  const keys = newSrtpKeys();
  const sdp = writeSdp({
    address: '127.0.0.1',
    port: rtp.address().port,
    sessionId: index,
    version: 1,
    codecs: [{ name: 'PCMU', payloadType: 0, clockRate: 8000, channels: 1 }],
    dtmfPayloadType: undefined,
    direction: 'sendrecv',
    ...offerSecurity(secure ? 'required' : 'disabled', keys),
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
  const media = negotiate(answer.slice(answer.indexOf('\r\n\r\n') + 4), ['PCMU'], secure ? 'required' : 'disabled');
  const packet = Buffer.concat([Buffer.from([0x80, 0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]), TONE]);
  packet.writeUInt32BE(0x1000 + index, 8);
  const caller: Caller = {
    sip,
    rtp,
    remote: { address: media.remoteAddress, port: media.remotePort },
    srtp: media.crypto ? new SrtpProtection(keys, media.crypto.remote) : undefined,
    packet,
    received: 0,
    unauthenticated: 0,
    bye: () => send(head('BYE', 2, to)),
  };
  rtp.on('message', (data) => {
    if (!caller.srtp || caller.srtp.unprotect(data)) caller.received += 1;
    else caller.unauthenticated += 1;
  });
  return caller;
}

/** 20 ms of a 440 Hz tone in G.711 u-law (what the telephony bench's SIPp streams), by the endpoint's own encoder. */
const TONE = Buffer.from(
  createCallCodec({ name: 'PCMU', payloadType: 0, clockRate: 8000, channels: 1 }).encode(
    Int16Array.from({ length: 960 }, (_, index) => Math.round(Math.sin((2 * Math.PI * 440 * index) / 48_000) * 8000)),
  ),
);

const callers: Caller[] = [];
for (let index = 0; index < calls; index += 1) {
  callers.push(await call(index));
  // Ten calls a second, as the telephony bench's SIPp does.
  await new Promise((resolve) => setTimeout(resolve, 100));
}
console.log(JSON.stringify({ up: callers.length }));
let sequence = 0;
const tick = setInterval(() => {
  sequence += 1;
  for (const caller of callers) {
    caller.packet.writeUInt16BE(sequence & 0xffff, 2);
    caller.packet.writeUInt32BE((sequence * 160) >>> 0, 4);
    caller.rtp.send(caller.srtp ? caller.srtp.protectPacket(caller.packet) : caller.packet, caller.remote.port, caller.remote.address);
  }
}, 20);
await new Promise((resolve) => setTimeout(resolve, holdMs));
clearInterval(tick);
for (const caller of callers) caller.bye();
await new Promise((resolve) => setTimeout(resolve, 500));
console.log(
  JSON.stringify({
    received: callers.map((caller) => caller.received),
    unauthenticated: callers.reduce((sum, caller) => sum + caller.unauthenticated, 0),
  }),
);
for (const caller of callers) {
  caller.sip.close();
  caller.rtp.close();
}
