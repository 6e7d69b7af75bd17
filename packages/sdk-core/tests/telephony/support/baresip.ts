import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWav, encodeWav } from '../../../src/server/engines/speech/codecs/wav.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface BaresipOptions {
  /** What the phone's microphone plays (mono PCM; the call ends when it runs out). */
  microphone: Int16Array;
  /** Its sample rate: the codec's (8000 for G.711, 48000 for Opus, whose aufile source must be stereo too). */
  sampleRate?: number;
  /** Codec modules to load (default G.711 only, so calls are PCMU). */
  codecs?: string[];
  /** Answer incoming calls at once (the outbound tests' callee). */
  autoAnswer?: boolean;
  /** The phone's number (its account's user: baresip answers calls to it, 404 to others); default +15550100. */
  number?: string;
  /** SIP over TLS: the CA file the phone trusts (and its own certificate, to listen for TLS as a callee). */
  tls?: { caFile: string; certificate?: string };
  /** The account's media encryption (`srtp` best effort, `srtp-mand` RTP/SAVP only); loads baresip's srtp module. */
  mediaenc?: 'srtp' | 'srtp-mand';
}

/**
 * Debian's baresip as the phone on the other end: plays a WAV as its microphone (aufile), records what it hears
 * (sndfile: `dump-*-dec.wav`), and takes commands over ctrl_tcp (dial, DTMF, hang up).
 *
 * @example
 * const phone = await Baresip.start({ microphone: speech });
 * await phone.command('dial', `sip:+15550000@127.0.0.1:${port}`);
 */
export class Baresip {
  readonly events: Array<Record<string, unknown>> = [];
  private control: Socket | undefined;
  private buffer = '';
  private output = '';

  private constructor(
    private readonly child: ChildProcess,
    readonly dir: string,
    readonly sipPort: number,
    private readonly controlPort: number,
  ) {}

  static async start(options: BaresipOptions): Promise<Baresip> {
    const dir = mkdtempSync(join(tmpdir(), 'baresip-'));
    const [sipPort, controlPort] = [await freePort(), await freePort()];
    const stereo = options.sampleRate === 48_000;
    const samples = stereo ? Int16Array.from({ length: options.microphone.length * 2 }, (_, index) => options.microphone[index >> 1]!) : options.microphone;
    writeFileSync(join(dir, 'microphone.wav'), encodeWav(samples, options.sampleRate ?? 8000, stereo ? 2 : 1));
    const modules = [...(options.codecs ?? ['g711']), ...(options.mediaenc ? ['srtp'] : []), 'aufile', 'sndfile', 'account', 'ctrl_tcp', 'menu'];
    writeFileSync(
      join(dir, 'config'),
      [
        'poll_method epoll',
        `sip_listen 127.0.0.1:${sipPort}`,
        'module_path /usr/lib/baresip/modules',
        ...modules.map((module) => `module ${module}.so`),
        `ctrl_tcp_listen 127.0.0.1:${controlPort}`,
        `audio_source aufile,${join(dir, 'microphone.wav')}`,
        'audio_player aubridge,nil',
        'audio_alert aubridge,nil',
        `snd_path ${dir}`,
        ...(options.tls ? [`sip_cafile ${options.tls.caFile}`, ...(options.tls.certificate ? [`sip_certificate ${options.tls.certificate}`] : [])] : []),
        '',
      ].join('\n'),
    );
    const mediaenc = options.mediaenc ? `;mediaenc=${options.mediaenc}` : '';
    writeFileSync(
      join(dir, 'accounts'),
      `<sip:${options.number ?? '+15550100'}@127.0.0.1>;regint=0;answermode=${options.autoAnswer ? 'auto' : 'manual'}${mediaenc}\n`,
    );
    const child = spawn('baresip', ['-f', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const phone = new Baresip(child, dir, sipPort, controlPort);
    child.stdout.on('data', (chunk: Buffer) => (phone.output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (phone.output += chunk.toString()));
    await phone.connectControl();
    return phone;
  }

  get log(): string {
    return this.output;
  }

  /** Sends a ctrl_tcp command (`dial`, `sndcode`, `hangup`, `quit`). */
  command(command: string, params = ''): void {
    const json = JSON.stringify({ command, params, token: String(Date.now()) });
    this.control!.write(`${Buffer.byteLength(json)}:${json},`);
  }

  /** Resolves once baresip reports an event of `type` (e.g. `CALL_ESTABLISHED`, `CALL_CLOSED`). */
  async waitForEvent(type: string, timeoutMs = 20_000): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find((event) => event['type'] === type);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`baresip never reported ${type}; log:\n${this.output.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** What the phone heard, as baresip recorded it (mixed down to mono). */
  heard(): { pcm: Int16Array; sampleRate: number } {
    const file = readdirSync(this.dir).find((name) => name.endsWith('-dec.wav'));
    if (!file) throw new Error(`baresip recorded nothing; log:\n${this.output.slice(-3000)}`);
    return decodeWav(readFileSync(join(this.dir, file)));
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.command('quit');
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    this.control?.destroy();
  }

  private async connectControl(): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      try {
        this.control = await new Promise<Socket>((resolve, reject) => {
          const socket = connect({ host: '127.0.0.1', port: this.controlPort }, () => resolve(socket));
          socket.once('error', reject);
        });
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    this.control.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString('utf8');
      for (;;) {
        const colon = this.buffer.indexOf(':');
        if (colon < 0) return;
        const length = Number(this.buffer.slice(0, colon));
        if (this.buffer.length < colon + 1 + length + 1) return;
        const json = this.buffer.slice(colon + 1, colon + 1 + length);
        this.buffer = this.buffer.slice(colon + 2 + length);
        try {
          this.events.push(JSON.parse(json) as Record<string, unknown>);
        } catch {
          // Not JSON: ignored.
        }
      }
    });
  }
}
