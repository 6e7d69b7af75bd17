/**
 * What TLS and SRTP cost the SIP endpoint (issue 32, decision 0107's telephony bench method):
 * 1. Call setup over TLS: INVITE -> 200 OK on an open TLS connection, and with a new connection per call (handshake
 *    included), against the same INVITE over UDP in the same run (30 calls each).
 * 2. CPU per concurrent call, media only, plain RTP against SRTP: a child process (srtp-load-child.ts) holds N calls
 *    (default 50) streaming 20 ms PCMU both ways for a while (default 40 s), each bridged into a room with nobody
 *    else; the server process's CPU over the hold minus its idle CPU, per call. Both modes use the same caller code,
 *    only the encryption differs; the modes run twice, alternating (plain, srtp, plain, srtp).
 *
 * Run: `pnpm bench sip-security`; SECURE_CALLS (50), SECURE_HOLD_S (40). Needs openssl (a throwaway certificate).
 */
import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import { connect, type TLSSocket } from 'node:tls';
import { SipClient, type CreateSipInboundTrunkOptions } from 'livekit-server-sdk';
import { createTestPlatform, opensslAvailable, selfSignedCertificate } from '@palaver/sdk-core/testing';
import { fixed, median, percentile } from './statistics.js';

const CALLS = Number(process.env.SECURE_CALLS ?? 50);
const HOLD_S = Number(process.env.SECURE_HOLD_S ?? 40);
const NUMBER = '+15554000';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

if (!opensslAvailable()) {
  console.log('[skip] sip-security bench: openssl is not installed (apt-get install -y openssl)');
  process.exit(0);
}
const { certFile, keyFile, cert } = selfSignedCertificate();

const keys = { apiKey: 'bench-sip-security', apiSecret: 'bench-sip-security-secret-0123456789abcdef' };
const test = await createTestPlatform({
  config: { livekit: keys, sip: { port: 0, tlsPort: 0, tlsCert: certFile, tlsKey: keyFile, maxCalls: CALLS + 20, invitesPerSecond: Math.max(100, CALLS * 2) } },
});
const url = await test.server.listen(0, '127.0.0.1');
const telephony = test.server.services.telephony!;
const sip = new SipClient(url, keys.apiKey, keys.apiSecret);
console.log(`SIP endpoint on 127.0.0.1:${telephony.port} (TLS ${telephony.tlsPort}); figures on a shared, loaded 2-core machine`);
const trunk = await sip.createSipInboundTrunk('bench security', [NUMBER], {
  // SIP_MEDIA_ENCRYPT_ALLOW (livekit.SIPMediaEncryption; @livekit/protocol is not a bench dependency): plain or SRTP callers.
  mediaEncryption: 1 as NonNullable<CreateSipInboundTrunkOptions['mediaEncryption']>,
});
const rule = await sip.createSipDispatchRule({ type: 'individual', roomPrefix: 'secure' }, { trunkIds: [trunk.sipTrunkId] });

const SDP = ['v=0', 'o=bench 1 1 IN IP4 127.0.0.1', 's=-', 'c=IN IP4 127.0.0.1', 't=0 0', 'm=audio 40000 RTP/AVP 0', 'a=rtpmap:0 PCMU/8000', ''].join('\r\n');

function invite(transport: 'UDP' | 'TLS', local: string, callId: string): string {
  return [
    `INVITE sip:${NUMBER}@127.0.0.1${transport === 'TLS' ? ';transport=tls' : ''} SIP/2.0`,
    `Via: SIP/2.0/${transport} ${local};branch=z9hG4bK${callId};rport`,
    'From: <sip:+15550100@127.0.0.1>;tag=bench',
    `To: <sip:${NUMBER}@127.0.0.1>`,
    `Call-ID: ${callId}`,
    'CSeq: 1 INVITE',
    `Contact: <sip:+15550100@${local}${transport === 'TLS' ? ';transport=tls' : ''}>`,
    'Content-Type: application/sdp',
    `Content-Length: ${Buffer.byteLength(SDP)}`,
    '',
    SDP,
  ].join('\r\n');
}

/** ACK and BYE of an answered call (no waiting for the BYE's answer). */
function hangUp(transport: 'UDP' | 'TLS', local: string, response: string, write: (text: string) => void): void {
  const to = /^To: (.*)$/m.exec(response)![1]!.trim();
  const callId = /^Call-ID: (.*)$/m.exec(response)![1]!.trim();
  for (const [method, seq] of [
    ['ACK', 1],
    ['BYE', 2],
  ] as const) {
    write(
      [
        `${method} sip:palaver@127.0.0.1 SIP/2.0`,
        `Via: SIP/2.0/${transport} ${local};branch=z9hG4bK${method}${callId}`,
        'From: <sip:+15550100@127.0.0.1>;tag=bench',
        `To: ${to}`,
        `Call-ID: ${callId}`,
        `CSeq: ${seq} ${method}`,
        'Content-Length: 0',
        '',
        '',
      ].join('\r\n'),
    );
  }
}

/** Collects SIP responses from a TLS stream (Content-Length framed) and resolves the next final answer to an INVITE. */
function tlsAnswers(socket: TLSSocket): () => Promise<string> {
  let buffer = '';
  const waiting: Array<(text: string) => void> = [];
  socket.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('latin1');
    for (;;) {
      const end = buffer.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/^Content-Length:\s*(\d+)/im.exec(buffer.slice(0, end))?.[1] ?? 0);
      if (buffer.length < end + 4 + length) return;
      const message = buffer.slice(0, end + 4 + length);
      buffer = buffer.slice(end + 4 + length);
      if (/^SIP\/2\.0 [2-6]\d\d/.test(message) && message.includes(' INVITE\r\n')) waiting.shift()?.(message);
    }
  });
  return () => new Promise<string>((resolve) => waiting.push(resolve));
}

async function openTls(): Promise<TLSSocket> {
  const socket = connect({ host: '127.0.0.1', port: telephony.tlsPort, ca: cert });
  await new Promise<void>((resolve, reject) => {
    socket.once('secureConnect', resolve);
    socket.once('error', reject);
  });
  return socket;
}

async function setupOverTls(reuse: boolean): Promise<number[]> {
  const times: number[] = [];
  interface Connection {
    socket: TLSSocket;
    next: () => Promise<string>;
  }
  const open = async (): Promise<Connection> => {
    const socket = await openTls();
    return { socket, next: tlsAnswers(socket) };
  };
  let shared: Connection | undefined;
  for (let index = 0; index < 30; index += 1) {
    const started = performance.now();
    const connection: Connection = shared ?? (await open());
    if (reuse) shared = connection;
    const local = `127.0.0.1:${connection.socket.localPort}`;
    const answered = connection.next();
    connection.socket.write(invite('TLS', local, `tls-${reuse}-${index}-${Date.now()}`));
    const response = await answered;
    times.push(performance.now() - started);
    if (!response.startsWith('SIP/2.0 200')) throw new Error(`TLS call setup: ${response.split('\r\n')[0]}`);
    hangUp('TLS', local, response, (text) => connection.socket.write(text));
    await sleep(100);
    if (!reuse) connection.socket.end();
  }
  shared?.socket.end();
  return times;
}

async function setupOverUdp(): Promise<number[]> {
  const times: number[] = [];
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const local = `127.0.0.1:${socket.address().port}`;
  for (let index = 0; index < 30; index += 1) {
    const started = performance.now();
    const response = await new Promise<string>((resolve) => {
      const listener = (data: Buffer) => {
        const text = data.toString('latin1');
        if (/^SIP\/2\.0 [2-6]\d\d/.test(text) && text.includes(' INVITE\r\n')) {
          socket.off('message', listener);
          resolve(text);
        }
      };
      socket.on('message', listener);
      socket.send(invite('UDP', local, `udp-${index}-${Date.now()}`), telephony.port, '127.0.0.1');
    });
    times.push(performance.now() - started);
    if (!response.startsWith('SIP/2.0 200')) throw new Error(`UDP call setup: ${response.split('\r\n')[0]}`);
    hangUp('UDP', local, response, (text) => socket.send(text, telephony.port, '127.0.0.1'));
    await sleep(100);
  }
  socket.close();
  return times;
}

async function callSetup(): Promise<void> {
  const udp = await setupOverUdp();
  const tls = await setupOverTls(true);
  const handshake = await setupOverTls(false);
  console.log(`call setup INVITE -> 200 OK over TLS, one open connection (30 calls): p50 ${fixed(median(tls))} ms, p90 ${fixed(percentile(tls, 90))} ms`);
  console.log(`  with a new TLS connection per call (handshake included): p50 ${fixed(median(handshake))} ms, p90 ${fixed(percentile(handshake, 90))} ms`);
  console.log(`  baseline, the same INVITE over UDP: p50 ${fixed(median(udp))} ms; TLS is ${fixed(median(tls) / median(udp), 2)}x`);
}

/** The server's CPU per call while the child holds CALLS calls in `mode`. */
async function cpuPerCall(mode: 'plain' | 'srtp'): Promise<number> {
  const idleStart = process.cpuUsage();
  await sleep(3000);
  const idle = process.cpuUsage(idleStart);
  const idleMsPerS = (idle.user + idle.system) / 1000 / 3;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(new URL('./srtp-load-child.ts', import.meta.url)), String(telephony.port), NUMBER, mode, String(CALLS), String(HOLD_S)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines: Array<Record<string, unknown>> = [];
  let pending = '';
  child.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop()!;
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part) as Record<string, unknown>);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  while (!lines.some((line) => 'up' in line)) {
    if (child.exitCode !== null) throw new Error(`the ${mode} callers stopped (exit ${child.exitCode})`);
    await sleep(100);
  }
  await sleep(2000);
  const active = telephony.calls().filter((call) => call.state === 'active');
  const windowS = Math.max(5, HOLD_S - 6);
  const before = active.map((call) => call.rtp.stats.received);
  const cpuStart = process.cpuUsage();
  await sleep(windowS * 1000);
  const cpu = process.cpuUsage(cpuStart);
  const received = active.map((call, index) => call.rtp.stats.received - before[index]!);
  const rejected = active.reduce((sum, call) => sum + call.rtp.stats.unauthenticated, 0);
  const encrypted = active.filter((call) => call.rtp.encrypted).length;
  const code = await exited;
  const done = lines.find((line) => 'received' in line) as { received: number[]; unauthenticated: number } | undefined;
  const busyMsPerS = (cpu.user + cpu.system) / 1000 / windowS;
  const perCall = (busyMsPerS - idleMsPerS) / active.length;
  console.log(
    `  ${mode}: ${fixed(perCall, 2)} ms CPU per second per call (${active.length} calls, ${encrypted} encrypted, over ${windowS} s; idle ${fixed(idleMsPerS, 1)}, busy ${fixed(busyMsPerS, 1)} ms/s); ` +
      `received per call lowest ${Math.min(...received)} of ${windowS * 50}, failed checks ${rejected}; callers exit ${code}, heard back per call lowest ${done ? Math.min(...done.received) : '?'}, failed checks ${done?.unauthenticated ?? '?'}`,
  );
  while (telephony.activeCalls > 0) await sleep(200);
  return perCall;
}

try {
  await callSetup();
  console.log(`CPU per concurrent call, media only (${CALLS} calls held ${HOLD_S} s), plain RTP against SRTP, alternating:`);
  const plain: number[] = [];
  const srtp: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    plain.push(await cpuPerCall('plain'));
    srtp.push(await cpuPerCall('srtp'));
  }
  console.log(
    `  runs: plain ${plain.map((value) => fixed(value, 2)).join(', ')}, SRTP ${srtp.map((value) => fixed(value, 2)).join(', ')} ms/s per call; plain median ${fixed(median(plain), 2)} ms/s per call (${fixed(1000 / median(plain), 0)} calls per core), SRTP median ${fixed(median(srtp), 2)} ms/s per call (${fixed(1000 / median(srtp), 0)} calls per core): SRTP costs ${fixed(median(srtp) / median(plain), 2)}x`,
  );
} finally {
  await sip.deleteSipDispatchRule(rule.sipDispatchRuleId).catch(() => undefined);
  await sip.deleteSipTrunk(trunk.sipTrunkId).catch(() => undefined);
  await test.close();
}
