import type { realtimeRoutes } from '../../../../contract/realtime.js';
import type { GroupHandlers } from '../handler.js';

export const realtimeHandlers: GroupHandlers<typeof realtimeRoutes> = {
  start: async ({ body }, { services, principal, request }) =>
    services.realtime.start(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  update: async ({ params, body }, { services, principal }) => services.realtime.update(principal, params.session, body),
  end: async ({ params }, { services, principal }) => services.realtime.end(principal, params.session),
  retrieve: async ({ params }, { services, principal }) => services.realtime.retrieve(principal, params.session),
  list: async ({ query }, { services, principal }) => services.realtime.list(principal, { page: query.page }),
  agents: async (_input, { services }) => services.realtime.agents(),
  recording: async ({ params }, { services, principal }) => services.realtime.recording(principal, params.session),
  delete: async ({ params }, { services, principal }) => services.realtime.delete(principal, params.session),
  speak: async ({ params, body }, { services, principal }) => services.realtime.speak(principal, params.session, body.text),
};
