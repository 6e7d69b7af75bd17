import type { SIPInboundTrunkInfo } from '@livekit/protocol';
import type { TwirpAnswer } from '../../engines/media/index.js';

/** A request body as `@livekit/protocol`'s `fromJson` takes it. */
export type RequestJson = Parameters<typeof SIPInboundTrunkInfo.fromJson>[0];

/** Twirp's error codes the SIP service answers, with their HTTP status (Twirp's specification). */
const STATUS = {
  malformed: 400,
  invalid_argument: 400,
  unauthenticated: 401,
  permission_denied: 403,
  not_found: 404,
  bad_route: 404,
  deadline_exceeded: 408,
  already_exists: 409,
  failed_precondition: 412,
  unavailable: 503,
} as const;

export type TwirpCode = keyof typeof STATUS;

/**
 * A refused Twirp call, thrown where the refusal is found and answered as `{code, msg, meta}` with the code's HTTP
 * status, as LiveKit's server answers (`livekit-server-sdk` reads `msg` and `meta` into its `TwirpError`).
 */
export class TwirpFailure extends Error {
  override name = 'TwirpFailure';
  constructor(
    readonly code: TwirpCode,
    message: string,
    readonly meta?: Record<string, string>,
  ) {
    super(message);
  }

  answer(): TwirpAnswer {
    return { status: STATUS[this.code], body: { code: this.code, msg: this.message, ...(this.meta ? { meta: this.meta } : {}) } };
  }
}

/** Throws `invalid_argument` with `message` unless `condition` holds. */
export function demand(condition: unknown, message: string): asserts condition {
  if (!condition) throw new TwirpFailure('invalid_argument', message);
}

/** The bearer token of a Twirp call; `unauthenticated` without one. */
export function bearerToken(authorization: string | undefined): string {
  const token = /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1]?.trim();
  if (!token) throw new TwirpFailure('unauthenticated', 'no permissions to access the SIP service: an access token is required');
  return token;
}

/** The body as JSON; Twirp's `malformed` when it is not JSON or not an object. */
export function parseBody(body: string): RequestJson {
  let json: unknown;
  try {
    json = body.trim() === '' ? {} : JSON.parse(body);
  } catch (error) {
    throw new TwirpFailure('malformed', `the body is not JSON: ${(error as Error).message}`);
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) throw new TwirpFailure('malformed', 'the body must be a JSON object');
  return json as RequestJson;
}

/** What a method answers: a protocol message, or an empty object. */
export type TwirpResult = { toJson(options?: { useProtoFieldName?: boolean }): unknown } | Record<string, never>;

/** A method's answer as LiveKit's server writes it: the message's JSON with the proto field names (`sip_trunk_id`). */
export function twirpOk(result: TwirpResult): TwirpAnswer {
  return { status: 200, body: typeof result.toJson === 'function' ? result.toJson({ useProtoFieldName: true }) : result };
}
