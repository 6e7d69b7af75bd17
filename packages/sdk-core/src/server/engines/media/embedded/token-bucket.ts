/**
 * A token bucket: `ratePerSecond` sustained, bursts up to `burst`. Used to bound what one client can
 * make the server do (signalling requests, relayed data packets).
 *
 * @example
 * const bucket = new TokenBucket(200, 400);
 * if (!bucket.take()) connection.close(1008, 'too many requests');
 */
export class TokenBucket {
  private tokens: number;
  private lastRefill = performance.now();

  constructor(
    private readonly ratePerSecond: number,
    private readonly burst: number = ratePerSecond * 2,
  ) {
    this.tokens = burst;
  }

  take(): boolean {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.lastRefill) / 1000) * this.ratePerSecond);
    this.lastRefill = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
