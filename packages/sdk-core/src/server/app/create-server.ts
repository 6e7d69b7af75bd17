import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { Logger } from 'pino';
import { loadConfig, type ServerConfig, type ServerConfigInput } from '../kernel/config.js';
import { createApp } from '../edge/http/create-app.js';
import { OpenEventStreams } from '../edge/http/event-stream.js';
import { registerMediaUpgrades } from '../edge/media-routes.js';
import { UpgradeRouter, type UpgradeHandler } from '../edge/upgrade-router.js';
import { OPENAI_REALTIME_PATH, TTS_SOCKET_PATH } from '../../contract/wire.js';
import { TtsSocketServer } from '../edge/tts-socket/tts-socket-server.js';
import { RealtimeSocketServer } from '../edge/openai-realtime/realtime-socket-server.js';
import { realtimeCalls } from '../edge/openai-realtime/realtime-call-server.js';
import { createLogger } from '../kernel/logger.js';
import { ServerSecret } from '../domain/auth/server-secret.js';
import { closeServices, createServices } from './compose-services.js';
import type { Services } from '../domain/services.js';
import { startWebhookDelivery } from './start-webhook-delivery.js';
import { openStore } from '../store/database.js';

export type { UpgradeHandler };

/** How long requests under way may take to finish when the server closes, before their connections are cut. */
const HTTP_DRAIN_MS = 2000;

/** How long event streams ended at the cut-off may take to reach their sockets before the connections are cut. */
const STREAM_END_MS = 1000;

export interface CreateServerOptions {
  /** Explicit settings; they win over environment variables. */
  config?: ServerConfigInput;
  /** Environment to read `PALAVER_*`, `DATABASE_URL`... from (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** PostgreSQL schema to isolate this server's tables (tests). */
  databaseSchema?: string;
  logger?: Logger;
}

/** A running (or ready to listen) Palaver platform. */
export interface PalaverServer {
  /** Answers one request in process: `createClient({ fetch: server.fetch })`. */
  fetch: (request: Request) => Promise<Response>;
  /** Starts the HTTP listener (port 0 picks a free one) and resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stops listening and releases the database and engines. */
  close(): Promise<void>;
  /** Base URL once listening. */
  readonly url: string | undefined;
  /** The development project's API key. */
  readonly apiKey: string;
  /** The development project's id. */
  readonly project: string;
  readonly config: ServerConfig;
  /**
   * The platform's services, engines and hosts (tests and diagnostics inside this repository).
   * @internal Not part of the published types: its shape changes with the implementation.
   */
  readonly services: Services;
  /** Registers a websocket upgrade handler for an exact path. */
  onUpgrade(path: string, handler: UpgradeHandler): void;
  /**
   * The streaming TTS websocket at `/v1/voice/websocket` (connection stats for diagnostics).
   * @internal Not part of the published types.
   */
  readonly ttsSocket: TtsSocketServer;
}

/**
 * Creates the platform: opens storage (SQLite in memory by default), runs migrations, ensures the dev
 * project and key, and builds the HTTP app.
 *
 * @example
 * const server = await createServer();
 * const client = createClient({ apiKey: server.apiKey, fetch: server.fetch });
 */
export async function createServer(options: CreateServerOptions = {}): Promise<PalaverServer> {
  const config = loadConfig(options.env ?? process.env, options.config);
  const logger = options.logger ?? createLogger(config.logLevel, config.logFormat);
  const store = await openStore({
    file: config.database,
    url: config.databaseUrl,
    schema: options.databaseSchema,
    onConnectionError: (error, connection) => logger.warn({ err: error, connection }, 'the database ended a connection; the store carries on without it'),
  });
  const { services, dev } = await store.exclusive(async () => {
    const secret = await ServerSecret.load(store, config.secretKey);
    const created = await createServices({ store, config, logger, secret });
    return { services: created, dev: await created.projects.ensureDevProject(config.apiKey) };
  });
  await startWebhookDelivery(services, dev);
  // Renews the leases of the sessions hosted here; ends those of instances that stopped (or of this one's last run).
  services.realtime.keepLeases();
  services.appRuns.keepLeases();
  // This instance's own lease: its usage reservations are released by whoever finds it expired (a kill -9).
  await services.usage.keepReservations();
  // Event streams still running at the shutdown's cut-off end with an error event and `[DONE]`, not a cut socket.
  const streams = new OpenEventStreams();
  const app = createApp(services, streams);
  const upgrades = new UpgradeRouter(logger);
  // The media sockets stay through the HTTP drain at shutdown: the humans are told the server stops through their rooms.
  registerMediaUpgrades((path, handler) => upgrades.set(path, handler, { closedByServices: true }), services.media);
  const ttsSocket = new TtsSocketServer(services);
  upgrades.set(TTS_SOCKET_PATH, (request, socket, head) => ttsSocket.handleUpgrade(request, socket, head));
  // OpenAI's Realtime API over the voice layer (decision 0113).
  const openAiRealtime = new RealtimeSocketServer(services);
  upgrades.set(OPENAI_REALTIME_PATH, (request, socket, head) => openAiRealtime.handleUpgrade(request, socket, head));

  let httpServer: Server | undefined;
  let url: string | undefined;
  /** Ends the event streams still being written, waiting at most STREAM_END_MS for them to reach their sockets. */
  const endStreams = async () => {
    const open = streams.size;
    if (open === 0) return;
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([streams.endAll(), new Promise<void>((done) => (waited = setTimeout(done, STREAM_END_MS)))]);
    clearTimeout(waited);
    logger.info({ streams: open }, 'event streams still running at shutdown were ended');
  };

  const server: PalaverServer = {
    fetch: async (request) => app.fetch(request),
    get url() {
      return url;
    },
    apiKey: dev.apiKey,
    project: dev.project,
    config,
    services,
    ttsSocket,
    onUpgrade(path, handler) {
      upgrades.set(path, handler);
    },
    async listen(port = config.port, host = config.host) {
      if (httpServer) throw new Error('Server is already listening');
      httpServer = await new Promise<Server>((resolve, reject) => {
        const started = serve({ fetch: app.fetch, port, hostname: host }, () => resolve(started as Server));
        started.once('error', reject);
      });
      // After listening, the server reports failures to accept a connection (EMFILE...) as 'error': logged, not fatal.
      httpServer.on('error', (error) => logger.error({ err: error }, 'the HTTP server failed to accept a connection'));
      httpServer.on('upgrade', (request, socket, head) => upgrades.route(request, socket, head));
      const address = httpServer.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
      url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${address.port}`;
      services.media.bindServerUrl(url);
      return url;
    },
    async close() {
      // Stop accepting first: no new connection, idle kept-alive ones closed, requests under way get a moment.
      // Websockets are told the server is going away at once; the server's close waits for their sockets, so those
      // still open at the cut-off (a client that stopped reading cannot even take the close frame) are destroyed.
      const sockets = Promise.all([ttsSocket.close(), openAiRealtime.close(), realtimeCalls(services).close()]);
      if (httpServer) {
        const closing = httpServer;
        httpServer = undefined;
        await new Promise<void>((resolve) => {
          const cutOff = setTimeout(() => {
            // Streams still running are ended first (an error event saying the server is shutting down, then
            // `[DONE]`; their upstream requests aborted and their tokens recorded), then the connections are cut.
            void endStreams().then(() => {
              closing.closeAllConnections();
              const destroyed = upgrades.destroyAll({ keepServices: true });
              if (destroyed > 0) logger.warn({ sockets: destroyed }, 'websockets still open at shutdown were cut off');
              // The media endpoint's sockets are closed with the services (after the sessions ended, the humans told).
              resolve();
            });
          }, HTTP_DRAIN_MS);
          closing.close(() => {
            clearTimeout(cutOff);
            resolve();
          });
          closing.closeIdleConnections();
        });
      }
      await sockets;
      await closeServices(services);
      upgrades.destroyAll();
      await store.close();
    },
  };
  return server;
}
