import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { DisconnectReason, LeaveRequest, LeaveRequest_Action } from '@livekit/protocol';
import type { Logger } from 'pino';
import { WebSocketAcceptor } from '../../../kernel/websocket-acceptor.js';
import { AccessTokenError, JoinTokenVerifier, tokenFromRequest, type JoinClaims } from './access-token.js';
import type { ClientSession } from './client-session.js';
import { defaultEndpointSettings, type EndpointSettings } from './endpoint-settings.js';
import { JoinParameterError, parseJoinParameters, type JoinParameters } from './join-parameters.js';
import { ParticipantState, participantKindFromClaim } from './participant-state.js';
import type { Room } from './room.js';
import { RoomRegistry } from './room-registry.js';
import { CloseCode, SignalConnection } from './signal-connection.js';
import { AgentWorkers } from './workers/agent-workers.js';

/** Largest signalling message accepted (an SDP offer with many sections is ~20 kB). */
const MAX_SIGNAL_BYTES = 512 * 1024;

/** How long a join waits for a still-connecting participant of the same identity before replacing it anyway. */
const DUPLICATE_SETTLE_MS = 3000;

/** The HTTP answer of a validate request or a refused upgrade. */
export interface EndpointRefusal {
  status: number;
  message: string;
}

/**
 * The LiveKit-compatible endpoint: signalling websockets (`/rtc`, `/rtc/v1`), their validate
 * routes, and the rooms. Everything runs in this process; WebRTC is werift.
 *
 * @example
 * const endpoint = new EmbeddedEndpoint({ apiKey, apiSecret }, logger);
 * server.onUpgrade('/rtc/v1', (request, socket, head) => endpoint.handleUpgrade(request, socket, head, 1));
 */
export class EmbeddedEndpoint {
  readonly rooms = new RoomRegistry();
  readonly settings: EndpointSettings;
  readonly verifier: JoinTokenVerifier;
  /** LiveKit Agents workers (`/agent`) and their dispatches. */
  readonly agentWorkers: AgentWorkers;
  private readonly sockets: WebSocketAcceptor;
  private readonly sessions = new Set<ClientSession>();

  constructor(
    settings: Pick<EndpointSettings, 'apiKey' | 'apiSecret'> & Partial<EndpointSettings>,
    readonly logger: Logger,
  ) {
    this.settings = { ...defaultEndpointSettings, ...settings };
    this.verifier = new JoinTokenVerifier(this.settings.apiKey, this.settings.apiSecret);
    this.sockets = new WebSocketAcceptor({ maximumMessageBytes: MAX_SIGNAL_BYTES, logger, name: 'media signalling' });
    this.agentWorkers = new AgentWorkers({ rooms: this.rooms, verifier: this.verifier, settings: this.settings, logger });
  }

  /** Answers `GET /rtc/validate` and `/rtc/v1/validate` like LiveKit: 200 `success`, 401, or 404. */
  async validate(url: URL, authorization: string | undefined, protocolVersion: 0 | 1): Promise<EndpointRefusal> {
    try {
      const claims = await this.verifier.verifyJoin(tokenFromRequest(url, authorization));
      parseJoinParameters(url, protocolVersion);
      if (!this.rooms.get(claims.room) && !this.settings.autoCreateRooms) throw new RoomNotFoundError();
      return { status: 200, message: 'success' };
    } catch (error) {
      return refusalOf(error);
    }
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, protocolVersion: 0 | 1): void {
    this.sockets.guard(socket);
    void this.admit(request, protocolVersion).then(
      (admitted) => {
        this.sockets.complete(request, socket, head, (webSocket) => {
          const connection = new SignalConnection(webSocket);
          try {
            this.open(admitted.sessions, connection, admitted.claims, admitted.parameters, admitted.room);
          } catch (error) {
            this.logger.warn({ err: error }, 'media join failed');
            connection.close(CloseCode.invalidPayload, 'join failed');
          }
        });
      },
      (error: unknown) => {
        const refusal = refusalOf(error);
        const reason = refusal.status === 401 ? 'Unauthorized' : refusal.status === 404 ? 'Not Found' : 'Bad Request';
        this.sockets.refuse(socket, refusal.status, reason, refusal.message);
      },
    );
  }

  /** Sessions currently attached (tests, metrics). */
  clientSessions(): ClientSession[] {
    return [...this.sessions];
  }

  /** Removes every participant (each told to leave once its data went out, within a bound), then closes the rooms. */
  async close(): Promise<void> {
    const sessions = [...this.sessions];
    for (const session of sessions) session.leave(DisconnectReason.SERVER_SHUTDOWN);
    await Promise.all(sessions.map((session) => session.departed()));
    this.agentWorkers.close();
    this.rooms.closeAll();
    void this.sockets.close();
  }

  private async admit(
    request: IncomingMessage,
    protocolVersion: 0 | 1,
  ): Promise<{ claims: JoinClaims; parameters: JoinParameters; room: Room | undefined; sessions: SessionModule }> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const claims = await this.verifier.verifyJoin(tokenFromRequest(url, request.headers.authorization));
    const parameters = parseJoinParameters(url, protocolVersion);
    // A resume needs no room creation; an unknown room is answered with a reconnect leave later.
    const room = parameters.reconnect ? this.rooms.get(claims.room) : this.roomFor(claims);
    return { claims, parameters, room, sessions: await loadSessionModule() };
  }

  private roomFor(claims: JoinClaims): Room {
    const existing = this.rooms.get(claims.room);
    if (existing) return existing;
    if (!this.settings.autoCreateRooms) throw new RoomNotFoundError();
    const room = this.rooms.ensure({ name: claims.room });
    this.agentWorkers.roomCreated(room, claims.roomAgents);
    return room;
  }

  private open({ ClientSession }: SessionModule, connection: SignalConnection, claims: JoinClaims, parameters: JoinParameters, room: Room | undefined): void {
    this.logger.debug(
      { room: claims.room, identity: claims.identity, protocolVersion: parameters.protocolVersion, reconnect: parameters.reconnect },
      'signal connection',
    );
    if (parameters.reconnect) {
      const member = parameters.participantSid ? room?.memberBySid(parameters.participantSid) : undefined;
      if (member instanceof ClientSession && member.state.identity === claims.identity && !member.left) {
        member.resume(connection);
        return;
      }
      // The session is gone (server restart, timeout): the client must rejoin from scratch.
      connection.send({
        case: 'leave',
        value: new LeaveRequest({ canReconnect: true, reason: DisconnectReason.STATE_MISMATCH, action: LeaveRequest_Action.RECONNECT }),
      });
      setTimeout(() => connection.close(CloseCode.normal, 'state mismatch'), 100).unref();
      return;
    }
    if (!room || room.closed) throw new RoomNotFoundError();
    if (room.isFull() && !room.member(claims.identity)) {
      connection.send({ case: 'leave', value: new LeaveRequest({ reason: DisconnectReason.JOIN_FAILURE, action: LeaveRequest_Action.DISCONNECT }) });
      connection.close(CloseCode.normal, 'room is full');
      return;
    }
    const state = new ParticipantState({
      identity: claims.identity,
      name: claims.name,
      // Metadata and attributes sent with the join only count when the token allows updating them.
      metadata: (claims.canUpdateOwnMetadata ? parameters.metadata : undefined) ?? claims.metadata,
      attributes: { ...claims.attributes, ...(claims.canUpdateOwnMetadata ? parameters.attributes : {}) },
      kind: participantKindFromClaim(claims.kind, claims.agent),
      canPublish: claims.canPublish,
      canSubscribe: claims.canSubscribe,
      canPublishData: claims.canPublishData,
      canUpdateMetadata: claims.canUpdateOwnMetadata,
      hidden: claims.hidden,
      agent: claims.agent,
      clientProtocol: parameters.clientProtocol,
      clientSdk: parameters.clientSdk,
    });
    const session = new ClientSession(state, room, parameters, this.settings, this.logger.child({ room: room.name }));
    const begin = () => {
      if (connection.closed) return;
      if (room.closed) return connection.close(CloseCode.normal, 'room closed');
      this.sessions.add(session);
      session.onLeft(() => this.sessions.delete(session));
      session.start(connection);
    };
    // The newer join replaces the older participant (DUPLICATE_IDENTITY), as LiveKit does. An older one still
    // connecting would not act on its leave (its SDK waits out a 15 s connection timeout, then joins again and
    // replaces this one): it is replaced once connected, or after a short bound.
    const previous = room.member(claims.identity);
    if (previous instanceof ClientSession && !previous.left) {
      const bound = new Promise<void>((resolve) => setTimeout(resolve, DUPLICATE_SETTLE_MS).unref());
      void Promise.race([previous.settled(), bound])
        .then(begin)
        .catch((error: unknown) => {
          this.logger.warn({ err: error }, 'media join failed');
          connection.close(CloseCode.invalidPayload, 'join failed');
        });
      return;
    }
    begin();
  }
}

type SessionModule = typeof import('./client-session.js');
let sessionModule: Promise<SessionModule> | undefined;

/**
 * The client sessions' module, loaded on the first join: their peer connections bring werift (WebRTC, with its
 * certificate and ASN.1 libraries), ~360 ms of a cold start that REST-only use never needs.
 */
function loadSessionModule(): Promise<SessionModule> {
  sessionModule ??= import('./client-session.js');
  return sessionModule;
}

export class RoomNotFoundError extends Error {
  override name = 'RoomNotFoundError';
  constructor() {
    super('requested room does not exist');
  }
}

function refusalOf(error: unknown): EndpointRefusal {
  if (error instanceof AccessTokenError) return { status: error.status, message: error.message };
  if (error instanceof RoomNotFoundError) return { status: 404, message: error.message };
  if (error instanceof JoinParameterError) return { status: 400, message: error.message };
  return { status: 500, message: 'internal error' };
}
