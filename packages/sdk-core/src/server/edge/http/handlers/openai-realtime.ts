import { EPHEMERAL_KEY_PREFIX, RealtimeClientSecretRequest, type openAiRealtimeRoutes } from '../../../../contract/openai-realtime.js';
import { ApiError, BadRequestError } from '../../../../errors/api-error.js';
import type { GroupHandlers } from '../handler.js';
import { realtimeCalls } from '../../openai-realtime/realtime-call-server.js';

export const openAiRealtimeHandlers: GroupHandlers<typeof openAiRealtimeRoutes> = {
  // An ephemeral key is a usage token of one human, so the socket meters and limits that human (decision 0113).
  createClientSecret: async ({ body }, { services, principal }) => {
    if (!principal.human) throw new BadRequestError('x-human-id: an ephemeral key acts for one human; name them in the x-human-id header');
    const model = body.session?.model;
    if (model) {
      await services.llms.retrieve(principal, model).catch((error: unknown) => {
        if (ApiError.isInstance(error) && error.status === 404)
          throw new BadRequestError(`session.model: no LLM '${model}' is available (see GET /v1/llm/list)`);
        throw error;
      });
    }
    const seconds = body.expires_after?.seconds ?? 600;
    const token = await services.usageTokens.create(principal.project, principal.human, seconds);
    return {
      value: `${EPHEMERAL_KEY_PREFIX}${token}`,
      expires_at: Math.floor(Date.now() / 1000) + seconds,
      session: { type: 'realtime' as const, object: 'realtime.session' as const, model: model ?? null },
    };
  },
  // WebRTC: the offer answered by a peer of the call server, the same conversation as the socket's on its data channel.
  createCall: async ({ query, body }, { services, principal }) => {
    const model = query.model ?? sessionModel(body.session);
    const { sdp, callId } = await realtimeCalls(services).open(principal, body.sdp, model);
    return new Response(sdp, { status: 201, headers: { 'content-type': 'application/sdp', location: `/v1/realtime/calls/${callId}` } });
  },
  hangupCall: async ({ params }, { services, principal }) => {
    await realtimeCalls(services).hangup(principal, params.call_id);
  },
};

/** The `model` of a call form's `session` field (JSON of `{ type: 'realtime', model }`). */
function sessionModel(session: string | undefined): string | undefined {
  if (session === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(session);
  } catch {
    throw new BadRequestError('session: not JSON');
  }
  const result = RealtimeClientSecretRequest.shape.session.safeParse(parsed);
  if (!result.success)
    throw new BadRequestError(`session: ${result.error.issues.map((issue) => `${issue.path.join('.') || 'session'} ${issue.message}`).join('; ')}`);
  return result.data?.model;
}
