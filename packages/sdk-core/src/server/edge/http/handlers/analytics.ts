import type { analyticsRoutes } from '../../../../contract/analytics.js';
import type { GroupHandlers } from '../handler.js';

export const analyticsHandlers: GroupHandlers<typeof analyticsRoutes> = {
  conversationMessages: async ({ query }, { services, principal }) =>
    services.analytics.conversationMessages(principal, { startDate: query.start_date, endDate: query.end_date }),
};
