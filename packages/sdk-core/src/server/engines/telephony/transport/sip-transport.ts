import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { createServer, connect, isIP, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { checkServerIdentity, connect as connectTls, createServer as createTlsServer, rootCertificates, type Server as TlsServer } from 'node:tls';
import { parseSipMessage, serializeSipMessage, SipParseError, type SipMessage } from '../message/sip-message.js';
import { MAX_SIP_MESSAGE_BYTES, SipStreamFramer } from './sip-stream-framer.js';

/** Where a message came from or goes to. Responses go back the way the request came (symmetric, RFC 3581). */
export interface SipPeer {
  protocol: 'udp' | 'tcp' | 'tls';
  address: string;
  port: number;
  /** TLS only: the name the other side's certificate must carry (a trunk's host name); default its address. */
  serverName?: string;
}

/** SIP over TLS (RFC 3261 26.2.1, `sips:`): a second listening port (5061 by convention) and how to reach TLS peers. */
export interface SipTlsOptions {
  /** 0 picks a free one. */
  port: number;
  /** PEM certificate chain and private key the listener presents. */
  cert: string | Buffer;
  key: string | Buffer;
  /** PEM certificates trusted for outbound TLS besides Node's bundled CAs (a provider's private CA, a test's own). */
  ca?: string | Buffer;
}

export interface SipTransportOptions {
  host: string;
  port: number;
  onMessage(message: SipMessage, peer: SipPeer): void;
  /** A datagram or frame that is not SIP: the raw bytes, for a best-effort 400. */
  onMalformed(data: Buffer, peer: SipPeer, error: Error): void;
  onError(error: Error): void;
  /** A TCP or TLS connection failed (refused, reset, a certificate not trusted): what waits on it can fail at once. */
  onConnectionFailed?(peer: SipPeer, error: Error): void;
  /** Also listen for SIP over TLS; absent = UDP and TCP only. */
  tls?: SipTlsOptions;
}

/** Idle TCP connections close after this (a trunk reconnects when it has something to say). */
const TCP_IDLE_MS = 5 * 60_000;

/** How long a TLS handshake to a peer may take before the connection is dropped. */
const TLS_HANDSHAKE_MS = 10_000;

/**
 * SIP over UDP and TCP on one port (RFC 3261 section 18), and over TLS on a second one when configured. TCP and TLS
 * connections are kept per peer address so requests and responses of a dialog reuse the connection the peer opened;
 * both are framed the same way ({@link SipStreamFramer}).
 *
 * @example
 * const transport = new SipTransport({ host: '127.0.0.1', port: 5060, onMessage, onMalformed, onError });
 * await transport.listen();
 * transport.send(response, peer);
 */
export class SipTransport {
  private udp: UdpSocket | undefined;
  private tcp: Server | undefined;
  private tlsServer: TlsServer | undefined;
  private readonly connections = new Map<string, Socket>();
  private boundPort = 0;
  private boundTlsPort = 0;

  constructor(private readonly options: SipTransportOptions) {}

  get port(): number {
    return this.boundPort;
  }

  /** The TLS port (0 when TLS is off). */
  get tlsPort(): number {
    return this.boundTlsPort;
  }

  /** The port a protocol listens on: what Via and Contact carry for messages sent that way. */
  portFor(protocol: SipPeer['protocol']): number {
    return protocol === 'tls' ? this.boundTlsPort : this.boundPort;
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
    if (this.options.tls) await this.listenTls(this.options.tls);
  }

  private async listenTls(options: SipTlsOptions): Promise<void> {
    const server = createTlsServer({ cert: options.cert, key: options.key, handshakeTimeout: TLS_HANDSHAKE_MS }, (socket) => this.adopt(socket, 'tls'));
    server.on('error', (error: Error) => this.options.onError(error));
    // A client that fails its handshake (wrong certificate, not TLS at all) is only that connection's problem.
    server.on('tlsClientError', () => undefined);
    server.listen(options.port, this.options.host);
    await once(server, 'listening');
    this.tlsServer = server;
    const address = server.address();
    this.boundTlsPort = typeof address === 'object' && address ? address.port : options.port;
  }

  send(message: SipMessage, peer: SipPeer): void {
    this.sendRaw(serializeSipMessage(message), peer);
  }

  sendRaw(data: Buffer, peer: SipPeer): void {
    if (peer.protocol === 'udp') {
      this.udp?.send(data, peer.port, peer.address);
      return;
    }
    const key = connectionKey(peer.protocol, peer.address, peer.port);
    let socket = this.connections.get(key);
    if (!socket || socket.destroyed) {
      socket = peer.protocol === 'tls' ? this.connectTls(peer) : connect({ host: peer.address, port: peer.port });
      this.adopt(socket, peer.protocol, key, peer);
    }
    socket.write(data);
  }

  async close(): Promise<void> {
    for (const socket of this.connections.values()) socket.destroy();
    this.connections.clear();
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tlsServer ? this.tlsServer.close(() => resolve()) : resolve())),
    ]);
  }

  /** A TLS connection to a peer, its certificate checked against `serverName` (Node's CAs and the configured `ca`). */
  private connectTls(peer: SipPeer): Socket {
    const tls = this.options.tls;
    const serverName = peer.serverName ?? peer.address;
    return connectTls({
      host: peer.address,
      port: peer.port,
      // SNI carries host names only (RFC 6066 3); an IP address is still checked against the certificate's IP SANs.
      ...(isIP(serverName) ? {} : { servername: serverName }),
      checkServerIdentity: (_host, certificate) => checkServerIdentity(serverName, certificate),
      ...(tls?.ca ? { ca: [...rootCertificates, tls.ca.toString()] } : {}),
      ...(tls ? { cert: tls.cert, key: tls.key } : {}),
    });
  }

  private adopt(socket: Socket, protocol: 'tcp' | 'tls' = 'tcp', knownKey?: string, dialled?: SipPeer): void {
    const key = knownKey ?? connectionKey(protocol, normalizeAddress(socket.remoteAddress ?? ''), socket.remotePort ?? 0);
    this.connections.set(key, socket);
    const framer = new SipStreamFramer();
    // Each SIP message is written whole: no Nagle. With it, a 200 OK written right after the 100 Trying waited for the
    // peer's delayed ACK (~40 ms) on a new connection (sip-security bench: INVITE -> 200 OK on a new TLS connection, handshake included, p50 48 ms before).
    socket.setNoDelay(true);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => {
      const peer: SipPeer = { protocol, address: normalizeAddress(socket.remoteAddress ?? ''), port: socket.remotePort ?? 0 };
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
    socket.on('error', (error) => {
      const peer = dialled ?? { protocol, address: normalizeAddress(socket.remoteAddress ?? ''), port: socket.remotePort ?? 0 };
      this.options.onConnectionFailed?.(peer, error);
      socket.destroy();
    });
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

function connectionKey(protocol: SipPeer['protocol'], address: string, port: number): string {
  return `${protocol}:${address}:${port}`;
}

/** `::ffff:127.0.0.1` -> `127.0.0.1` (a dual-stack socket's view of an IPv4 peer). */
function normalizeAddress(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}
