import type { contextRoutes } from '../../../../contract/contexts.js';
import type { GroupHandlers } from '../handler.js';

export const contextHandlers: GroupHandlers<typeof contextRoutes> = {
  create: async ({ body }, { services, principal }) => services.contexts.createContext(principal, body),
  list: async ({ query }, { services, principal }) => services.contexts.listByIds(principal, query.context_ids),
  retrieve: async ({ params }, { services, principal }) => services.contexts.retrieve(principal, params.context),
  listMessages: async ({ params, query }, { services, principal }) =>
    services.contexts.listMessages(principal, params.context, { page: query.page, pageSize: query.page_size, ids: query.message_ids }),
  createMessage: async ({ params, body }, { services, principal }) => services.contexts.appendMessage(principal, params.context, body),
  retrieveMessage: async ({ params }, { services, principal }) => services.contexts.retrieveMessage(principal, params.context, params.message),
  queryAdvancedMemory: async ({ params, body }, { services, principal }) => services.contexts.queryMemory(principal, params.context, body.new_user_message),
};
