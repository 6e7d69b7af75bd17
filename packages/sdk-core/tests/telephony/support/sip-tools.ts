import { execFileSync, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { fileURLToPath } from 'node:url';
import * as alawmulawModule from 'alawmulaw';
import { requireComponent } from '../../support/components.js';

const alawmulaw = (alawmulawModule as unknown as { default?: typeof alawmulawModule }).default ?? alawmulawModule;

function installed(binary: string): boolean {
  try {
    execFileSync('which', [binary], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** SIPp (Debian `sip-tester`) is there, or the test is skipped (fails under CI). */
export function requireSipp(): boolean {
  return requireComponent('sipp', installed('sipp'), 'apt-get install -y sip-tester');
}

export function requireBaresip(): boolean {
  return requireComponent('baresip', installed('baresip'), 'apt-get install -y baresip');
}

export function scenario(name: string): string {
  return fileURLToPath(new URL(`../scenarios/${name}`, import.meta.url));
}

export interface SippResult {
  code: number | null;
  output: string;
}

/** Runs SIPp against the endpoint until its calls are done (`-m`); exit code 0 = every call succeeded. */
export function runSipp(port: number, args: string[], timeoutMs = 120_000): Promise<SippResult> {
  return new Promise((resolve) => {
    const child = spawn('sipp', [`127.0.0.1:${port}`, '-i', '127.0.0.1', '-p', '0', '-nostdin', '-timeout', `${Math.ceil(timeoutMs / 1000)}s`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/**
 * Runs SIPp as the called party on `port` (a scenario that starts by receiving); resolves when its calls are done.
 * `cwd` is where it runs (where a scenario's `rtp_stream` file is).
 */
export function runSippServer(port: number, args: string[], timeoutMs = 60_000, cwd?: string): Promise<SippResult> {
  return new Promise((resolve) => {
    const child = spawn('sipp', ['-i', '127.0.0.1', '-p', String(port), '-nostdin', '-timeout', `${Math.ceil(timeoutMs / 1000)}s`, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(cwd ? { cwd } : {}),
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A UDP port free right now (for a party that must listen before the call). */
export async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  await new Promise<void>((resolve) => socket.close(resolve));
  return port;
}

/**
 * Sends one raw SIP request over UDP (the test as a misbehaving peer) and collects the responses until a final
 * one, or until `waitMs` passes.
 */
export function rawSip(port: number, message: string | Buffer, waitMs = 3000): Promise<string[]> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const responses: string[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.close();
      resolve(responses);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('message', (data) => {
      const text = data.toString('utf8');
      responses.push(text);
      const status = Number(/^SIP\/2\.0 (\d{3})/.exec(text)?.[1] ?? 0);
      if (status >= 200) done();
    });
    socket.bind(0, '127.0.0.1', () => {
      const local = socket.address().port;
      const text = typeof message === 'string' ? Buffer.from(message.replaceAll('{port}', String(local)).replace(/\r?\n/g, '\r\n')) : message;
      socket.send(text, port, '127.0.0.1');
    });
  });
}

export function statusOf(response: string | undefined): number {
  return Number(/^SIP\/2\.0 (\d{3})/.exec(response ?? '')?.[1] ?? 0);
}

/** A raw SIP peer over UDP: the test writes requests by hand and waits for what comes back. */
export class RawSipPeer {
  private readonly socket = createSocket('udp4');
  readonly received: string[] = [];
  private waiters: Array<() => void> = [];

  static async open(): Promise<RawSipPeer> {
    const peer = new RawSipPeer();
    await new Promise<void>((resolve) => peer.socket.bind(0, '127.0.0.1', resolve));
    peer.socket.on('message', (data) => {
      peer.received.push(data.toString('utf8'));
      for (const waiter of peer.waiters.splice(0)) waiter();
    });
    return peer;
  }

  get port(): number {
    return this.socket.address().port;
  }

  send(port: number, text: string): void {
    const body = text.replaceAll('{port}', String(this.port)).replace(/\r?\n/g, '\r\n');
    this.socket.send(Buffer.from(body), port, '127.0.0.1');
  }

  /** The first message (since `from`) matching `test`. */
  async waitFor(test: (message: string) => boolean, timeoutMs = 5000, from = 0): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.slice(from).find(test);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching SIP message; got:\n${this.received.join('\n---\n')}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.socket.close();
  }
}

/** An INVITE as a phone would send it; `{port}` is the peer's port. */
export function inviteText(options: { to: string; callId: string; branch: string; sdp?: string; cseq?: number; headers?: string[] }): string {
  const sdp =
    options.sdp ??
    [
      'v=0',
      'o=caller 1 1 IN IP4 127.0.0.1',
      's=-',
      'c=IN IP4 127.0.0.1',
      't=0 0',
      'm=audio 40000 RTP/AVP 0 101',
      'a=rtpmap:0 PCMU/8000',
      'a=rtpmap:101 telephone-event/8000',
      '',
    ].join('\r\n');
  return [
    `INVITE sip:${options.to}@127.0.0.1 SIP/2.0`,
    `Via: SIP/2.0/UDP 127.0.0.1:{port};branch=${options.branch};rport`,
    `From: <sip:+15550100@127.0.0.1>;tag=caller1`,
    `To: <sip:${options.to}@127.0.0.1>`,
    `Call-ID: ${options.callId}`,
    `CSeq: ${options.cseq ?? 1} INVITE`,
    'Contact: <sip:+15550100@127.0.0.1:{port}>',
    'Max-Forwards: 70',
    ...(options.headers ?? []),
    'Content-Type: application/sdp',
    `Content-Length: ${Buffer.byteLength(sdp)}`,
    '',
    sdp,
  ].join('\r\n');
}

/** A G.711 u-law WAV (format 7, 8 kHz mono) of `samples`: what SIPp's `rtp_stream` plays as payload type 0. */
export function mulawWav(samples: Int16Array): Buffer {
  const data = Buffer.from(alawmulaw.mulaw.encode(samples));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(7, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}
