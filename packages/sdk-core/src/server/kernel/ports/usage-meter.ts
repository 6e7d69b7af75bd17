import type { Principal } from '../principal.js';

/** Tokens a request may use, held until the request ends. */
export interface UsageReservation {
  /** Tokens held: what was asked for, or less when only that much of the human's limit remains. */
  readonly granted: number;
  /** Records the tokens actually used (prompt + completion) and releases the rest of the reservation. */
  commit(usedTokens: number, metadata: Record<string, unknown>): Promise<unknown>;
  /**
   * Notes the tokens used so far (prompt + completion up to now, and the record's metadata) while the request goes
   * on: if this instance dies, another records them for the human when it finds its lease expired, so a crash loses
   * at most what streamed since the last call. Cheap: written by the usage group commit, the caller does not wait
   * for it (failures are the meter's to log). `commit` still records the exact total.
   */
  progress(usedTokensSoFar: number, metadata: Record<string, unknown>): void;
  /** Frees the hold without recording usage (nothing was produced). */
  release(): Promise<void>;
}

/**
 * Per-human `token_cnt` metering for the gateway. `reserve` runs before any upstream call and throws
 * `UsageLimitExceededError` (400 `usage_limit_exceeded`) when the human's limit is reached; holding
 * `maxTokens` until `commit` keeps concurrent requests from overshooting by more than one request's
 * `max_tokens`.
 *
 * @example
 * const reservation = await meter.reserve(principal, request.max_tokens ?? 4096);
 * try { ... } finally { await reservation.commit(usage.total_tokens, { model }); }
 */
export interface UsageMeter {
  reserve(principal: Principal, maxTokens: number): Promise<UsageReservation>;
}

/**
 * The placeholder meter used until the usage service provides the real one: it neither counts nor
 * limits. Named so that nobody mistakes it for enforcement.
 */
export const unmeteredUsage: UsageMeter = {
  async reserve(_principal, maxTokens) {
    return { granted: maxTokens, async commit() {}, progress() {}, async release() {} };
  },
};
