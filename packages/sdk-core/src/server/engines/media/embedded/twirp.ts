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
