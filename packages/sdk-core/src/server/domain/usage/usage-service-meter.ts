import type { UsageService } from './usage-service.js';
import type { UsageMeter } from '../../kernel/ports/usage-meter.js';

/**
 * The gateway's meter over the platform's usage service: `token_cnt` per human, reserved before the
 * upstream call (400 `usage_limit_exceeded` when nothing remains) and committed with the tokens used.
 * When less than asked remains, the remainder is granted and the gateway cuts `max_tokens` to fit.
 *
 * @example
 * const meter = usageServiceMeter(services.usage);
 */
export function usageServiceMeter(usage: Pick<UsageService, 'reserve'>): UsageMeter {
  return {
    async reserve(principal, maxTokens) {
      const reservation = await usage.reserve(principal.project, principal.human, 'token_cnt', maxTokens, { allowPartial: true });
      return {
        granted: reservation.granted,
        commit: (usedTokens, metadata) => reservation.commit(usedTokens, metadata),
        release: () => reservation.release(),
      };
    },
  };
}
