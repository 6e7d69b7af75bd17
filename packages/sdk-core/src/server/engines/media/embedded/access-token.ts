import { RoomConfiguration, type RoomAgentDispatch } from '@livekit/protocol';
import type { ClaimGrants, TokenVerifier } from 'livekit-server-sdk';

/** Why a token was refused, with the HTTP status LiveKit answers (401 bad token, 403 no permission). */
export class AccessTokenError extends Error {
  override name = 'AccessTokenError';
  constructor(
    message: string,
    readonly status: 401 | 403,
  ) {
    super(message);
  }
}

/** A verified join token. */
export interface JoinClaims {
  identity: string;
  name: string;
  room: string;
  metadata: string;
  attributes: Record<string, string>;
  kind: string;
  canPublish: boolean;
  canSubscribe: boolean;
  canPublishData: boolean;
  canUpdateOwnMetadata: boolean;
  hidden: boolean;
  agent: boolean;
  /** Agents to dispatch when this join creates the room (the token's `roomConfig.agents`). */
  roomAgents: RoomAgentDispatch[];
}

/**
 * Verifies LiveKit access tokens (HS256 JWTs with a `video` grant) with the endpoint's key pair.
 *
 * @example
 * const claims = await new JoinTokenVerifier(key, secret).verifyJoin(token);
 */
export class JoinTokenVerifier {
  private verifier: Promise<TokenVerifier> | undefined;

  constructor(
    private readonly apiKey: string,
    private readonly apiSecret: string,
  ) {}

  /** livekit-server-sdk (~160 ms to load) is loaded on the first token to verify, not at start-up. */
  private tokenVerifier(): Promise<TokenVerifier> {
    this.verifier ??= import('livekit-server-sdk').then(({ TokenVerifier }) => new TokenVerifier(this.apiKey, this.apiSecret));
    return this.verifier;
  }

  /** Any valid token (room service calls check grants themselves). */
  async verify(token: string | undefined): Promise<ClaimGrants> {
    if (!token) throw new AccessTokenError('no permissions to access the room', 401);
    const verifier = await this.tokenVerifier();
    try {
      return await verifier.verify(token, 10);
    } catch (error) {
      throw new AccessTokenError(`invalid token: ${(error as Error).message}`, 401);
    }
  }

  /** A token that allows joining a room; returns what the participant may do. */
  async verifyJoin(token: string | undefined): Promise<JoinClaims> {
    const claims = await this.verify(token);
    const video = claims.video;
    if (!video?.roomJoin || !video.room) throw new AccessTokenError('permissions denied', 401);
    const identity = claims.sub ?? '';
    if (!identity) throw new AccessTokenError('participant identity is required', 401);
    return {
      identity,
      name: claims.name ?? '',
      room: video.room,
      metadata: claims.metadata ?? '',
      attributes: claims.attributes ?? {},
      kind: claims.kind ?? '',
      canPublish: video.canPublish ?? true,
      canSubscribe: video.canSubscribe ?? true,
      canPublishData: video.canPublishData ?? true,
      canUpdateOwnMetadata: video.canUpdateOwnMetadata ?? false,
      hidden: video.hidden ?? false,
      agent: video.agent ?? false,
      roomAgents: roomAgentsOf(claims.roomConfig),
    };
  }
}

/** Reads the token from `access_token` or an `Authorization: Bearer` header. */
export function tokenFromRequest(url: URL, authorization: string | undefined): string | undefined {
  const fromQuery = url.searchParams.get('access_token');
  if (fromQuery) return fromQuery;
  const match = /^Bearer\s+(.+)$/i.exec(authorization ?? '');
  return match?.[1]?.trim();
}

/** The agents a token's room configuration dispatches (a malformed configuration dispatches none). */
function roomAgentsOf(roomConfig: unknown): RoomAgentDispatch[] {
  if (!roomConfig || typeof roomConfig !== 'object') return [];
  try {
    return RoomConfiguration.fromJson(roomConfig as never, { ignoreUnknownFields: true }).agents;
  } catch {
    return [];
  }
}
