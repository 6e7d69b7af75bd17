import type { llmRoutes } from '../../../../contract/llms.js';
import type { GroupHandlers } from '../handler.js';

export const llmHandlers: GroupHandlers<typeof llmRoutes> = {
  create: async ({ body }, { services, principal }) => services.llms.create(principal, body),
  list: async ({ query }, { services, principal }) => services.llms.list(principal, { page: query.page, pageSize: query.page_size }),
  retrieve: async ({ params }, { services, principal }) => services.llms.retrieve(principal, params.llm),
  update: async ({ params, body }, { services, principal }) => services.llms.update(principal, params.llm, body),
  delete: async ({ params }, { services, principal }) => {
    await services.llms.delete(principal, params.llm);
    return { message: `llm '${params.llm}' deleted` };
  },
};
