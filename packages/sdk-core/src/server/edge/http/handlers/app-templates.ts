import type { appTemplateRoutes } from '../../../../contract/app-templates.js';
import type { GroupHandlers } from '../handler.js';

export const appTemplateHandlers: GroupHandlers<typeof appTemplateRoutes> = {
  list: async (_input, { services, principal }) => services.appTemplates.list(principal),
  retrieve: async ({ params }, { services, principal }) => services.appTemplates.retrieve(principal, params.template),
  apply: async ({ params, body }, { services, principal }) => services.appTemplates.apply(principal, params.template, body.name),
};
