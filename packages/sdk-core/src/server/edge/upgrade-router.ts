import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';

/** Handles a websocket upgrade for one path (the media endpoint, the TTS socket). */
export type UpgradeHandler = (request: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Routes HTTP upgrades by exact path. The socket is guarded before any handler runs (a client that resets the
 * connection must not raise an unhandled socket error); unknown paths get a 404 and a handler that throws
 * loses only its own socket.
 *
 * @example
 * const upgrades = new UpgradeRouter(logger);
 * upgrades.set('/v1/voice/websocket', (request, socket, head) => ttsSocket.handleUpgrade(request, socket, head));
 * httpServer.on('upgrade', (request, socket, head) => upgrades.route(request, socket, head));
 */
export class UpgradeRouter {
  private readonly handlers = new Map<string, UpgradeHandler>();
  /** Upgraded sockets still open: the HTTP server's shutdown waits for them and cannot close them itself. */
  private readonly sockets = new Set<Duplex>();

  constructor(private readonly logger: Logger) {}

  set(path: string, handler: UpgradeHandler): void {
    this.handlers.set(path, handler);
  }

  route(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const handler = this.handlers.get(path);
    if (!handler) return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    try {
      handler(request, socket, head);
    } catch (error) {
      this.logger.error({ err: error, path }, 'websocket upgrade failed');
      socket.destroy();
    }
  }

  /** Destroys the upgraded sockets still open (the end of a shutdown's grace period); returns how many. */
  destroyAll(): number {
    const count = this.sockets.size;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    return count;
  }
}
