import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import type { WebSocket, WebSocketServer } from 'ws';

export interface WebSocketAcceptorOptions {
  /** Largest message accepted; a bigger one closes the socket with 1009. */
  maximumMessageBytes: number;
  logger: Logger;
  /** Names the path in logs (`tts socket`, `media signalling`). */
  name: string;
}

/** Close code for a server fault while opening a connection. */
const INTERNAL_ERROR = 1011;

/**
 * Accepts websocket upgrades so that no client can make a socket error reach the process: the raw socket is
 * guarded from the first byte (errors before and during an asynchronous admission destroy it), every
 * websocket has an `error` listener before any code sees it (an oversize or malformed frame closes only that
 * socket, also on a path that refuses and closes at once), and an exception while opening a connection closes
 * that one connection with 1011.
 *
 * @example
 * const acceptor = new WebSocketAcceptor({ maximumMessageBytes: 64 * 1024, logger, name: 'tts socket' });
 * acceptor.guard(socket);
 * const admitted = await admit(request);
 * acceptor.complete(request, socket, head, (webSocket) => serve(webSocket, admitted));
 */
export class WebSocketAcceptor {
  private server: Promise<WebSocketServer> | undefined;
  private closed = false;

  constructor(private readonly options: WebSocketAcceptorOptions) {}

  /** The `ws` server, made on the first upgrade: `ws` (~70 ms to load) is not needed by a start-up or REST calls. */
  private webSocketServer(): Promise<WebSocketServer> {
    this.server ??= import('ws').then(
      ({ WebSocketServer }) => new WebSocketServer({ noServer: true, maxPayload: this.options.maximumMessageBytes, perMessageDeflate: false }),
    );
    return this.server;
  }

  /** Call as soon as the upgrade arrives: a reset or broken socket is destroyed instead of throwing. */
  guard(socket: Duplex): void {
    if (socket.listenerCount('error') === 0) socket.on('error', () => socket.destroy());
  }

  /** Completes the upgrade (a socket the client already closed is dropped) and hands over the websocket. */
  complete(request: IncomingMessage, socket: Duplex, head: Buffer, open: (webSocket: WebSocket) => void): void {
    this.guard(socket);
    if (socket.destroyed) return;
    void this.webSocketServer().then(
      (server) => {
        // The client may have gone, or the acceptor closed, while `ws` loaded.
        if (socket.destroyed) return;
        if (this.closed) socket.destroy();
        else this.upgrade(server, request, socket, head, open);
      },
      (error: unknown) => {
        this.options.logger.error({ err: error }, `${this.options.name}: the websocket server could not start`);
        socket.destroy();
      },
    );
  }

  private upgrade(server: WebSocketServer, request: IncomingMessage, socket: Duplex, head: Buffer, open: (webSocket: WebSocket) => void): void {
    server.handleUpgrade(request, socket, head, (webSocket) => {
      webSocket.on('error', (error) => this.options.logger.debug({ err: error, path: this.options.name }, `${this.options.name}: websocket error`));
      try {
        open(webSocket);
      } catch (error) {
        this.options.logger.error({ err: error }, `${this.options.name}: opening a connection failed`);
        webSocket.close(INTERNAL_ERROR, 'internal error');
      }
    });
  }

  /** Answers a refused upgrade with a plain HTTP status (for clients that read it, like LiveKit's). */
  refuse(socket: Duplex, status: number, reason: string, message: string): void {
    this.guard(socket);
    if (socket.destroyed) return;
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(message)}\r\nConnection: close\r\n\r\n${message}`,
    );
  }

  /** Stops accepting; open websockets are closed by their owners. */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.server) return;
    const server = await this.server;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
