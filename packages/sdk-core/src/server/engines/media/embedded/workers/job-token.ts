import type { ParticipantPermission } from '@livekit/protocol';
import type { EndpointSettings } from '../endpoint-settings.js';

/** Lifetime of a job's join token: the agent joins within seconds; a long job keeps its connection. */
const JOB_TOKEN_TTL_SECONDS = 6 * 3600;

export interface JobTokenOptions {
  room: string;
  identity: string;
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  /** What the worker asked its agents may do (its registration's `allowedPermissions`). */
  permissions: ParticipantPermission;
}

/**
 * The join token of an assigned job: an agent participant (kind `agent`, the `agent` grant) of the room,
 * with the identity, name, metadata and attributes the worker chose and the permissions it registered with.
 *
 * @example
 * const token = await mintJobToken(settings, { room, identity: 'agent-AJ_1', name: '', metadata: '', attributes: {}, permissions });
 */
export async function mintJobToken(settings: Pick<EndpointSettings, 'apiKey' | 'apiSecret'>, options: JobTokenOptions): Promise<string> {
  const { AccessToken } = await import('livekit-server-sdk');
  const token = new AccessToken(settings.apiKey, settings.apiSecret, {
    identity: options.identity,
    ttl: JOB_TOKEN_TTL_SECONDS,
    ...(options.name ? { name: options.name } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
    ...(Object.keys(options.attributes).length > 0 ? { attributes: options.attributes } : {}),
  });
  token.kind = 'agent';
  const permissions = options.permissions;
  token.addGrant({
    roomJoin: true,
    room: options.room,
    agent: true,
    canPublish: permissions.canPublish,
    canSubscribe: permissions.canSubscribe,
    canPublishData: permissions.canPublishData,
    canUpdateOwnMetadata: permissions.canUpdateMetadata,
    hidden: permissions.hidden,
  });
  return token.toJwt();
}
