import {
  CreateRoomRequest,
  DeleteRoomRequest,
  DeleteRoomResponse,
  DisconnectReason,
  ListParticipantsRequest,
  ListParticipantsResponse,
  ListRoomsRequest,
  ListRoomsResponse,
  MuteRoomTrackRequest,
  MuteRoomTrackResponse,
  RemoveParticipantResponse,
  RoomParticipantIdentity,
  SendDataRequest,
  SendDataResponse,
  UpdateParticipantRequest,
  UpdateRoomMetadataRequest,
  UpdateSubscriptionsRequest,
  UpdateSubscriptionsResponse,
} from '@livekit/protocol';
import { roomServiceData } from './room-service-data.js';
import type { EmbeddedEndpoint } from './embedded-endpoint.js';
import { administers, isTwirpAnswer, twirpError, twirpGrant, type TwirpAnswer } from './twirp.js';

/**
 * LiveKit's RoomService (Twirp, JSON) as `livekit-server-sdk`'s RoomServiceClient calls it against the
 * embedded endpoint: create/list/delete rooms, room metadata, list/get/update/remove participants, mute a
 * published track, update subscriptions, send data. Authorised with a token carrying
 * `roomCreate`/`roomList`/`roomAdmin` (admin for one room, or all rooms when the grant names none).
 *
 * @example
 * const answer = await roomServiceCall(endpoint, 'CreateRoom', body, request.headers.get('authorization'));
 */
export async function roomServiceCall(endpoint: EmbeddedEndpoint, method: string, body: unknown, authorization: string | undefined): Promise<TwirpAnswer> {
  const grant = await twirpGrant(endpoint.verifier, authorization);
  if (isTwirpAnswer(grant)) return grant;
  const json = (body ?? {}) as Record<string, unknown>;
  try {
    switch (method) {
      case 'CreateRoom': {
        if (!grant.roomCreate) return twirpError(403, 'permission_denied', 'permissions denied');
        const request = CreateRoomRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!request.name) return twirpError(400, 'invalid_argument', 'room name is required');
        const existed = endpoint.rooms.get(request.name) !== undefined;
        const room = endpoint.rooms.ensure({
          name: request.name,
          metadata: request.metadata,
          ...(request.emptyTimeout ? { emptyTimeoutSeconds: request.emptyTimeout } : {}),
          maxParticipants: request.maxParticipants,
        });
        if (!existed) endpoint.agentWorkers.roomCreated(room, request.agents);
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
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        if (!room) return twirpError(404, 'not_found', 'requested room does not exist');
        room.setMetadata(request.metadata);
        return { status: 200, body: room.info().toJson() };
      }
      case 'ListParticipants': {
        const request = ListParticipantsRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        if (!room) return twirpError(404, 'not_found', 'requested room does not exist');
        return { status: 200, body: new ListParticipantsResponse({ participants: room.list().map((member) => member.state.info()) }).toJson() };
      }
      case 'RemoveParticipant': {
        const request = RoomParticipantIdentity.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        const member = room?.member(request.identity);
        if (!room || !member) return twirpError(404, 'not_found', 'participant not found');
        room.remove(member, DisconnectReason.PARTICIPANT_REMOVED);
        return { status: 200, body: new RemoveParticipantResponse().toJson() };
      }
      case 'GetParticipant': {
        const request = RoomParticipantIdentity.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const member = endpoint.rooms.get(request.room)?.member(request.identity);
        if (!member) return twirpError(404, 'not_found', 'participant not found');
        return { status: 200, body: member.state.info().toJson() };
      }
      case 'UpdateParticipant': {
        const request = UpdateParticipantRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        const member = room?.member(request.identity);
        if (!room || !member) return twirpError(404, 'not_found', 'participant not found');
        const { state } = member;
        state.update({ name: request.name || undefined, metadata: request.metadata || undefined, attributes: request.attributes });
        if (request.permission) {
          const permission = request.permission;
          Object.assign(state.permission, {
            canPublish: permission.canPublish,
            canSubscribe: permission.canSubscribe,
            canPublishData: permission.canPublishData,
            canUpdateMetadata: permission.canUpdateMetadata,
            hidden: permission.hidden,
          });
          state.touch();
          // Revoked rights take effect now: its tracks are unpublished, its subscriptions dropped.
          if (!permission.canPublish) for (const sid of [...state.tracks.keys()]) room.unpublishTrack(member, sid);
          if (!permission.canSubscribe) {
            const tracks = room.list().flatMap((other) => [...other.state.tracks.keys()]);
            member.setSubscriptions?.(tracks, false);
          }
        }
        room.participantChanged(member);
        return { status: 200, body: state.info().toJson() };
      }
      case 'MutePublishedTrack': {
        const request = MuteRoomTrackRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        const member = room?.member(request.identity);
        if (!room || !member) return twirpError(404, 'not_found', 'participant not found');
        // Like LiveKit without `enable_remote_unmute`: the server may mute a track, only its publisher unmutes it.
        if (!request.muted && member.state.tracks.get(request.trackSid)?.info.muted) {
          return twirpError(412, 'failed_precondition', 'remote unmute not enabled');
        }
        if (!room.muteTrack(member, request.trackSid, request.muted)) return twirpError(404, 'not_found', 'track not found');
        const track = member.state.tracks.get(request.trackSid)!;
        return { status: 200, body: new MuteRoomTrackResponse({ track: track.info.clone() }).toJson() };
      }
      case 'UpdateSubscriptions': {
        const request = UpdateSubscriptionsRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const member = endpoint.rooms.get(request.room)?.member(request.identity);
        if (!member) return twirpError(404, 'not_found', 'participant not found');
        const trackSids = [...request.trackSids, ...request.participantTracks.flatMap((tracks) => tracks.trackSids)];
        member.setSubscriptions?.(trackSids, request.subscribe);
        return { status: 200, body: new UpdateSubscriptionsResponse().toJson() };
      }
      case 'SendData': {
        const request = SendDataRequest.fromJson(json as never, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const room = endpoint.rooms.get(request.room);
        if (!room) return twirpError(404, 'not_found', 'requested room does not exist');
        const data = roomServiceData(request, (sid) => room.memberBySid(sid)?.state.identity);
        if (typeof data === 'string') return twirpError(400, 'invalid_argument', data);
        room.sendData(undefined, data.packet, data.reliable);
        return { status: 200, body: new SendDataResponse().toJson() };
      }
      default:
        return twirpError(404, 'bad_route', `RoomService/${method} is not served by the embedded endpoint`);
    }
  } catch (error) {
    return twirpError(400, 'malformed', `invalid request: ${(error as Error).message}`);
  }
}
