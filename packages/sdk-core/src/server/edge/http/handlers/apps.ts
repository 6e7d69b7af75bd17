import type { appRoutes } from '../../../../contract/apps.js';
import type { GroupHandlers } from '../handler.js';

export const appHandlers: GroupHandlers<typeof appRoutes> = {
  create: async ({ body }, { services, principal }) => services.apps.create(principal, body),
  list: async (_input, { services, principal }) => services.apps.list(principal),
  examples: async (_input, { services, principal }) => services.apps.examples(principal),
  retrieve: async ({ params, query }, { services, principal }) => services.apps.retrieve(principal, params.app, query.version),
  update: async ({ params, body }, { services, principal }) => services.apps.update(principal, params.app, body),
  publish: async ({ params, body }, { services, principal }) => services.apps.publish(principal, params.id, body.version),
  versions: async ({ params, query }, { services, principal }) =>
    services.apps.versionsOf(principal, params.id, { page: query.page, pageSize: query.page_size }),
  delete: async ({ params }, { services, principal }) => services.apps.delete(principal, params.id),
};
