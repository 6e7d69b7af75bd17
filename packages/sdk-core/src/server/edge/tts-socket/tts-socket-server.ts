import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Services } from '../../domain/services.js';
import { WebSocketAcceptor } from '../../kernel/websocket-acceptor.js';
import { authenticateUpgrade } from './socket-authentication.js';
import { TtsSocketConnection, type TtsConnectionStats } from './tts-socket-connection.js';
import { DEFAULT_TTS_SOCKET_LIMITS, type TtsSocketLimits } from './tts-socket-limits.js';

/**
 * The streaming TTS websocket ({@link TTS_SOCKET_PATH}, `/v1/voice/websocket`): authenticates the upgrade like an HTTP call (or by
 * `api_key`/`token` query parameter for browsers), then serves {@link TtsSocketConnection}s. Refused
 * credentials complete the upgrade and close at once with code 4000 + HTTP status (4401, 4403, 4400) and
 * the reason, because browsers cannot read the body of a refused upgrade.
 *
 * @example
 * const ttsSocket = new TtsSocketServer(services);
 * server.onUpgrade(TTS_SOCKET_PATH, (request, socket, head) => ttsSocket.handleUpgrade(request, socket, head));
 */
export class TtsSocketServer {
  private readonly sockets: WebSocketAcceptor;
  private readonly connections = new Set<TtsSocketConnection>();
  private readonly limits: TtsSocketLimits;

  constructor(
    private readonly services: Services,
    limits: Partial<TtsSocketLimits> = {},
  ) {
    this.limits = { ...DEFAULT_TTS_SOCKET_LIMITS, ...limits };
    this.sockets = new WebSocketAcceptor({ maximumMessageBytes: this.limits.maximumMessageBytes, logger: services.logger, name: 'tts socket' });
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.sockets.guard(socket);
    authenticateUpgrade(request, this.services).then(
      (result) => {
        this.sockets.complete(request, socket, head, (webSocket) => {
          if ('code' in result) return webSocket.close(result.code, result.reason);
          const connection = new TtsSocketConnection(webSocket, result, {
            synthesis: this.services.voiceSynthesis,
            limits: this.limits,
            logger: this.services.logger,
          });
          this.connections.add(connection);
          webSocket.once('close', () => this.connections.delete(connection));
        });
      },
      (error: unknown) => {
        this.services.logger.error({ err: error }, 'tts socket authentication failed');
        this.sockets.refuse(socket, 500, 'Internal Server Error', 'internal error');
      },
    );
  }

  /** Open connections, for tests and diagnostics. */
  stats(): TtsConnectionStats[] {
    return [...this.connections].map((connection) => connection.stats());
  }

  /** Closes every connection (sessions stop) and the websocket server. */
  async close(): Promise<void> {
    for (const connection of this.connections) connection.close();
    this.connections.clear();
    await this.sockets.close();
  }
}
