import type { partnerRoutes } from '../../../../contract/partner.js';
import type { GroupHandlers } from '../handler.js';

export const partnerHandlers: GroupHandlers<typeof partnerRoutes> = {
  startAvatarSession: async ({ body }, { services, principal, request }) =>
    services.partnerAvatars.start(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  avatarAction: async ({ params, body }, { services, principal }) => services.partnerAvatars.action(principal, params.session, body.action),
};
