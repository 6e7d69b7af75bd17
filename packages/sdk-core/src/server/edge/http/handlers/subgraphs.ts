import type { subgraphRoutes } from '../../../../contract/subgraphs.js';
import type { GroupHandlers } from '../handler.js';

export const subgraphHandlers: GroupHandlers<typeof subgraphRoutes> = {
  create: async ({ body }, { services, principal }) => services.subgraphs.create(principal, body),
  list: async (_input, { services, principal }) => services.subgraphs.list(principal),
  listDefault: async (_input, { services, principal }) => services.subgraphs.listDefault(principal),
  retrieve: async ({ params }, { services, principal }) => services.subgraphs.retrieve(principal, params.id),
  update: async ({ params, body }, { services, principal }) => services.subgraphs.update(principal, params.id, body),
  delete: async ({ params }, { services, principal }) => services.subgraphs.delete(principal, params.id),
};
