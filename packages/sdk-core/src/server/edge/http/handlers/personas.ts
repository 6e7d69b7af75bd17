import type { personaRoutes } from '../../../../contract/personas.js';
import type { GroupHandlers } from '../handler.js';

export const personaHandlers: GroupHandlers<typeof personaRoutes> = {
  list: async ({ query }, { services, principal }) => services.personas.list(principal, { page: query.page, pageSize: query.page_size }),
  retrieve: async ({ params }, { services, principal }) => services.personas.retrieve(principal, params.persona_id),
  update: async ({ params, body }, { services, principal }) => services.personas.update(principal, params.persona_id, body),
  delete: async ({ params }, { services, principal }) => {
    await services.personas.delete(principal, params.persona_id);
    return { message: `persona '${params.persona_id}' deleted` };
  },
  create: async ({ body }, { services, principal }) => services.personas.create(principal, body),
};
