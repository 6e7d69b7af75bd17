import type { scenarioRoutes } from '../../../../contract/scenarios.js';
import type { GroupHandlers } from '../handler.js';

export const scenarioHandlers: GroupHandlers<typeof scenarioRoutes> = {
  list: async ({ query }, { services, principal }) => services.scenarios.list(principal, { page: query.page, pageSize: query.page_size }),
  retrieve: async ({ params }, { services, principal }) => services.scenarios.retrieve(principal, params.scenario_id),
  update: async ({ params, body }, { services, principal }) => services.scenarios.update(principal, params.scenario_id, body),
  delete: async ({ params }, { services, principal }) => {
    await services.scenarios.delete(principal, params.scenario_id);
    return { message: `scenario '${params.scenario_id}' deleted` };
  },
  create: async ({ body }, { services, principal }) => services.scenarios.create(principal, body),
};
