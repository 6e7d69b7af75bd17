import { ParticipantInfo_Kind } from '@livekit/protocol';
import type { AgentRoomConnection, AgentTransport, EnsureRoomOptions, JoinRoomOptions } from '../../agent-transport.js';
import type { EmbeddedEndpoint } from '../embedded-endpoint.js';
import { ParticipantState } from '../participant-state.js';
import type { EmbeddedAgentConnection } from './embedded-agent-connection.js';
import { AGENT_IDENTITY } from '../../../../../contract/wire.js';

/**
 * The agent transport for the embedded endpoint: the agent is a member of the in-process room.
 *
 * @example
 * const transport = new EmbeddedAgentTransport(endpoint);
 * await transport.ensureRoom({ room: 'session_1' });
 * const connection = await transport.join({ room: 'session_1' });
 */
export class EmbeddedAgentTransport implements AgentTransport {
  readonly kind = 'embedded' as const;
  private readonly connections = new Set<EmbeddedAgentConnection>();

  constructor(private readonly endpoint: EmbeddedEndpoint) {}

  async ensureRoom(options: EnsureRoomOptions): Promise<void> {
    const room = this.endpoint.rooms.ensure({
      name: options.room,
      ...(options.metadata !== undefined ? { metadata: options.metadata } : {}),
      ...(options.emptyTimeoutSeconds !== undefined ? { emptyTimeoutSeconds: options.emptyTimeoutSeconds } : {}),
    });
    if (options.metadata !== undefined && room.metadata !== options.metadata) room.setMetadata(options.metadata);
  }

  async deleteRoom(room: string): Promise<void> {
    this.endpoint.rooms.delete(room);
  }

  async join(options: JoinRoomOptions): Promise<AgentRoomConnection> {
    options.signal?.throwIfAborted();
    const room = this.endpoint.rooms.get(options.room);
    if (!room) throw new Error(`Room ${options.room} does not exist`);
    const state = new ParticipantState({
      identity: options.identity ?? AGENT_IDENTITY,
      name: options.name ?? 'agent',
      metadata: options.metadata ?? '',
      attributes: options.attributes ?? {},
      kind: options.kind === 'sip' ? ParticipantInfo_Kind.SIP : ParticipantInfo_Kind.AGENT,
      canUpdateMetadata: true,
      agent: options.kind !== 'sip',
      hidden: options.hidden ?? false,
    });
    // Loaded on the first agent's join: its audio output brings werift (~360 ms of a cold start) with it.
    const { EmbeddedAgentConnection } = await import('./embedded-agent-connection.js');
    const connection = new EmbeddedAgentConnection(state, room, this.endpoint.logger);
    connection.enter();
    this.connections.add(connection);
    connection.on('disconnected', () => this.connections.delete(connection));
    return connection;
  }

  async close(): Promise<void> {
    await Promise.all([...this.connections].map((connection) => connection.leave()));
  }
}
