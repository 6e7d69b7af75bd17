import type { appRunRoutes } from '../../../../contract/app-runs.js';
import type { GroupHandlers } from '../handler.js';

export const appRunHandlers: GroupHandlers<typeof appRunRoutes> = {
  create: async ({ body }, { services, principal, request }) =>
    services.appRuns.create(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  createFromGraph: async ({ body }, { services, principal, request }) =>
    services.appRuns.createFromGraph(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  pushPadValue: async ({ params, body }, { services, principal }) => services.appRuns.pushPadValue(principal, params.run, body),
  recording: async ({ params }, { services, principal }) => services.appRuns.recording(principal, params.run),
  delete: async ({ params }, { services, principal }) => services.appRuns.delete(principal, params.run),
  debug: async ({ body }, { services, principal, request }) =>
    services.appRuns.debug(principal, body.run_id, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
};
