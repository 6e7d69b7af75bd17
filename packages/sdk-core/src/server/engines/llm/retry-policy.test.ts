import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY, retryAfterMs, retryDelayMs } from './retry-policy.js';

describe('retryAfterMs', () => {
  it('reads delta-seconds, retry-after-ms and HTTP dates, and ignores garbage', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250', 'retry-after': '3' }))).toBe(250);
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});

describe('retryDelayMs', () => {
  it('backs off exponentially with jitter inside [ceiling/2, ceiling], capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, maxAttempts: 10, baseDelayMs: 100, maxDelayMs: 500 };
    expect(retryDelayMs(policy, 1, undefined, () => 0)).toBe(50);
    expect(retryDelayMs(policy, 1, undefined, () => 1)).toBe(100);
    expect(retryDelayMs(policy, 2, undefined, () => 1)).toBe(200);
    expect(retryDelayMs(policy, 6, undefined, () => 1)).toBe(500);
  });

  it("uses the server's delay, refuses one beyond the limit, and stops after the last attempt", () => {
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, 1200)).toBe(1200);
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, 1, DEFAULT_RETRY_POLICY.maxRetryAfterMs + 1)).toBeUndefined();
    expect(retryDelayMs(DEFAULT_RETRY_POLICY, DEFAULT_RETRY_POLICY.maxAttempts, undefined)).toBeUndefined();
  });
});
