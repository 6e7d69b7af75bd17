import type { toolRoutes } from '../../../../contract/tools.js';
import type { GroupHandlers } from '../handler.js';

export const toolHandlers: GroupHandlers<typeof toolRoutes> = {
  create: async ({ body }, { services, principal }) => services.tools.create(principal, body),
  retrieve: async ({ params }, { services, principal }) => services.tools.retrieve(principal, params.tool),
  update: async ({ params, body }, { services, principal }) => services.tools.update(principal, params.tool, body),
  delete: async ({ params }, { services, principal }) => services.tools.delete(principal, params.tool),
  list: async ({ query }, { services, principal }) => services.tools.list(principal, { page: query.page, pageSize: query.page_size }),
};
