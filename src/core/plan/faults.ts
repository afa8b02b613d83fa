/**
 * One host's time with faults (docs/calibration-and-simulation.md#faults-in-the-plan): a walk through its requests in
 * order, as the crawl engine would make them, with a fitted rate limiter replayed at the pace the walk keeps
 * (limiterReplay.ts: it refuses what comes too soon, so its refusals follow the sawtooth of the raised
 * interval and its pauses), each other kind of fault coming at its measured rate (evenly
 * spaced: a fault of rate 1/10 on every tenth request) and the engine's own rules on each: the host's
 * live interval (HostRate: raised at once on 429, 5xx and transport failures, ×0.9 per success), the
 * Retry-After pause, a retry for what the engine retries. Answers that are not faults take the mean gap over
 * the measured answer times (timing.ts). Deterministic: the expected path, not a sample (the simulation
 * samples).
 */
import { posteriorRate, randomFaults, showsNoRandomFault, UNSEEN_FAULT } from '../calibrate/faultModel';
import type { LimiterReplay } from '../calibrate/limiterReplay';
import type { HostCalibration } from '../calibrate/types';
import { CRAWL_DEFAULTS } from '../crawl/engineOptions';
import type { DelayFrom } from '../politeness/interval';
import { HostRate, type ThrottleCause } from '../politeness/hostRate';
import { RETRYABLE_ERRORS, isRetryableStatus, readsRetryAfter } from '../politeness/retryPolicy';
import { mean } from '../statistics';
import { engineSeconds, gapAfter, type LatencyModel, type Overhead } from './timing';

/** Requests walked one by one; a host with more continues at the average of the second half of these. */
export const FAULT_WALK_MAX_REQUESTS = 100_000;

/**
 * Where a fitted model's random faults start accumulating (`centred`): the first comes once the expected count
 * reaches ln 2, when at least one is as likely as none, and the kth near k − 0.31. So N requests get the median
 * count of a Poisson(N × rate) (within one near its thresholds k − 1/3 + 0.02 / k), not its floor: the plan is
 * the middle of the runs, and a rare costly fault (a hang) is in the band's tail, not in every plan.
 */
const MEDIAN_START = 1 - Math.LN2;

/** The golden ratio's fractional part: its multiples mod 1 spread evenly over [0, 1). */
const GOLDEN = 0.6180339887498949;

/** One kind of request outcome the walk places at its rate. */
interface Outcome {
  rate: number;
  /** Time to the answer or the error, seconds. */
  latency: number;
  /** The pause a Retry-After asks for, seconds; undefined when the answer has none. */
  retryAfter: number | undefined;
  /** How the host's interval is raised; undefined when it is not (a final transport error). */
  throttle: ThrottleCause | undefined;
  /** The engine tries the URL again. */
  retried: boolean;
  /** The answer's status when it is one the engine learns a limit from (429, 503; HostRate.onThrottle). */
  status?: number;
  /**
   * Placed by the median count (the first after ln 2 / rate requests: MEDIAN_START) rather than at the end of its
   * period: a random fault of a fitted model, whose count over N requests is Poisson(N × rate), not its floor.
   */
  centred?: boolean;
}

/** The kinds of fault a calibration measured on a host, each with its share of the host's requests. */
export function faultOutcomes(c: HostCalibration): Outcome[] {
  const f = randomFaults(c);
  const out: Outcome[] = [];
  const add = (
    rate: number,
    latency: number,
    retryAfter: number | undefined,
    throttle: ThrottleCause | undefined,
    retried: boolean,
    status?: number,
  ) => {
    if (rate > 0)
      out.push({
        rate,
        latency,
        retryAfter,
        throttle,
        retried,
        ...(status === undefined ? {} : { status }),
        ...(centred ? { centred } : {}),
      });
  };
  // A fitted model's random faults (no counting limiter among them) come centred; measured rates as they were.
  const centred =
    c.model !== undefined &&
    [f.tooManyRequests, f.serverErrors, f.timeouts, f.otherErrors].every((k) => k.every === null);
  const share = (part: number, whole: number) => (whole === 0 ? 0 : Math.min(1, part / whole));
  // 429: with a Retry-After pause (the share of them that had one) or without.
  const ra429 = share(f.tooManyRequests.retryAfterSeconds.length, f.tooManyRequests.count);
  const lat429 = mean(f.tooManyRequests.latencySeconds);
  add(f.tooManyRequests.rate * ra429, lat429, mean(f.tooManyRequests.retryAfterSeconds), 'retry-after', true, 429);
  add(f.tooManyRequests.rate * (1 - ra429), lat429, undefined, 'backoff', true, 429);
  // 5xx: 503 with a Retry-After pause, the other retried ones, and the final ones (501, 505, …).
  const s = f.serverErrors;
  let retriedCount = 0;
  let readsCount = 0;
  for (const [status, count] of Object.entries(s.statuses)) {
    if (isRetryableStatus(Number(status))) retriedCount += count;
    if (readsRetryAfter(Number(status))) readsCount += count;
  }
  const ra5xx = share(Math.min(s.retryAfterSeconds.length, readsCount), s.count);
  const lat5xx = mean(s.latencySeconds);
  add(s.rate * ra5xx, lat5xx, mean(s.retryAfterSeconds), 'retry-after', true, 503);
  // Retried without a pause: a 503 among them teaches the engine a limit too, so the walk does when all were 503.
  const only503 = Object.keys(s.statuses).every((status) => status === '503');
  add(
    s.rate * Math.max(0, share(retriedCount, s.count) - ra5xx),
    lat5xx,
    undefined,
    'backoff',
    true,
    only503 ? 503 : undefined,
  );
  add(s.rate * (1 - share(retriedCount, s.count)), lat5xx, undefined, 'backoff', false);
  // Timeouts are all retried; other transport errors when the engine retries their kind.
  add(f.timeouts.rate, mean(f.timeouts.latencySeconds), undefined, 'backoff', true);
  const o = f.otherErrors;
  let retriedKinds = 0;
  for (const [kind, count] of Object.entries(o.kinds))
    if ((RETRYABLE_ERRORS as readonly string[]).includes(kind)) retriedKinds += count ?? 0;
  const latOther = mean(o.latencySeconds);
  add(o.rate * share(retriedKinds, o.count), latOther, undefined, 'backoff', true);
  add(o.rate * (1 - share(retriedKinds, o.count)), latOther, undefined, undefined, false);
  return out;
}

/**
 * The fault a fitted host that showed none at random may still have (UNSEEN_FAULT), at its posterior mean rate
 * given none in the host's requests: a 500 or a hang of the test crawl's timeout, each retried, centred like a
 * fitted model's random faults. The simulation draws the same fault (src/core/simulate/model.ts); the walk takes
 * its expected path, so that the plan is not the band's best case. None without a fitted model.
 */
export function unseenFaultOutcomes(c: HostCalibration): Outcome[] {
  if (c.model === undefined || !showsNoRandomFault(randomFaults(c))) return [];
  const rate = posteriorRate(0, c.requests);
  const hang = c.timeoutSeconds === undefined ? 0 : UNSEEN_FAULT.hangShare;
  // The 500 first: of two kinds at one rate the walk places the first listed first; the hang is the costlier tail.
  const out: Outcome[] = [
    {
      rate: rate * (1 - hang),
      latency: c.latency.meanSeconds,
      retryAfter: undefined,
      throttle: 'backoff',
      retried: true,
      centred: true,
    },
  ];
  if (hang > 0)
    out.push({
      rate: rate * hang,
      latency: c.timeoutSeconds!,
      retryAfter: undefined,
      throttle: 'backoff',
      retried: true,
      centred: true,
    });
  return out;
}

export interface WalkInput {
  /** URLs on the lane walked (pages ÷ per-host concurrency, rounded up). */
  urls: number;
  delayFrom: DelayFrom;
  configuredSeconds: number;
  crawlDelaySeconds: number | undefined;
  crawlDelayPolicy: 'cap' | 'skip' | 'obey';
  maxCrawlDelaySeconds: number;
  adaptive: boolean;
  latency: LatencyModel;
  robotsLatencySeconds: number;
  outcomes: readonly Outcome[];
  /** The host's rate limiter, replayed (a fresh one), with what its refusals look like; null for none. */
  limiter: { replay: LimiterReplay; refusal: Outcome; retryAfterShare: number } | null;
  overhead: Overhead;
}

/** The outcome of a fitted limiter's refusal on a host: its status's answer times and Retry-After pauses. */
export function limiterRefusal(c: HostCalibration): { refusal: Outcome; retryAfterShare: number } | null {
  const l = c.model?.limiter;
  if (!l) return null;
  const kind = l.status === 429 ? c.faults.tooManyRequests : c.faults.serverErrors;
  const pauses = kind.retryAfterSeconds;
  return {
    refusal: {
      rate: 0,
      latency: mean(kind.latencySeconds),
      retryAfter: pauses.length === 0 ? undefined : mean(pauses),
      throttle: 'backoff',
      retried: true,
      status: l.status,
    },
    retryAfterShare: pauses.length === 0 ? 0 : l.retryAfterShare,
  };
}

export interface WalkResult {
  /** From the robots.txt request's start (t = 0) to the last answer. */
  seconds: number;
  /** When the first page starts. */
  firstPageSeconds: number;
  /** Page requests, retries included (robots.txt not). */
  attempts: number;
}

/** Walks one host's requests with faults; see the file's comment. */
export function walkHost(w: WalkInput): WalkResult {
  const rate = new HostRate({
    configuredSeconds: w.configuredSeconds,
    crawlDelayPolicy: w.crawlDelayPolicy,
    maxCrawlDelaySeconds: w.maxCrawlDelaySeconds,
    adaptive: w.adaptive,
    increaseFactor: CRAWL_DEFAULTS.rateIncreaseFactor,
    recoveryFactor: CRAWL_DEFAULTS.rateRecoveryFactor,
    maxIntervalSeconds: CRAWL_DEFAULTS.maxRaisedIntervalSeconds,
    minRaisedSeconds: 1,
  });
  rate.mergeCrawlDelay(w.crawlDelaySeconds);
  rate.recordLatency(w.latency.mean);
  const o = w.overhead;
  const interval = () => engineSeconds(rate.intervalSeconds);
  const firstPage = gapAfter(interval(), w.robotsLatencySeconds, w.delayFrom, o);
  let t = firstPage;
  let left = w.urls;
  let attempts = 0;
  // Evenly spaced faults: their total share accumulates, and one comes when a whole one has (the first
  // after 1/rate requests; a hair of slack, so that ten tenths make one). Which kind it is goes by how far
  // each kind is behind its share, so that kinds interleave rather than come together.
  const total = w.outcomes.reduce((sum, x) => sum + x.rate, 0);
  const given = w.outcomes.map(() => 0);
  let due = w.outcomes.length > 0 && w.outcomes.every((x) => x.centred === true) ? MEDIAN_START : 0;
  let faults = 0;
  const slack = 1e-9;
  // The limiter counts the robots.txt request at t = 0; its refusals with a Retry-After come at their share.
  w.limiter?.replay.admit(0);
  let pausedDue = 0;
  let halfAt: { t: number; left: number } | undefined;
  while (left > 0) {
    if (attempts === FAULT_WALK_MAX_REQUESTS >> 1) halfAt = { t, left };
    if (attempts >= FAULT_WALK_MAX_REQUESTS && halfAt !== undefined) {
      // The rest at the pace of the second half of the walk.
      const perUrl = (t - halfAt.t) / Math.max(1, halfAt.left - left);
      return {
        seconds: t + perUrl * left + w.latency.mean + o.afterResponseSeconds,
        firstPageSeconds: firstPage,
        attempts: Math.round((attempts * w.urls) / (w.urls - left)),
      };
    }
    attempts++;
    let outcome: Outcome | undefined;
    if (w.limiter !== null && !w.limiter.replay.admit(t)) {
      pausedDue += w.limiter.retryAfterShare;
      const paused = pausedDue >= 1 - slack;
      if (paused) pausedDue -= 1;
      outcome = paused ? w.limiter.refusal : { ...w.limiter.refusal, retryAfter: undefined };
    } else if ((due += total) >= 1 - slack) {
      due -= 1;
      faults++;
      let behind = -Infinity;
      let pick = 0;
      for (let k = 0; k < w.outcomes.length; k++) {
        const lag = (faults * w.outcomes[k]!.rate) / total - given[k]!;
        if (lag > behind + slack) {
          behind = lag;
          pick = k;
        }
      }
      given[pick]!++;
      outcome = w.outcomes[pick];
    }
    if (outcome === undefined) {
      rate.onSuccess();
      left--;
      if (left === 0)
        return { seconds: t + w.latency.mean + o.afterResponseSeconds, firstPageSeconds: firstPage, attempts };
      // Against a limiter the gap itself decides, not its mean: the answer times in a low-discrepancy order
      // (the golden ratio's multiples), each gap as the engine makes it after that answer.
      t +=
        w.limiter === null
          ? w.latency.meanGap(interval(), w.delayFrom, o)
          : gapAfter(interval(), w.latency.at((attempts * GOLDEN) % 1), w.delayFrom, o);
      continue;
    }
    const end = t + outcome.latency + o.afterResponseSeconds;
    if (outcome.throttle !== undefined)
      rate.onThrottle(outcome.retryAfter !== undefined ? 'retry-after' : outcome.throttle, outcome.status);
    if (!outcome.retried) {
      left--;
      if (left === 0) return { seconds: end, firstPageSeconds: firstPage, attempts };
    }
    const i = interval();
    let base = t + i;
    if (w.delayFrom === 'end') base = Math.max(base, end + i);
    if (outcome.retryAfter !== undefined) base = Math.max(base, end + outcome.retryAfter);
    t = base <= end ? end : base + o.afterIntervalSeconds;
  }
  return { seconds: t, firstPageSeconds: firstPage, attempts };
}
