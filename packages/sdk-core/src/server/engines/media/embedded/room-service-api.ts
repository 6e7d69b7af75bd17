import {
  CreateRoomRequest,
  DeleteRoomRequest,
  DeleteRoomResponse,
  DisconnectReason,
  ListParticipantsRequest,
  ListParticipantsResponse,
  ListRoomsRequest,
  ListRoomsResponse,
  RemoveParticipantResponse,
  RoomParticipantIdentity,
  UpdateRoomMetadataRequest,
} from '@livekit/protocol';
import { AccessTokenError } from './access-token.js';
import type { EmbeddedEndpoint } from './embedded-endpoint.js';

/** A Twirp answer: status and JSON body (errors use Twirp's `{code, msg}`). */
export interface TwirpAnswer {
  status: number;
  body: unknown;
}

const twirpError = (status: number, code: string, msg: string): TwirpAnswer => ({ status, body: { code, msg } });

/**
 * The subset of LiveKit's RoomService (Twirp, JSON) the platform and `livekit-server-sdk`'s
 * RoomServiceClient need against the embedded endpoint: create/list/delete rooms, room metadata,
 * list and remove participants. Authorised with a token carrying `roomCreate`/`roomList`/`roomAdmin`.
 *
 * @example
 * const answer = await roomServiceCall(endpoint, 'CreateRoom', body, request.headers.get('authorization'));
 */
export async function roomServiceCall(endpoint: EmbeddedEndpoint, method: string, body: unknown, authorization: string | undefined): Promise<TwirpAnswer> {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1];
  let grant;
  try {
    grant = (await endpoint.verifier.verify(token)).video ?? {};
  } catch (error) {
    return twirpError(401, 'unauthenticated', error instanceof AccessTokenError ? error.message : 'invalid token');
  }
  const json = (body ?? {}) as Record<string, unknown>;
  try {
    switch (method) {
      case 'CreateRoom': {
        if (!grant.roomCreate) return twirpError(403, 'permission_denied', 'permissions denied');
        const request = CreateRoomRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!request.name) return twirpError(400, 'invalid_argument', 'room name is required');
        const room = endpoint.rooms.ensure({
          name: request.name,
          metadata: request.metadata,
          ...(request.emptyTimeout ? { emptyTimeoutSeconds: request.emptyTimeout } : {}),
          maxParticipants: request.maxParticipants,
        });
        return { status: 200, body: room.info().toJson() };
      }
      case 'ListRooms': {
        if (!grant.roomList) return twirpError(403, 'permission_denied', 'permissions denied');
        const request = ListRoomsRequest.fromJson(json as never, { ignoreUnknownFields: true });
        const rooms = endpoint.rooms.list().filter((room) => request.names.length === 0 || request.names.includes(room.name));
        return { status: 200, body: new ListRoomsResponse({ rooms: rooms.map((room) => room.info()) }).toJson() };
      }
      case 'DeleteRoom': {
        if (!grant.roomCreate) return twirpError(403, 'permission_denied', 'permissions denied');
        const request = DeleteRoomRequest.fromJson(json as never, { ignoreUnknownFields: true });
        endpoint.rooms.delete(request.room);
        return { status: 200, body: new DeleteRoomResponse().toJson() };
      }
      case 'UpdateRoomMetadata': {
        const request = UpdateRoomMetadataRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!grant.roomAdmin || (grant.room && grant.room !== request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        if (!room) return twirpError(404, 'not_found', 'requested room does not exist');
        room.setMetadata(request.metadata);
        return { status: 200, body: room.info().toJson() };
      }
      case 'ListParticipants': {
        const request = ListParticipantsRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!grant.roomAdmin || (grant.room && grant.room !== request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        if (!room) return twirpError(404, 'not_found', 'requested room does not exist');
        return { status: 200, body: new ListParticipantsResponse({ participants: room.list().map((member) => member.state.info()) }).toJson() };
      }
      case 'RemoveParticipant': {
        const request = RoomParticipantIdentity.fromJson(json as never, { ignoreUnknownFields: true });
        if (!grant.roomAdmin || (grant.room && grant.room !== request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        const member = room?.member(request.identity);
        if (!room || !member) return twirpError(404, 'not_found', 'participant not found');
        room.remove(member, DisconnectReason.PARTICIPANT_REMOVED);
        return { status: 200, body: new RemoveParticipantResponse().toJson() };
      }
      default:
        return twirpError(404, 'bad_route', `RoomService/${method} is not served by the embedded endpoint`);
    }
  } catch (error) {
    return twirpError(400, 'malformed', `invalid request: ${(error as Error).message}`);
  }
}
