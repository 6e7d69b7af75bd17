import type { Principal } from '../principal.js';

/**
 * Per-human `conversational_seconds` for realtime sessions: the agent checks the human's limit while they talk
 * (counting the session's seconds so far) and records the session's seconds once when it stops.
 *
 * @example
 * await meter.assertWithinLimit(principal, 12.5); // throws UsageLimitExceededError when the limit is reached
 * await meter.record(principal, 42.1, { realtime_session: 'rts_1' });
 */
export interface ConversationMeter {
  assertWithinLimit(principal: Principal, sessionSeconds: number): Promise<void>;
  record(principal: Principal, seconds: number, metadata: Record<string, unknown>): Promise<void>;
}
