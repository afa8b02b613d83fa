/**
 * What a host's refusals taught about its rate limit (docs/crawl-engine.md#the-learned-limit), for HostRate.
 * A refusal (429 or 503) of a request sent one interval after a success is about pace: the host's limit is
 * above the interval in force, so that interval is remembered as the limit, and the host is not taken below
 * one recovery step above it (the interval it accepted just before) while the memory holds. The memory
 * decays by probing: after `holdSuccesses` successes at the remembered floor, the limit steps down by one
 * recovery step; a refusal there learns it again (back to the floor it left), a success keeps the new floor.
 *
 *   learned:  limit = interval in force at the refusal (capped so that the floor stays ≤ cap)
 *   floor     = limit ÷ recoveryFactor, while it is above the plan (below it the memory is forgotten)
 *   probe:    every holdSuccesses successes at the floor, limit = limit × recoveryFactor
 *
 * A refusal teaches nothing when the request did not follow a success (the first after a Retry-After pause,
 * a backoff or an error: its gap was not the interval). When the host had already accepted that interval or a
 * shorter one (ACCEPTED_TIMES times or more), the refusal may not be about pace: it is learned once, and no
 * other such refusal is until the memory steps down again, and the evidence is dropped (the way back from the
 * raise is slow again). So refusals that do not depend on pace ratchet the floor up at most one step per
 * step of decay, and the floor never goes above the cap.
 */
export interface LimitMemoryOptions {
  /** The recovery step (0 < f < 1): the floor is the limit ÷ f, a probe is one step of × f. */
  recoveryFactor: number;
  /** Successes at the remembered floor before the memory decays one step (a probe). */
  holdSuccesses: number;
}

/** Relative slack when two intervals worked out by the same steps are compared (floating point). */
const SAME = 1e-9;

/**
 * Successes at an interval (or a shorter one) before a refusal there is taken as not about pace. More than one:
 * a request can slip through a limiter once on a lucky gap (a probe just below the limit).
 */
export const ACCEPTED_TIMES = 3;

export class LimitMemory {
  /** The interval in force at the last refusal about pace, decayed by probes; undefined: none remembered. */
  private limitSeconds: number | undefined;
  /** The shortest interval at which a request that followed a success was answered with a success. */
  private acceptedSeconds: number | undefined;
  /** How many such successes came at acceptedSeconds (or shorter) since it was set. */
  private acceptedTimes = 0;
  /** The last answer was a success: the next request's gap is the interval in force. */
  private afterSuccess = false;
  /** Successes at the floor since it was learned or last stepped down. */
  private held = 0;
  /** The limit the memory stepped down from (a probe is under way); undefined when settled. */
  private probeFrom: number | undefined;
  /** A refusal at an accepted pace may not raise the limit now (one did, or a probe just failed). */
  private doubted = false;

  constructor(private readonly options: LimitMemoryOptions) {}

  /** The interval the host is not taken below while the memory holds; 0 when nothing is remembered. */
  get floorSeconds(): number {
    return this.limitSeconds === undefined ? 0 : this.limitSeconds / this.options.recoveryFactor;
  }

  /** The remembered limit (the refused interval, decayed), for tests and reports; undefined when none. */
  get limit(): number | undefined {
    return this.limitSeconds;
  }

  /** True when the host has accepted requests `seconds` apart (or closer): evidence to return there fast. */
  accepts(seconds: number): boolean {
    return this.acceptedSeconds !== undefined && this.acceptedSeconds <= seconds * (1 + SAME);
  }

  /**
   * A success at `intervalSeconds`. `steady`: the host is not raised (it runs at its floor), so the success
   * counts towards the next probe; `planSeconds` is the plan's floor, below which the memory is forgotten.
   */
  success(intervalSeconds: number, steady: boolean, planSeconds: number): void {
    if (this.afterSuccess) this.accepted(intervalSeconds);
    this.afterSuccess = true;
    if (!steady || this.limitSeconds === undefined) return;
    if (++this.held < this.options.holdSuccesses) return;
    this.held = 0;
    this.doubted = false;
    this.probeFrom = this.limitSeconds;
    this.limitSeconds *= Math.sqrt(this.options.recoveryFactor);
    if (this.floorSeconds <= planSeconds * (1 + SAME)) this.limitSeconds = this.probeFrom = undefined;
  }

  /**
   * A refusal (429 or 503) at `intervalSeconds`, the interval in force when it was sent. Returns true when it
   * was learned as the limit. `capSeconds` bounds the floor (the highest raised interval).
   */
  refusal(intervalSeconds: number, capSeconds: number): boolean {
    const followedSuccess = this.afterSuccess;
    this.afterSuccess = false;
    if (!followedSuccess) return false;
    const atFloor = this.limitSeconds !== undefined && intervalSeconds <= this.floorSeconds * (1 + SAME);
    if (atFloor && this.probeFrom !== undefined) {
      // The probe failed: back to the floor it stepped down from (which held), and no higher.
      this.limitSeconds = this.probeFrom;
      this.settle(true);
      return true;
    }
    if (this.accepts(intervalSeconds) && this.acceptedTimes >= ACCEPTED_TIMES) {
      // The host took this pace before: a limit that moved, or not about pace at all. Learned once, and no
      // other such refusal until the memory steps down again; the evidence is dropped, so that the way back
      // from the raise is slow.
      this.acceptedSeconds = undefined;
      this.acceptedTimes = 0;
      if (this.doubted) return false;
      this.learn(intervalSeconds, capSeconds, true);
      return true;
    }
    this.learn(intervalSeconds, capSeconds, false);
    return true;
  }

  private learn(intervalSeconds: number, capSeconds: number, doubted: boolean): void {
    this.limitSeconds = Math.min(intervalSeconds, capSeconds * this.options.recoveryFactor);
    this.settle(doubted);
  }

  private settle(doubted: boolean): void {
    this.probeFrom = undefined;
    this.held = 0;
    this.doubted = doubted;
  }

  private accepted(intervalSeconds: number): void {
    if (this.acceptedSeconds === undefined || intervalSeconds < this.acceptedSeconds / (1 + SAME)) {
      this.acceptedSeconds = intervalSeconds;
      this.acceptedTimes = 1;
    } else if (intervalSeconds <= this.acceptedSeconds * (1 + SAME)) this.acceptedTimes++;
  }

  /** Any other throttle signal (another 5xx, a transport failure): the next request's gap is not known. */
  interrupted(): void {
    this.afterSuccess = false;
  }
}
