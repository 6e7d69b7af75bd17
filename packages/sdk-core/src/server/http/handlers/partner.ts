import type { partnerRoutes } from '../../../contract/partner.js';
import { partnerAvatarsOf } from '../../services/realtime/partner-avatar-service.js';
import type { GroupHandlers } from '../handler.js';

export const partnerHandlers: GroupHandlers<typeof partnerRoutes> = {
  startAvatarSession: async ({ body }, { services, principal, request }) =>
    partnerAvatarsOf(services).start(principal, body, { fallbackMediaUrl: services.config.publicUrl ?? new URL(request.url).origin }),
  avatarAction: async ({ params, body }, { services, principal }) => partnerAvatarsOf(services).action(principal, params.session, body.action),
};
