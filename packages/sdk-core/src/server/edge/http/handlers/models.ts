import type { Llm } from '../../../../contract/llms.js';
import { MAX_LISTED_MODELS, type OpenAiModel, type modelRoutes } from '../../../../contract/models.js';
import type { GroupHandlers } from '../handler.js';

/** An LLM as OpenAI's `/v1/models` describes a model. */
function asModel(llm: Llm): OpenAiModel {
  return { id: llm.id, object: 'model', created: Math.floor(Date.parse(llm.created_at) / 1000), owned_by: llm.project ?? 'palaver' };
}

export const modelHandlers: GroupHandlers<typeof modelRoutes> = {
  list: async (_request, { services, principal }) => {
    const data: OpenAiModel[] = [];
    let page: string | undefined;
    do {
      const result = await services.llms.list(principal, { pageSize: 100, ...(page ? { page } : {}) });
      data.push(...result.values.map(asModel));
      page = result.next_page ?? undefined;
    } while (page && data.length < MAX_LISTED_MODELS);
    return { object: 'list', data: data.slice(0, MAX_LISTED_MODELS) };
  },
  retrieve: async ({ params }, { services, principal }) => asModel(await services.llms.retrieve(principal, params.model)),
};
