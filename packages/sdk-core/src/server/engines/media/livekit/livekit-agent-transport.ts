import { Room } from '@livekit/rtc-node';
import { AccessToken, RoomServiceClient } from 'livekit-server-sdk';
import type { Logger } from 'pino';
import type { AgentRoomConnection, AgentTransport, EnsureRoomOptions, JoinRoomOptions } from '../agent-transport.js';
import { LivekitRoomConnection } from './livekit-room-connection.js';
import { AGENT_IDENTITY } from '../../../../contract/wire.js';

export interface LivekitTransportOptions {
  /** `wss://...` (or `ws://` for a local server / the embedded endpoint). */
  url: string;
  apiKey: string;
  apiSecret: string;
  logger: Logger;
}

/**
 * The agent transport for a LiveKit deployment: rooms through the RoomService API, the agent
 * joining through `@livekit/rtc-node` with a token of kind `agent`.
 *
 * @example
 * const transport = new LivekitAgentTransport({ url: 'wss://lk.example.com', apiKey, apiSecret, logger });
 * await transport.ensureRoom({ room: 'session_1' });
 * const connection = await transport.join({ room: 'session_1' });
 */
export class LivekitAgentTransport implements AgentTransport {
  readonly kind = 'livekit' as const;
  private readonly rooms: RoomServiceClient;
  private readonly connections = new Set<LivekitRoomConnection>();

  constructor(private readonly options: LivekitTransportOptions) {
    this.rooms = new RoomServiceClient(options.url, options.apiKey, options.apiSecret);
  }

  async ensureRoom(options: EnsureRoomOptions): Promise<void> {
    await this.rooms.createRoom({
      name: options.room,
      emptyTimeout: options.emptyTimeoutSeconds ?? 300,
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
    });
    // CreateRoom keeps an existing room as it is; apply the metadata explicitly.
    if (options.metadata !== undefined) await this.rooms.updateRoomMetadata(options.room, options.metadata);
  }

  async deleteRoom(room: string): Promise<void> {
    await this.rooms.deleteRoom(room);
  }

  async join(options: JoinRoomOptions): Promise<AgentRoomConnection> {
    options.signal?.throwIfAborted();
    const token = new AccessToken(this.options.apiKey, this.options.apiSecret, {
      identity: options.identity ?? AGENT_IDENTITY,
      name: options.name ?? 'agent',
      ttl: 6 * 3600,
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(options.attributes !== undefined ? { attributes: options.attributes } : {}),
    });
    token.kind = options.kind ?? 'agent';
    token.addGrant({
      roomJoin: true,
      room: options.room,
      agent: options.kind !== 'sip',
      canPublish: true,
      canSubscribe: true,
      canPublishData: true,
      canUpdateOwnMetadata: true,
      hidden: options.hidden ?? false,
    });
    const room = new Room();
    const connection = new LivekitRoomConnection(
      room,
      options.room,
      (metadata) => this.rooms.updateRoomMetadata(options.room, metadata).then(() => undefined),
      this.options.logger,
    );
    const abort = () => void room.disconnect();
    options.signal?.addEventListener('abort', abort, { once: true });
    try {
      await room.connect(this.options.url, await token.toJwt(), { autoSubscribe: true, dynacast: false });
    } finally {
      options.signal?.removeEventListener('abort', abort);
    }
    options.signal?.throwIfAborted();
    this.connections.add(connection);
    connection.on('disconnected', () => this.connections.delete(connection));
    this.options.logger.debug({ room: options.room }, 'agent joined LiveKit room');
    return connection;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections].map((connection) => connection.leave().catch(() => undefined)));
  }
}
