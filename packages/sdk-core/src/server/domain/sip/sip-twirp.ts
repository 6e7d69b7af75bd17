import { TransferSIPParticipantRequest } from '@livekit/protocol';
import type { ClaimGrants } from 'livekit-server-sdk';
import type { TwirpAnswer } from '../../engines/media/index.js';
import type { SipCallApi } from './sip-call-api.js';
import type { SipRuleApi } from './sip-rule-api.js';
import type { SipTrunkApi } from './sip-trunk-api.js';
import { bearerToken, parseBody, type RequestJson, TwirpFailure, twirpOk, type TwirpResult } from './twirp-wire.js';

type Handler = (project: string, json: RequestJson, claims: ClaimGrants) => Promise<TwirpResult>;

/** The grant a method needs: `sip.admin` for trunks and rules, `sip.call` (and, to transfer, the room's admin) for calls. */
interface Method {
  grant: 'admin' | 'call';
  handle: Handler;
}

export interface SipTwirpParts {
  trunks: SipTrunkApi;
  rules: SipRuleApi;
  calls: SipCallApi;
  /** Verifies a LiveKit access token with the media endpoint's key pair. */
  verify: (token: string | undefined) => Promise<ClaimGrants>;
  /** The project SIP configuration made with the endpoint's key pair belongs to (decision 0109). */
  project: string;
  /** A Palaver API key's project (undefined: unknown or revoked): such a key acts for its own project. */
  apiKeyProject: (key: string) => Promise<{ project: string; disabled: boolean } | undefined>;
}

/** Everything an API key may do here: it administers its project. */
const API_KEY_CLAIMS: ClaimGrants = { sip: { admin: true, call: true }, video: { roomAdmin: true } };

/**
 * LiveKit's `livekit.SIP` Twirp service served from the platform's database (the embedded media endpoint's mode):
 * authenticates the bearer token, checks its SIP grant, reads the JSON body with `@livekit/protocol`'s messages and
 * answers their JSON, or a Twirp error `{code, msg}` (never a 500 for bad input).
 *
 * @example
 * const answer = await twirp.call('CreateSIPInboundTrunk', '{"trunk":{"name":"office","numbers":["+15550100"]}}', 'Bearer eyJ...');
 */
export class SipTwirp {
  private readonly methods: Record<string, Method>;

  constructor(private readonly parts: SipTwirpParts) {
    const { trunks, rules, calls } = parts;
    const admin = (handle: Handler): Method => ({ grant: 'admin', handle });
    this.methods = {
      CreateSIPInboundTrunk: admin((project, json) => trunks.createInbound(project, json)),
      CreateSIPOutboundTrunk: admin((project, json) => trunks.createOutbound(project, json)),
      GetSIPInboundTrunk: admin((project, json) => trunks.getInbound(project, json)),
      GetSIPOutboundTrunk: admin((project, json) => trunks.getOutbound(project, json)),
      ListSIPInboundTrunk: admin((project, json) => trunks.listInbound(project, json)),
      ListSIPOutboundTrunk: admin((project, json) => trunks.listOutbound(project, json)),
      UpdateSIPInboundTrunk: admin((project, json) => trunks.updateInbound(project, json)),
      UpdateSIPOutboundTrunk: admin((project, json) => trunks.updateOutbound(project, json)),
      DeleteSIPTrunk: admin((project, json) => trunks.delete(project, json)),
      CreateSIPDispatchRule: admin((project, json) => rules.create(project, json)),
      ListSIPDispatchRule: admin((project, json) => rules.list(project, json)),
      UpdateSIPDispatchRule: admin((project, json) => rules.update(project, json)),
      DeleteSIPDispatchRule: admin((project, json) => rules.delete(project, json)),
      CreateSIPParticipant: { grant: 'call', handle: (project, json) => calls.create(project, json) },
      TransferSIPParticipant: {
        grant: 'call',
        handle: (_project, json, claims) => {
          const room = TransferSIPParticipantRequest.fromJson(json, { ignoreUnknownFields: true }).roomName;
          const video = claims.video;
          if (!video?.roomAdmin || (video.room && video.room !== room))
            throw new TwirpFailure('permission_denied', 'permissions denied: transferring needs the room admin grant');
          return calls.transfer(json);
        },
      },
    };
  }

  /** Answers one call: `method` of the service, the raw request body, the `Authorization` header. */
  async call(method: string, body: string, authorization: string | undefined): Promise<TwirpAnswer> {
    try {
      const handler = this.methods[method];
      if (!handler) throw new TwirpFailure('bad_route', `livekit.SIP/${method} is not a method of the SIP service`);
      const { claims, project } = await this.caller(authorization);
      if (!claims.sip?.[handler.grant]) throw new TwirpFailure('permission_denied', `permissions denied: ${method} needs the sip.${handler.grant} grant`);
      const json = parseBody(body);
      const result = await handler.handle(project, json, claims);
      return twirpOk(result);
    } catch (error) {
      if (error instanceof TwirpFailure) return error.answer();
      // `@livekit/protocol`'s readers throw on fields of the wrong type: the request was malformed.
      if (error instanceof Error && /^cannot decode /.test(error.message)) return new TwirpFailure('malformed', `invalid request: ${error.message}`).answer();
      throw error;
    }
  }

  /**
   * Who calls: a LiveKit access token of the endpoint's key pair (its grants; the operator's project), or a Palaver
   * API key given as the token (`SipClient`'s `token` option; everything, in the key's own project).
   */
  private async caller(authorization: string | undefined): Promise<{ claims: ClaimGrants; project: string }> {
    const token = bearerToken(authorization);
    if (token.startsWith('pk_')) {
      const key = await this.parts.apiKeyProject(token);
      if (!key) throw new TwirpFailure('unauthenticated', 'invalid API key');
      if (key.disabled) throw new TwirpFailure('permission_denied', 'this project is disabled');
      return { claims: API_KEY_CLAIMS, project: key.project };
    }
    try {
      return { claims: await this.parts.verify(token), project: this.parts.project };
    } catch (error) {
      throw new TwirpFailure('unauthenticated', (error as Error).message);
    }
  }
}
