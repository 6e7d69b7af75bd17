import type { ConversationMeter } from '../../kernel/ports/conversation-meter.js';
import type { UsageService } from './usage-service.js';

/**
 * The voice agent's `conversational_seconds` meter over the usage service (the limit app runs are held to too).
 *
 * @example
 * createVoiceAgentHost({ ..., conversation: usageConversationMeter(services.usage) });
 */
export function usageConversationMeter(usage: Pick<UsageService, 'assertWithinLimit' | 'record'>): ConversationMeter {
  return {
    assertWithinLimit: (principal, sessionSeconds) => usage.assertWithinLimit(principal.project, principal.human, 'conversational_seconds', sessionSeconds),
    async record(principal, seconds, metadata) {
      await usage.record(principal, 'conversational_seconds', seconds, metadata);
    },
  };
}
