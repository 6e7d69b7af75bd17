import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/** What a client sent to open a connection, for assertions. */
export interface FakeConnectionRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
}

/** Refuse the websocket handshake with an HTTP answer, as vendors do for bad credentials or parameters. */
export interface HandshakeRefusal {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * An HTTP server on 127.0.0.1 (a free port) that upgrades to websockets after the vendor's own handshake checks
 * (`check` answers a refusal or accepts), and keeps the open sockets so a test can drop them all.
 */
export class FakeVendorServer {
  readonly requests: FakeConnectionRequest[] = [];
  private readonly server: Server;
  private readonly sockets = new Set<WebSocket>();
  private readonly webSockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  private address: AddressInfo | undefined;

  constructor(
    private readonly check: (request: FakeConnectionRequest) => HandshakeRefusal | undefined,
    private readonly accept: (socket: WebSocket, request: FakeConnectionRequest) => void,
  ) {
    this.server = createServer((_request, response) => response.writeHead(426, { 'content-type': 'text/plain' }).end('websocket only'));
    this.server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(request, socket, head));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.address = this.server.address() as AddressInfo;
  }

  /** `ws://127.0.0.1:<port><path>`. */
  url(path: string): string {
    return `ws://127.0.0.1:${this.address!.port}${path}`;
  }

  /** Connections open now. */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** Ends every open connection abruptly (no close frame: the client sees 1006), as a network failure would. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.terminate();
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.webSockets.close();
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private upgrade(incoming: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
    const request: FakeConnectionRequest = { path: url.pathname, query: Object.fromEntries(url.searchParams), headers: incoming.headers };
    this.requests.push(request);
    const refusal = this.check(request);
    if (refusal) {
      const body = JSON.stringify(refusal.body);
      const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), connection: 'close', ...refusal.headers };
      const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
      socket.end(`HTTP/1.1 ${refusal.status} ${statusText(refusal.status)}\r\n${lines.join('\r\n')}\r\n\r\n${body}`);
      return;
    }
    this.webSockets.handleUpgrade(incoming, socket, head, (webSocket) => {
      this.sockets.add(webSocket);
      webSocket.on('close', () => this.sockets.delete(webSocket));
      webSocket.on('error', () => this.sockets.delete(webSocket));
      this.accept(webSocket, request);
    });
  }
}

function statusText(status: number): string {
  return (
    {
      400: 'Bad Request',
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not Found',
      429: 'Too Many Requests',
      500: 'Internal Server Error',
      503: 'Service Unavailable',
    }[status] ?? 'Error'
  );
}
