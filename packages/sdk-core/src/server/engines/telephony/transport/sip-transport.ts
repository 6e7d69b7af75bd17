import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { parseSipMessage, serializeSipMessage, SipParseError, type SipMessage } from '../message/sip-message.js';
import { MAX_SIP_MESSAGE_BYTES, SipStreamFramer } from './sip-stream-framer.js';

/** Where a message came from or goes to. Responses go back the way the request came (symmetric, RFC 3581). */
export interface SipPeer {
  protocol: 'udp' | 'tcp';
  address: string;
  port: number;
}

export interface SipTransportOptions {
  host: string;
  port: number;
  onMessage(message: SipMessage, peer: SipPeer): void;
  /** A datagram or frame that is not SIP: the raw bytes, for a best-effort 400. */
  onMalformed(data: Buffer, peer: SipPeer, error: Error): void;
  onError(error: Error): void;
}

/** Idle TCP connections close after this (a trunk reconnects when it has something to say). */
const TCP_IDLE_MS = 5 * 60_000;

/**
 * SIP over UDP and TCP on one port (RFC 3261 section 18). TCP connections are kept per peer address so
 * requests and responses of a dialog reuse the connection the peer opened.
 *
 * @example
 * const transport = new SipTransport({ host: '127.0.0.1', port: 5060, onMessage, onMalformed, onError });
 * await transport.listen();
 * transport.send(response, peer);
 */
export class SipTransport {
  private udp: UdpSocket | undefined;
  private tcp: Server | undefined;
  private readonly connections = new Map<string, Socket>();
  private boundPort = 0;

  constructor(private readonly options: SipTransportOptions) {}

  get port(): number {
    return this.boundPort;
  }

  get host(): string {
    return this.options.host;
  }

  async listen(): Promise<void> {
    const tcp = createServer((socket) => this.adopt(socket));
    tcp.on('error', (error) => this.options.onError(error));
    tcp.listen(this.options.port, this.options.host);
    await once(tcp, 'listening');
    this.tcp = tcp;
    const address = tcp.address();
    this.boundPort = typeof address === 'object' && address ? address.port : this.options.port;
    const udp = createSocket({ type: this.options.host.includes(':') ? 'udp6' : 'udp4' });
    udp.on('message', (data, info) => this.receive(data, { protocol: 'udp', address: info.address, port: info.port }));
    udp.on('error', (error) => this.options.onError(error));
    udp.bind(this.boundPort, this.options.host);
    await once(udp, 'listening');
    this.udp = udp;
  }

  send(message: SipMessage, peer: SipPeer): void {
    this.sendRaw(serializeSipMessage(message), peer);
  }

  sendRaw(data: Buffer, peer: SipPeer): void {
    if (peer.protocol === 'udp') {
      this.udp?.send(data, peer.port, peer.address);
      return;
    }
    const key = `${peer.address}:${peer.port}`;
    let socket = this.connections.get(key);
    if (!socket || socket.destroyed) {
      socket = connect({ host: peer.address, port: peer.port });
      this.adopt(socket, key);
    }
    socket.write(data);
  }

  async close(): Promise<void> {
    for (const socket of this.connections.values()) socket.destroy();
    this.connections.clear();
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
  }

  private adopt(socket: Socket, knownKey?: string): void {
    const key = knownKey ?? `${normalizeAddress(socket.remoteAddress ?? '')}:${socket.remotePort}`;
    this.connections.set(key, socket);
    const framer = new SipStreamFramer();
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      const peer: SipPeer = { protocol: 'tcp', address: normalizeAddress(socket.remoteAddress ?? ''), port: socket.remotePort ?? 0 };
      let frames: Buffer[];
      try {
        frames = framer.push(chunk);
      } catch (error) {
        this.options.onMalformed(chunk.subarray(0, MAX_SIP_MESSAGE_BYTES), peer, error as Error);
        socket.end();
        return;
      }
      for (const frame of frames) this.receive(frame, peer);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      if (this.connections.get(key) === socket) this.connections.delete(key);
    });
  }

  private receive(data: Buffer, peer: SipPeer): void {
    peer.address = normalizeAddress(peer.address);
    // Keep-alives (CRLF pings, RFC 5626) are not messages.
    if (data.length <= 4 && data.toString('latin1').trim() === '') return;
    let message: SipMessage;
    try {
      message = parseSipMessage(data);
    } catch (error) {
      if (error instanceof SipParseError) this.options.onMalformed(data, peer, error);
      else this.options.onError(error as Error);
      return;
    }
    this.options.onMessage(message, peer);
  }
}

/** `::ffff:127.0.0.1` -> `127.0.0.1` (a dual-stack socket's view of an IPv4 peer). */
function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
