/** When and how long to wait before trying an upstream again. */
export interface RetryPolicy {
  /** Attempts in total, the first included (default 3). */
  maxAttempts: number;
  /** First backoff; doubled each attempt, with full jitter (default 200 ms). */
  baseDelayMs: number;
  /** Longest backoff (default 4 s). */
  maxDelayMs: number;
  /** A `Retry-After` longer than this is not waited for: the error is reported instead (default 10 s). */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 200, maxDelayMs: 4000, maxRetryAfterMs: 10_000 };

/**
 * Milliseconds a `Retry-After` (or `retry-after-ms`) header asks for, or undefined when absent or
 * unreadable. Accepts delta-seconds and HTTP dates (RFC 9110 10.2.3).
 */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const milliseconds = headers.get('retry-after-ms');
  if (milliseconds !== null && /^\d+(\.\d+)?$/.test(milliseconds.trim())) return Number(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before attempt `attempt + 1` (attempt counts from 1): the server's `Retry-After` when given,
 * otherwise exponential backoff with full jitter. Undefined means do not retry.
 */
export function retryDelayMs(policy: RetryPolicy, attempt: number, serverDelayMs: number | undefined, random: () => number = Math.random): number | undefined {
  if (attempt >= policy.maxAttempts) return undefined;
  if (serverDelayMs !== undefined) return serverDelayMs > policy.maxRetryAfterMs ? undefined : serverDelayMs;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
