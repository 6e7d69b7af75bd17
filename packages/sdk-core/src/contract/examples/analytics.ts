import type { analyticsRoutes } from '../analytics.js';
import type { GroupExamples } from './route-example.js';
import { ids, sampleFirstMessage } from './sample-resources.js';

export const analyticsExamples: GroupExamples<typeof analyticsRoutes> = {
  conversationMessages: {
    query: { start_date: '2025-06-01T00:00:00Z', end_date: '2025-06-30T23:59:59Z' },
    response: [
      {
        context_id: ids.context,
        message_id: sampleFirstMessage.id,
        project_id: ids.project,
        created_at: sampleFirstMessage.created_at,
        role: 'user',
        message: 'Hi! My router keeps dropping the connection.',
        human_id: ids.human,
        realtime_session: ids.session,
        persona_id: ids.persona,
        scenario_id: ids.scenario,
      },
    ],
  },
};
