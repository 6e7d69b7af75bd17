import { CreateAgentDispatchRequest, DeleteAgentDispatchRequest, ListAgentDispatchRequest, ListAgentDispatchResponse } from '@livekit/protocol';
import type { EmbeddedEndpoint } from '../embedded-endpoint.js';
import { administers, isTwirpAnswer, twirpError, twirpGrant, type TwirpAnswer } from '../twirp.js';

/**
 * LiveKit's AgentDispatchService (Twirp, JSON) as `livekit-server-sdk`'s AgentDispatchClient calls it:
 * create, list and delete the dispatches of a room's agents. Authorised like LiveKit: a token that
 * administers the room.
 *
 * @example
 * const answer = await agentDispatchCall(endpoint, 'CreateDispatch', { room: 'r1', agent_name: 'support' }, authorization);
 */
export async function agentDispatchCall(endpoint: EmbeddedEndpoint, method: string, body: unknown, authorization: string | undefined): Promise<TwirpAnswer> {
  const grant = await twirpGrant(endpoint.verifier, authorization);
  if (isTwirpAnswer(grant)) return grant;
  const json = (body ?? {}) as never;
  const workers = endpoint.agentWorkers;
  try {
    switch (method) {
      case 'CreateDispatch': {
        const request = CreateAgentDispatchRequest.fromJson(json, { ignoreUnknownFields: true });
        if (!request.room) return twirpError(400, 'invalid_argument', 'room is required');
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const dispatch = workers.createDispatch({ room: request.room, agentName: request.agentName, metadata: request.metadata });
        return { status: 200, body: workers.listDispatches(request.room, dispatch.id)[0]!.toJson() };
      }
      case 'ListDispatch': {
        const request = ListAgentDispatchRequest.fromJson(json, { ignoreUnknownFields: true });
        if (!request.room) return twirpError(400, 'invalid_argument', 'room is required');
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const agentDispatches = workers.listDispatches(request.room, request.dispatchId || undefined);
        return { status: 200, body: new ListAgentDispatchResponse({ agentDispatches }).toJson() };
      }
      case 'DeleteDispatch': {
        const request = DeleteAgentDispatchRequest.fromJson(json, { ignoreUnknownFields: true });
        if (!administers(grant, request.room)) return twirpError(403, 'permission_denied', 'permissions denied');
        const deleted = workers.deleteDispatch(request.room, request.dispatchId);
        if (!deleted) return twirpError(404, 'not_found', 'dispatch not found');
        return { status: 200, body: deleted.toJson() };
      }
      default:
        return twirpError(404, 'bad_route', `AgentDispatchService/${method} is not served by the embedded endpoint`);
    }
  } catch (error) {
    return twirpError(400, 'malformed', `invalid request: ${(error as Error).message}`);
  }
}
