import type { Logger } from 'pino';
import type { ServerConfig } from '../../kernel/config.js';
import type { AgentDispatcher } from './agent-dispatcher.js';
import type { AgentTransport } from './agent-transport.js';
import type { EmbeddedEndpoint } from './embedded/embedded-endpoint.js';
import type { EndpointSettings } from './embedded/endpoint-settings.js';
import { importOptional } from '../../kernel/optional-package.js';

/** LiveKit's own development key pair convention; public, only for the embedded endpoint on a dev machine. */
export const DEVELOPMENT_API_KEY = 'devkey';
export const DEVELOPMENT_API_SECRET = 'palaver-development-secret-change-me-0000';

export interface JoinTokenOptions {
  room: string;
  identity: string;
  name?: string;
  metadata?: string;
  attributes?: Record<string, string>;
  /** Seconds the token stays valid for joining (default 6 h). */
  ttlSeconds?: number;
  /** Participant kind claim (default standard). */
  kind?: 'standard' | 'agent';
}

/** Paths the signalling websockets are served on, with their protocol version. */
export const SIGNAL_PATHS: ReadonlyArray<[path: string, version: 0 | 1]> = [
  ['/rtc', 0],
  ['/rtc/v1', 1],
];

/**
 * The media plane as the rest of the server sees it: join tokens and the client URL for
 * `connection_details`, and the agent transport. Embedded endpoint unless `LIVEKIT_URL` is set.
 *
 * @example
 * const media = await createMediaService(config, logger);
 * const details = { url: media.clientUrl(), token: await media.createJoinToken({ room, identity: human }) };
 */
export class MediaService {
  private serverUrl: string | undefined;

  constructor(
    readonly mode: 'embedded' | 'livekit',
    readonly apiKey: string,
    private readonly apiSecret: string,
    readonly transport: AgentTransport,
    /** The embedded endpoint (undefined with a LiveKit deployment). */
    readonly endpoint: EmbeddedEndpoint | undefined,
    private readonly livekitUrl: string | undefined,
    /** LiveKit Agents dispatch: the embedded endpoint's workers, or the deployment's AgentDispatchService. */
    readonly dispatcher: AgentDispatcher,
  ) {}

  /** Tells the embedded endpoint where the server listens (`http://host:port`). */
  bindServerUrl(url: string): void {
    this.serverUrl = url;
  }

  /** The URL clients connect `livekit-client` to. */
  clientUrl(): string {
    if (this.livekitUrl) return this.livekitUrl;
    if (!this.serverUrl) throw new Error('The server is not listening yet: no media URL');
    return this.serverUrl.replace(/^http/, 'ws');
  }

  /** Mints a LiveKit join token for a room (publish, subscribe, data, own metadata). */
  async createJoinToken(options: JoinTokenOptions): Promise<string> {
    const { AccessToken } = await import('livekit-server-sdk');
    const token = new AccessToken(this.apiKey, this.apiSecret, {
      identity: options.identity,
      ttl: options.ttlSeconds ?? 6 * 3600,
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(options.attributes !== undefined ? { attributes: options.attributes } : {}),
    });
    if (options.kind === 'agent') token.kind = 'agent';
    token.addGrant({
      roomJoin: true,
      room: options.room,
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
      canUpdateOwnMetadata: true,
      ...(options.kind === 'agent' ? { agent: true } : {}),
    });
    return token.toJwt();
  }

  /** A token for RoomService calls (create/list/delete rooms, admin of one or all rooms). */
  async createAdminToken(room?: string): Promise<string> {
    const { AccessToken } = await import('livekit-server-sdk');
    const token = new AccessToken(this.apiKey, this.apiSecret, { ttl: 600 });
    token.addGrant({ roomCreate: true, roomList: true, roomAdmin: true, ...(room ? { room } : {}) });
    return token.toJwt();
  }

  async close(): Promise<void> {
    await this.transport.close();
    await this.endpoint?.close();
  }
}

/**
 * Builds the media service from the configuration: a LiveKit deployment when `livekit.url` is set
 * (key and secret required), else the embedded endpoint with the configured or development keys.
 */
export async function createMediaService(config: ServerConfig, logger: Logger, settings: Partial<EndpointSettings> = {}): Promise<MediaService> {
  const { url, apiKey, apiSecret } = config.livekit;
  if (url) {
    if (!apiKey || !apiSecret) throw new Error('LIVEKIT_URL needs LIVEKIT_API_KEY and LIVEKIT_API_SECRET');
    const { LivekitAgentTransport } = await importOptional(
      '@livekit/rtc-node',
      'LIVEKIT_URL (agents joining a LiveKit deployment)',
      () => import('./livekit/livekit-agent-transport.js'),
    );
    const { LivekitAgentDispatcher } = await import('./livekit/livekit-agent-dispatcher.js');
    const transport = new LivekitAgentTransport({ url, apiKey, apiSecret, logger });
    return new MediaService('livekit', apiKey, apiSecret, transport, undefined, url, new LivekitAgentDispatcher({ url, apiKey, apiSecret }));
  }
  const key = apiKey ?? DEVELOPMENT_API_KEY;
  const secret = apiSecret ?? DEVELOPMENT_API_SECRET;
  if (!apiKey || !apiSecret) {
    logger.info(`embedded media endpoint uses development keys (key ${key}, secret ${DEVELOPMENT_API_SECRET}); set LIVEKIT_API_KEY/LIVEKIT_API_SECRET`);
  }
  // Loaded here: werift and the endpoint are only needed when the embedded media plane is used.
  const [{ EmbeddedEndpoint }, { EmbeddedAgentTransport }] = await Promise.all([
    import('./embedded/embedded-endpoint.js'),
    import('./embedded/agent/embedded-agent-transport.js'),
  ]);
  const endpoint = new EmbeddedEndpoint(
    {
      autoCreateRooms: config.livekit.autoCreateRooms,
      network: { nodeIp: config.livekit.nodeIp, bindAddress: config.livekit.rtcBindAddress, portRange: config.livekit.rtcPorts },
      ...settings,
      apiKey: key,
      apiSecret: secret,
    },
    logger.child({ component: 'media' }),
  );
  return new MediaService('embedded', key, secret, new EmbeddedAgentTransport(endpoint), endpoint, undefined, endpoint.agentWorkers);
}
