/** How a streaming STT connection is tried again after an unexpected close or a failed attempt. */
export interface ReconnectPolicy {
  /** Attempts after a loss before the stream fails (0: never reconnect). */
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { attempts: 5, initialDelayMs: 100, maxDelayMs: 2000 };

/**
 * The wait before attempt `attempt` (1-based): doubling from `initialDelayMs`, capped at `maxDelayMs`.
 *
 * @example
 * backoffDelay({ attempts: 5, initialDelayMs: 100, maxDelayMs: 2000 }, 3); // 400
 */
export function backoffDelay(policy: ReconnectPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** Math.max(0, attempt - 1));
}
