import type { secretRoutes } from '../../../../contract/secrets.js';
import type { GroupHandlers } from '../handler.js';

export const secretHandlers: GroupHandlers<typeof secretRoutes> = {
  create: async ({ body }, { services, principal }) => services.secrets.create(principal, body),
  update: async ({ params, body }, { services, principal }) => services.secrets.update(principal, params.secret, body),
  delete: async ({ params }, { services, principal }) => {
    const secret = await services.secrets.delete(principal, params.secret);
    return { message: `secret '${secret.name}' deleted` };
  },
  list: async ({ query }, { services, principal }) => services.secrets.list(principal, { page: query.page, pageSize: query.page_size }),
};
