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
  private readonly handlers = new Map<string, { handler: UpgradeHandler; closedByServices: boolean }>();
  /**
   * Upgraded sockets still open: the HTTP server's shutdown waits for them and cannot close them itself. The value
   * says whether the services close them (the media endpoint's, after the humans were told the server stops).
   */
  private readonly sockets = new Map<Duplex, boolean>();

  constructor(private readonly logger: Logger) {}

  /** `closedByServices`: the path's sockets outlive the HTTP drain at shutdown; their service closes them. */
  set(path: string, handler: UpgradeHandler, options: { closedByServices?: boolean } = {}): void {
    this.handlers.set(path, { handler, closedByServices: options.closedByServices ?? false });
  }

  route(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => socket.destroy());
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    const route = this.handlers.get(path);
    this.sockets.set(socket, route?.closedByServices ?? false);
    socket.once('close', () => this.sockets.delete(socket));
    if (!route) return void socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
    try {
      route.handler(request, socket, head);
    } catch (error) {
      this.logger.error({ err: error, path }, 'websocket upgrade failed');
      socket.destroy();
    }
  }

  /**
   * Destroys the upgraded sockets still open (the end of a shutdown's grace period), but for those the services close
   * when `keepServices`; returns how many.
   */
  destroyAll(options: { keepServices?: boolean } = {}): number {
    let count = 0;
    for (const [socket, closedByServices] of this.sockets) {
      if (options.keepServices && closedByServices) continue;
      socket.destroy();
      this.sockets.delete(socket);
      count += 1;
    }
    return count;
  }
}
