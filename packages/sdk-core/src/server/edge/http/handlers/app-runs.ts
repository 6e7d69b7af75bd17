import type { appRunRoutes } from '../../../../contract/app-runs.js';
import type { GroupHandlers } from '../handler.js';

export const appRunHandlers: GroupHandlers<typeof appRunRoutes> = {
  create: async ({ body }, { services, principal, request }) =>
    services.appRuns.create(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  createFromGraph: async ({ body }, { services, principal, request }) =>
    services.appRuns.createFromGraph(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  pushPadValue: async ({ params, body }, { services, principal }) => services.appRuns.pushPadValue(principal, params.run, body),
  debug: async ({ body }, { services, principal, request }) =>
    services.appRuns.debug(principal, body.run_id, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
};
