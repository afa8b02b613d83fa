/**
 * The live interval of one host while crawling: the planned effective interval (configured delay,
 * Crawl-delay merged by max, the adaptive latency rule) as a floor, raised at once on 429/5xx and
 * transport failures, and let back down only slowly on successes (seed: "let the inferred signal push
 * the rate down faster than it allows it to recover"). After a Retry-After pause the host resumes at the
 * raised interval, not at its old rate (no snap-back).
 *
 *   throttle:  raised = min(bound, max(current × increaseFactor, minRaisedSeconds))
 *   success:   raised = raised × step; once raised ≤ target the host is back on its target
 *   target     = max(floor, learned)      step = recoveryFactor, or min(recoveryFactor, 1 ÷ increaseFactor)
 *              when the host took the target's pace before and its last refusal was about pace (the way back)
 *   bound      = max(maxIntervalSeconds, floor)
 *
 * `learned` is the learned limit (limitMemory.ts): a 429 or 503 at interval I teaches that the host's limit
 * is above I, and the host is kept at or above I ÷ recoveryFactor until the memory decays
 * (docs/crawl-engine.md#the-learned-limit).
 *
 * With `adaptive` the floor includes max(1 s, 10 × latency), where latency rises at once with a slower
 * response and falls back by `recoveryFactor` per response (never below the last one measured).
 */
import type { LiveIntervalSource } from '../crawl/events';
import { effectiveInterval, type CrawlDelayPolicy, type IntervalDecision } from './interval';
import { LimitMemory } from './limitMemory';
import { isRefusalStatus } from './retryPolicy';

export interface HostRateOptions {
  /** The configured per-host delay in seconds. */
  configuredSeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
  /** Apply the adaptive rule max(1 s, 10 × latency). */
  adaptive: boolean;
  /** Multiplier on a throttle signal (> 1). */
  increaseFactor: number;
  /** Multiplier per success on the raised part (0 < f < 1). */
  recoveryFactor: number;
  /** The highest raised interval, in seconds (the floor wins when it is higher). */
  maxIntervalSeconds: number;
  /** A throttle on a host with a 0 s floor raises it to at least this. */
  minRaisedSeconds: number;
  /** Successes at a learned limit's floor before it decays half a recovery step (a probe); HOST_RATE_DEFAULTS's. */
  limitHoldSuccesses?: number;
}

export const HOST_RATE_DEFAULTS = {
  increaseFactor: 2,
  recoveryFactor: 0.9,
  maxIntervalSeconds: 60,
  minRaisedSeconds: 1,
  limitHoldSuccesses: 200,
} as const;

export type ThrottleCause = 'backoff' | 'retry-after';

export class HostRate {
  private crawlDelaySeconds: number | undefined;
  private latencySeconds: number | undefined;
  private raisedSeconds = 0;
  private raisedSource: ThrottleCause = 'backoff';
  /**
   * The floor's seconds as last worked out; undefined once its inputs (Crawl-delay, latency) changed. Read on
   * every start and every re-key of the host, so it is kept; a number, not the decision (a host holds it).
   */
  private floorSeconds: number | undefined = undefined;
  /** What the host's refusals taught about its limit. */
  private readonly memory: LimitMemory;
  /** The interval the host was slowed to for the run when it looked like it was blocking the crawl (0: never). */
  private slowedSeconds = 0;

  constructor(private readonly options: HostRateOptions) {
    this.memory = new LimitMemory({
      recoveryFactor: options.recoveryFactor,
      holdSuccesses: options.limitHoldSuccesses ?? HOST_RATE_DEFAULTS.limitHoldSuccesses,
    });
  }

  /** The floor: the planned effective interval for this host as things stand. */
  planned(): IntervalDecision {
    return effectiveInterval({
      configuredSeconds: this.options.configuredSeconds,
      crawlDelayPolicy: this.options.crawlDelayPolicy,
      maxCrawlDelaySeconds: this.options.maxCrawlDelaySeconds,
      ...(this.crawlDelaySeconds === undefined ? {} : { crawlDelaySeconds: this.crawlDelaySeconds }),
      ...(this.options.adaptive ? { adaptiveLatencySeconds: this.latencySeconds ?? 0 } : {}),
    });
  }

  /** The floor's seconds: planned().seconds, kept until its inputs change. */
  private floor(): number {
    return (this.floorSeconds ??= this.planned().seconds);
  }

  /** The interval to keep between request starts (or end-to-start) right now, in seconds. */
  get intervalSeconds(): number {
    return Math.max(this.target(), this.raisedSeconds);
  }

  get source(): LiveIntervalSource {
    const planned = this.planned();
    const learned = this.memory.floorSeconds;
    if (this.raisedSeconds > Math.max(planned.seconds, learned, this.slowedSeconds)) return this.raisedSource;
    if (this.slowedSeconds > Math.max(planned.seconds, learned)) return 'blocking-suspected';
    return learned > planned.seconds ? 'learned-limit' : planned.source;
  }

  /** True while the interval is above the plan because of a throttle signal or a learned limit. */
  get raised(): boolean {
    return this.intervalSeconds > this.floor();
  }

  /** The learned limit: the refused interval the host is kept one recovery step above; undefined if none. */
  get learnedLimitSeconds(): number | undefined {
    return this.memory.limit;
  }

  /** What the raised interval recovers towards: the floor, or the learned limit's floor when higher. */
  private target(): number {
    return Math.max(this.floor(), this.memory.floorSeconds, this.slowedSeconds);
  }

  /**
   * The host looks like it is blocking the crawl (docs/crawl-engine.md#blocking-suspected): the interval it
   * recovers towards (its plan, or its learned limit) is multiplied by `factor` (a host of 0 s gets
   * minRaisedSeconds) and stays there for the run; successes do not bring it back down.
   */
  slowDown(factor: number): void {
    const target = this.target();
    this.slowedSeconds = Math.max(this.slowedSeconds, target > 0 ? target * factor : this.options.minRaisedSeconds);
  }

  /** Merges a Crawl-delay (from any of the host's origins) by max, and returns the new plan. */
  mergeCrawlDelay(seconds: number | undefined): IntervalDecision {
    if (seconds !== undefined && Number.isFinite(seconds) && seconds >= 0) {
      this.crawlDelaySeconds = Math.max(this.crawlDelaySeconds ?? 0, seconds);
      this.floorSeconds = undefined;
    }
    return this.planned();
  }

  /** A response's latency, for the adaptive rule. */
  recordLatency(seconds: number): void {
    if (!this.options.adaptive || !Number.isFinite(seconds) || seconds < 0) return;
    const previous = this.latencySeconds;
    this.latencySeconds = previous === undefined ? seconds : Math.max(seconds, previous * this.options.recoveryFactor);
    this.floorSeconds = undefined;
  }

  /** A response that says nothing about overload (2xx, 3xx, 4xx other than 429). */
  onSuccess(): void {
    const steady = this.raisedSeconds === 0;
    this.memory.success(this.intervalSeconds, steady, this.floor());
    if (steady) return;
    const target = this.target();
    const o = this.options;
    const step = this.memory.returnsFastTo(target)
      ? Math.min(o.recoveryFactor, 1 / o.increaseFactor)
      : o.recoveryFactor;
    this.raisedSeconds *= step;
    if (this.raisedSeconds <= target) this.raisedSeconds = 0;
  }

  /**
   * 429, 5xx, a timeout or a refused/reset connection: raise the interval at once. A refusal (`retry-after`,
   * or a 429/503 `status`) is also what the learned limit learns from.
   */
  onThrottle(cause: ThrottleCause, status?: number): void {
    const floor = this.floor();
    const bound = Math.max(this.options.maxIntervalSeconds, floor);
    const interval = this.intervalSeconds;
    if (cause === 'retry-after' || (status !== undefined && isRefusalStatus(status)))
      this.memory.refusal(interval, bound);
    else this.memory.interrupted();
    const next = Math.min(bound, Math.max(interval * this.options.increaseFactor, this.options.minRaisedSeconds));
    this.raisedSeconds = Math.max(this.raisedSeconds, next);
    this.raisedSource = cause;
  }
}
