import type { creditRoutes } from '../../../../contract/credits.js';
import type { GroupHandlers } from '../handler.js';

export const creditHandlers: GroupHandlers<typeof creditRoutes> = {
  create: async ({ body }, { services, principal }) => services.credits.create(principal, body),
  list: async ({ query }, { services, principal }) => services.credits.list(principal, { page: query.page, pageSize: query.page_size }),
  retrieve: async ({ params }, { services, principal }) => services.credits.retrieve(principal, params.credit),
  createLedgerEntry: async ({ params, body }, { services, principal }) => services.credits.addEntry(principal, params.credit, body),
  latestLedgerEntry: async ({ params }, { services, principal }) => services.credits.latestEntry(principal, params.credit),
};
