/**
 * What a host's refusals taught about its rate limit (docs/crawl-engine.md#the-learned-limit), for HostRate.
 * A refusal (429 or 503) of a request sent one interval after a success is about pace: the host's limit is
 * above the interval in force, so that interval is remembered as the limit, and the host is not taken below
 * one recovery step above it (the interval it accepted just before) while the memory holds. The memory
 * decays by probing: after `holdSuccesses` successes at the floor it steps down by half a recovery step; a
 * refusal there steps it back up, a success keeps the new floor.
 *
 *   learned:  limit = interval in force at the refusal (capped so that the floor stays ≤ cap)
 *   floor     = limit ÷ recoveryFactor, while it is above the plan (below it the memory is forgotten)
 *   probe:    every holdSuccesses successes at the floor, limit = limit × √recoveryFactor (a probe step)
 *
 * Which refusals teach (each only when its request followed a success: the first request after a Retry-After
 * pause, a backoff or an error was not sent one interval after the one before). A pace is *taken* once the host
 * answered a success to a request sent at it (or faster) one interval after a success.
 *
 *   | the refusal comes                                     | it                                          |
 *   | at the floor within PROBATION successes of a probe    | steps the memory back up, to the floor that |
 *   |                                                       | held                                        |
 *   | at the floor within PROBATION successes of a learning | steps the memory up by one probe step (the  |
 *   |                                                       | floor was just too low, or too close)       |
 *   | at a pace faster than any taken                       | is learned                                  |
 *   | at a pace taken before (or slower), or before any     | is not about pace: nothing is learned       |
 *   | pace was taken                                        |                                             |
 *
 * So refusals that do not depend on pace (an overloaded server's random 503s) do not ratchet the floor up, and
 * the floor never goes above the cap. The price: a limit that tightens below an established pace is not
 * learned; the host then gets the plain rule (raised at once, recovered slowly) as before there was a memory.
 */
export interface LimitMemoryOptions {
  /** The recovery step (0 < f < 1): the floor is the limit ÷ f. */
  recoveryFactor: number;
  /** Successes at the floor before the memory decays (a probe). */
  holdSuccesses: number;
}

/** Relative slack when two intervals worked out by the same steps are compared (floating point). */
const SAME = 1e-9;

/**
 * Successes in a row at a new floor before a refusal there is taken as not about pace. Many: a floor just
 * above a limiter's limit (or a probe just below it) lets most requests through, and the one that arrives a
 * little early (the network's and the server's timing noise) is refused.
 */
export const PROBATION_SUCCESSES = 50;

export class LimitMemory {
  /** The interval in force at the last refusal about pace, decayed by probes; undefined: none remembered. */
  private limitSeconds: number | undefined;
  /** The limit the memory stepped down from, while the probe is on probation; undefined otherwise. */
  private probeFrom: number | undefined;
  /** The shortest interval at which a request that followed a success was answered with a success. */
  private acceptedSeconds: number | undefined;
  /** The last answer was a success: the next request's gap is the interval in force. */
  private afterSuccess = false;
  /** Successes in a row at the target since the host last got there (a refusal or an error ends a run). */
  private held = 0;
  /** The last refusal taught nothing, and no success at the target came since. */
  private doubted = false;

  constructor(private readonly options: LimitMemoryOptions) {}

  /** The interval the host is not taken below while the memory holds; 0 when nothing is remembered. */
  get floorSeconds(): number {
    return this.limitSeconds === undefined ? 0 : this.limitSeconds / this.options.recoveryFactor;
  }

  /** The remembered limit (the refused interval, decayed); undefined when none. */
  get limit(): number | undefined {
    return this.limitSeconds;
  }

  /**
   * True when the way back from a raise to `seconds` may be fast: the host accepted requests that far apart
   * (or closer), and the last refusal was about pace.
   */
  returnsFastTo(seconds: number): boolean {
    return !this.doubted && this.acceptedSeconds !== undefined && this.acceptedSeconds <= seconds * (1 + SAME);
  }

  /**
   * A success at `intervalSeconds`. `steady`: the host is at its target (not raised), so the success counts
   * towards establishing the pace and the next probe; `planSeconds` is the plan's floor, below which the
   * memory is forgotten.
   */
  success(intervalSeconds: number, steady: boolean, planSeconds: number): void {
    if (this.afterSuccess)
      this.acceptedSeconds = Math.min(this.acceptedSeconds ?? Number.POSITIVE_INFINITY, intervalSeconds);
    this.afterSuccess = true;
    if (!steady) return;
    this.doubted = false;
    if (++this.held === PROBATION_SUCCESSES) this.probeFrom = undefined;
    if (this.limitSeconds === undefined || this.held < this.options.holdSuccesses) return;
    this.held = 0;
    this.probeFrom = this.limitSeconds;
    this.limitSeconds *= Math.sqrt(this.options.recoveryFactor);
    if (this.floorSeconds <= planSeconds * (1 + SAME)) this.limitSeconds = this.probeFrom = undefined;
  }

  /**
   * A refusal (429 or 503) at `intervalSeconds`, the interval in force when it was sent. Returns true when it
   * taught something (see the table above). `capSeconds` bounds the floor (the highest raised interval).
   */
  refusal(intervalSeconds: number, capSeconds: number): boolean {
    const followedSuccess = this.afterSuccess;
    const held = this.held;
    this.afterSuccess = false;
    this.held = 0;
    if (!followedSuccess) return false;
    const atFloor = this.limitSeconds !== undefined && intervalSeconds <= this.floorSeconds * (1 + SAME);
    if (atFloor && held < PROBATION_SUCCESSES) {
      if (this.probeFrom === undefined)
        return this.learn(this.limitSeconds! / Math.sqrt(this.options.recoveryFactor), capSeconds);
      // The probe failed: back to the floor it stepped down from, which held.
      this.limitSeconds = this.probeFrom;
      this.probeFrom = undefined;
      this.doubted = false;
      return true;
    }
    // About pace when the host took a slower pace and refuses this one.
    const accepted = this.acceptedSeconds;
    if (accepted !== undefined && intervalSeconds < accepted / (1 + SAME))
      return this.learn(intervalSeconds, capSeconds);
    // Not about pace: the host took this pace (or a faster one) before, or no pace yet to compare with.
    this.doubted = true;
    return false;
  }

  /** Any other throttle signal (another 5xx, a transport failure): the next request's gap is not known. */
  interrupted(): void {
    this.afterSuccess = false;
    this.held = 0;
  }

  private learn(intervalSeconds: number, capSeconds: number): true {
    this.limitSeconds = Math.min(intervalSeconds, capSeconds * this.options.recoveryFactor);
    this.probeFrom = undefined;
    this.doubted = false;
    return true;
  }
}
