import type { usageRoutes } from '../../../../contract/usage.js';
import { BadRequestError, NotFoundError, RateLimitError } from '../../../../errors/api-error.js';
import type { GroupHandlers } from '../handler.js';

export const usageHandlers: GroupHandlers<typeof usageRoutes> = {
  createToken: async ({ body }, { services, principal }) => {
    const human = (body.human ?? body.human_id)!;
    if (body.limits) await services.usageLimits.set(principal.project, human, body.limits);
    return { token: await services.usageTokens.create(principal.project, human, body.ttl_seconds) };
  },
  updateLimits: async ({ body }, { services, principal }) => {
    await services.usageLimits.set(principal.project, (body.human ?? body.human_id)!, body.limits);
    return {};
  },
  // The spec answers 200 for update_ttl and revoke whether or not a token was active (404 is for check only),
  // which also makes a repeated revoke succeed.
  updateTtl: async ({ body }, { services, principal }) => {
    await services.usageTokens.updateTtl(principal.project, body.human, body.ttl_seconds);
  },
  checkToken: async ({ body }, { services, principal }) => {
    const remaining = await services.usageTokens.remainingSeconds(principal.project, body.human);
    if (remaining === undefined) throw new NotFoundError(`no active usage token for human '${body.human}'`);
    return { ttl_seconds: remaining };
  },
  revokeToken: async ({ body }, { services, principal }) => {
    await services.usageTokens.revoke(principal.project, body.human);
  },
  limits: async (_input, { services, principal }) => {
    if (principal.human === null) throw new BadRequestError('x-human-id: a human is required (send the x-human-id header or use a usage token)');
    // Spec part 7: 429 on the deprecated limit endpoints once the human has used up a limit.
    const exceeded = await services.usage.exceededLimits(principal.project, principal.human);
    if (exceeded.length > 0) {
      throw new RateLimitError(`human '${principal.human}' reached the usage limit for ${exceeded.map((limit) => limit.type).join(', ')}`);
    }
    return services.usageLimits.get(principal.project, principal.human);
  },
};
