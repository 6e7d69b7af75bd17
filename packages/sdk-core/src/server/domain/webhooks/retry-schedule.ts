/** When to try a failed delivery again. Injectable so tests run the whole schedule in milliseconds. */
export interface RetryPolicy {
  /**
   * Base delay before retry n (index 0 = first retry). The default follows Svix's shape: first retry
   * after 5 s, then growing to 8 h, about a day in all; attempts = delays + 1.
   */
  delaysMs: readonly number[];
  /** Each delay is stretched by up to this fraction at random, so failed receivers are not hit in lockstep. */
  jitterRatio: number;
  /** Upper bound for a receiver's `Retry-After`. */
  maxRetryAfterMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** 5 s, 1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h, 8 h: about 23.6 h (up to about 29.5 h with jitter). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  delaysMs: [5 * SECOND, MINUTE, 5 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 4 * HOUR, 8 * HOUR, 8 * HOUR],
  jitterRatio: 0.25,
  maxRetryAfterMs: 6 * HOUR,
};

/** Delay before the next attempt after `attemptsMade` failed ones, or undefined when the schedule is spent. */
export function retryDelayMs(policy: RetryPolicy, attemptsMade: number, random: () => number = Math.random): number | undefined {
  const base = policy.delaysMs[attemptsMade - 1];
  if (base === undefined) return undefined;
  return Math.round(base * (1 + policy.jitterRatio * random()));
}

/** `Retry-After` in milliseconds from now: delta seconds or an HTTP date; undefined when absent or malformed. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
