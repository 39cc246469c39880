/**
 * Limits wrong PIN attempts per client (IP address): after `maxFailures` wrong PINs within
 * `windowMs`, every PIN from that client is refused for `blockMs`, right or wrong.
 *
 * Memory stays bounded however many addresses a client uses (an IPv6 /64 holds 2^64): whenever a
 * map has doubled since its last sweep, entries that no longer matter (blocks that ended, failures
 * older than the window) are dropped, and past `maxEntries` the oldest entry goes first. (So a client
 * that blocks `maxEntries` other addresses within `blockMs` frees its own oldest block early: each of
 * those blocks costs it `maxFailures` requests.)
 */
export interface PinLimiterOptions {
  maxFailures: number;
  windowMs: number;
  blockMs: number;
  /** most addresses each map keeps (default 10,000); past it the oldest are forgotten */
  maxEntries?: number;
  now?: () => number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
const FIRST_SWEEP_AT = 1024;

/** A Map in insertion order (the oldest first) that sweeps itself as it grows. */
class BoundedMap<V> {
  readonly entries = new Map<string, V>();
  private sweepAt = FIRST_SWEEP_AT;

  constructor(
    private readonly maxEntries: number,
    private readonly expired: (value: V) => boolean,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Stores the value as the newest entry. */
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size >= this.sweepAt) this.sweep();
    // past the cap: the oldest goes (one delete per insert, so a full map costs no more per request)
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Drops expired entries; runs again only once the map has doubled, so its cost per insert stays constant. */
  private sweep(): void {
    for (const [key, value] of this.entries) if (this.expired(value)) this.entries.delete(key);
    this.sweepAt = Math.max(FIRST_SWEEP_AT, this.entries.size * 2);
  }
}

export class PinLimiter {
  private readonly failures: BoundedMap<number[]>;
  private readonly blocks: BoundedMap<number>;
  private readonly now: () => number;

  constructor(private readonly options: PinLimiterOptions = { maxFailures: 5, windowMs: 60_000, blockMs: 60_000 }) {
    this.now = options.now ?? Date.now;
    const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.failures = new BoundedMap(maxEntries, (times) => this.now() - times[times.length - 1] >= options.windowMs);
    this.blocks = new BoundedMap(maxEntries, (until) => until <= this.now());
  }

  /** The blocks still held (read by tests: nothing else shows the map's size). */
  get blockedUntil(): Map<string, number> {
    return this.blocks.entries;
  }

  /** ms the client must still wait, or 0 when it may try */
  retryAfter(client: string): number {
    const until = this.blocks.get(client);
    if (until === undefined) return 0;
    const left = until - this.now();
    if (left > 0) return left;
    this.blocks.delete(client);
    return 0;
  }

  recordFailure(client: string): void {
    const now = this.now();
    const recent = (this.failures.get(client) ?? []).filter((t) => now - t < this.options.windowMs);
    recent.push(now);
    if (recent.length >= this.options.maxFailures) {
      this.failures.delete(client);
      this.blocks.set(client, now + this.options.blockMs);
    } else {
      this.failures.set(client, recent);
    }
  }

  recordSuccess(client: string): void {
    this.failures.delete(client);
  }
}
