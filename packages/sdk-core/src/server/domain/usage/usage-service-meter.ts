import type { Logger } from 'pino';
import type { UsageService } from './usage-service.js';
import type { UsageMeter } from '../../kernel/ports/usage-meter.js';

/**
 * The gateway's meter over the platform's usage service: `token_cnt` per human, reserved before the
 * upstream call (400 `usage_limit_exceeded` when nothing remains) and committed with the tokens used.
 * When less than asked remains, the remainder is granted and the gateway cuts `max_tokens` to fit. A stream's tokens so
 * far are noted on its reservation as it goes (`progress`, in the usage group commit), recorded if the instance dies.
 *
 * @example
 * const meter = usageServiceMeter(services.usage);
 */
export function usageServiceMeter(usage: Pick<UsageService, 'reserve'>, logger?: Logger): UsageMeter {
  return {
    async reserve(principal, maxTokens) {
      const reservation = await usage.reserve(principal.project, principal.human, 'token_cnt', maxTokens, { allowPartial: true });
      return {
        granted: reservation.granted,
        commit: (usedTokens, metadata) => reservation.commit(usedTokens, metadata),
        progress: (usedTokensSoFar, metadata) => {
          reservation.progress(usedTokensSoFar, metadata).catch((error: unknown) => logger?.error({ err: error }, 'could not note the tokens streamed so far'));
        },
        release: () => reservation.release(),
      };
    },
  };
}
