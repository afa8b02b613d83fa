/**
 * A token bucket on injected time (seed "Rate limiting and backoff"): bursts up to `capacity`, then a
 * steady `ratePerSecond`. `take(now)` reserves a token and says how long to wait for it; the balance may
 * go below zero, which is a reservation that later refill pays back. So a caller that takes and then
 * sleeps the returned wait sees the seed's timings: rate 2/s, capacity 4, six takes ≈ 1.0 s.
 */

export interface TokenBucketOptions {
  /** Tokens added per second (> 0). */
  ratePerSecond: number;
  /** The most tokens held, i.e. the burst (≥ 1). */
  capacity: number;
}

/** Tolerance for float rounding when a token is "just" available. */
const EPSILON_TOKENS = 1e-9;

export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private readonly perMs: number;

  /** Starts full at `nowMs`. */
  constructor(
    readonly options: TokenBucketOptions,
    nowMs: number,
  ) {
    if (!(options.ratePerSecond > 0) || !Number.isFinite(options.ratePerSecond)) {
      throw new RangeError(`token bucket rate must be a positive number, got ${options.ratePerSecond}`);
    }
    if (!(options.capacity >= 1) || !Number.isFinite(options.capacity)) {
      throw new RangeError(`token bucket capacity must be at least 1, got ${options.capacity}`);
    }
    this.tokens = options.capacity;
    this.updatedAt = nowMs;
    this.perMs = options.ratePerSecond / 1000;
  }

  /** The balance at `nowMs` (may be negative while reservations are outstanding). */
  tokensAt(nowMs: number): number {
    const elapsed = Math.max(0, nowMs - this.updatedAt);
    return Math.min(this.options.capacity, this.tokens + elapsed * this.perMs);
  }

  /** Ms to wait at `nowMs` until a token is available, without taking one. */
  waitMs(nowMs: number): number {
    const t = this.tokensAt(nowMs);
    return t >= 1 - EPSILON_TOKENS ? 0 : (1 - t) / this.perMs;
  }

  /** The earliest time (≥ nowMs) at which a token is available. */
  availableAt(nowMs: number): number {
    return nowMs + this.waitMs(nowMs);
  }

  /**
   * The earliest time at which a token is (or was) available, independent of any "now": callers take
   * max(now, nextTokenAt()). Used as a heap key.
   */
  nextTokenAt(): number {
    return this.tokens >= 1 - EPSILON_TOKENS ? this.updatedAt : this.updatedAt + (1 - this.tokens) / this.perMs;
  }

  /** Takes one token at `nowMs` and returns the ms to wait before the work it pays for may start. */
  take(nowMs: number): number {
    this.tokens = this.tokensAt(nowMs);
    if (nowMs > this.updatedAt) this.updatedAt = nowMs;
    if (this.tokens >= 1 - EPSILON_TOKENS) {
      this.tokens = Math.max(0, this.tokens - 1);
      return 0;
    }
    this.tokens -= 1;
    return -this.tokens / this.perMs;
  }
}
