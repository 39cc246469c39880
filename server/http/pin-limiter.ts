/**
 * Limits wrong PIN attempts per client (IP address): after `maxFailures` wrong PINs within
 * `windowMs`, every PIN from that client is refused for `blockMs`, right or wrong.
 */
export interface PinLimiterOptions {
  maxFailures: number;
  windowMs: number;
  blockMs: number;
  now?: () => number;
}

export class PinLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly blockedUntil = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: PinLimiterOptions = { maxFailures: 5, windowMs: 60_000, blockMs: 60_000 }) {
    this.now = options.now ?? Date.now;
  }

  /** ms the client must still wait, or 0 when it may try */
  retryAfter(client: string): number {
    const until = this.blockedUntil.get(client);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return left;
    this.blockedUntil.delete(client);
    return 0;
  }

  recordFailure(client: string): void {
    const now = this.now();
    const recent = (this.failures.get(client) ?? []).filter((t) => now - t < this.options.windowMs);
    recent.push(now);
    if (recent.length >= this.options.maxFailures) {
      this.blockedUntil.set(client, now + this.options.blockMs);
      this.failures.delete(client);
    } else {
      this.failures.set(client, recent);
    }
    if (this.failures.size > 10_000) this.failures.clear();
  }

  recordSuccess(client: string): void {
    this.failures.delete(client);
  }
}
