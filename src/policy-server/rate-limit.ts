/** Per-client token buckets: `rate` requests per second on average, bursts up to `burst`. */
export interface RateLimiter {
  /** Whether one more request of `client` may go now. */
  take(client: string, rate?: number): boolean;
}

export function createRateLimiter(defaultRate: number, burstSeconds = 2, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(client, rate = defaultRate) {
      if (!(rate > 0) || !Number.isFinite(rate)) return true;
      const burst = Math.max(1, rate * burstSeconds);
      const t = now();
      const b = buckets.get(client) ?? { tokens: burst, at: t };
      b.tokens = Math.min(burst, b.tokens + ((t - b.at) / 1000) * rate);
      b.at = t;
      buckets.set(client, b);
      if (b.tokens < 1) return false;
      b.tokens -= 1;
      return true;
    },
  };
}
