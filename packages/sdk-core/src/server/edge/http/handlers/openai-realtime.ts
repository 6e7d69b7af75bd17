import { EPHEMERAL_KEY_PREFIX, type openAiRealtimeRoutes } from '../../../../contract/openai-realtime.js';
import { ApiError, BadRequestError } from '../../../../errors/api-error.js';
import type { GroupHandlers } from '../handler.js';

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
};
