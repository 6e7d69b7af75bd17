import type { VideoGrant } from 'livekit-server-sdk';
import { AccessTokenError, type JoinTokenVerifier } from './access-token.js';

/** A Twirp answer: status and JSON body (errors use Twirp's `{code, msg}`). */
export interface TwirpAnswer {
  status: number;
  body: unknown;
}

export const twirpError = (status: number, code: string, msg: string): TwirpAnswer => ({ status, body: { code, msg } });

/** The video grant of a Twirp call's bearer token, or the 401 answer when it has none valid. */
export async function twirpGrant(verifier: JoinTokenVerifier, authorization: string | undefined): Promise<VideoGrant | TwirpAnswer> {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1];
  try {
    return (await verifier.verify(token)).video ?? {};
  } catch (error) {
    return twirpError(401, 'unauthenticated', error instanceof AccessTokenError ? error.message : 'invalid token');
  }
}

/** Whether a grant administers `room` (a room admin grant without a room administers all). */
export function administers(grant: VideoGrant, room: string): boolean {
  return grant.roomAdmin === true && (!grant.room || grant.room === room);
}

export function isTwirpAnswer(value: VideoGrant | TwirpAnswer): value is TwirpAnswer {
  return 'status' in value && 'body' in value;
}

/** The Twirp services the embedded endpoint serves. */
export const SERVED_TWIRP_SERVICES = ['livekit.RoomService', 'livekit.AgentDispatchService', 'livekit.SIP'] as const;

/**
 * The answer to a Twirp call of a service the embedded endpoint does not serve (Egress, Ingress...) or of a
 * malformed Twirp path: Twirp's `bad_route` (404 `{code, msg}`), which LiveKit's server SDKs turn into a readable
 * error instead of "Unknown internal error".
 */
export function unservedTwirpRoute(httpMethod: string, path: string): TwirpAnswer {
  if (httpMethod !== 'POST') return twirpError(404, 'bad_route', `unsupported method ${httpMethod} (only POST is allowed)`);
  const service = /^\/twirp\/([^/]+)\//.exec(path)?.[1] ?? path;
  return twirpError(404, 'bad_route', `${service} is not served by the embedded media endpoint (it serves ${SERVED_TWIRP_SERVICES.join(', ')}): ${path}`);
}
