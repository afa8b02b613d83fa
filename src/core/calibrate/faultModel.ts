/**
 * The fault model of one host (docs/calibration-and-simulation.md#fault-models): the simplest that explains
 * the test crawl's requests. A rate limiter refuses (429 or 503) a request that comes too soon, so its
 * refusals follow the gaps between requests: a min-interval limiter refuses gaps below its interval (from
 * the previous accepted request, or from any), a token bucket refuses once its burst is spent faster than it
 * refills. Faults the limiter does not explain (and 5xx, timeouts, transport errors) come at random, at a
 * fixed rate per request. A limiter is fitted by the fewest mispredictions (accepted requests it would have
 * refused, refusals it would have let through) over every threshold the test crawl's gaps allow; a token
 * bucket only when it mispredicts fewer than a min-interval limiter (the simpler model wins a tie). With
 * fewer than MIN_REFUSALS_TO_TELL refusals explained, the fit is `undetermined`: a limiter and random
 * refusals explain them equally, and the simulation draws from both.
 */
import type {
  FaultModelEvidence,
  FaultModelKind,
  FaultSummary,
  HostCalibration,
  HostFaultModel,
  HostFaults,
  LimiterModel,
} from './types';

/** One request of a host as the fit reads it, in start order; the first is its robots.txt. */
export interface FitRequest {
  startMs: number;
  /** The status answered, or null for a transport error (it passed any limiter). */
  status: number | null;
}

/** The counts of the host's page requests by kind of fault (the calibration's `faults`). */
export interface FitCounts {
  tooManyRequests: number;
  serverErrors: number;
  /** 503s among the 5xx. */
  serviceUnavailable: number;
  timeouts: number;
  otherErrors: number;
  /** The share of each status's refusals that had a Retry-After. */
  retryAfterShare(status: number): number;
  /**
   * Whether a status's refusals came on every Nth request (`every`): a limiter that counts requests explains
   * them, unless a pace limiter explains them all with no misprediction.
   */
  periodic(status: number): boolean;
}

/**
 * What a fault rate is believed to be before a test crawl (docs/calibration-and-simulation.md#fault-models): a
 * Beta prior of `faults` faults in `requests` requests (a mean of 2%, worth 25 requests of evidence). Servers
 * answer most requests; a short test crawl that saw one fault in ten requests has not shown a 10% rate. The
 * plan takes a random fault's posterior mean, (count + faults) / (requests + faults + requests of the prior);
 * the simulation draws each run's rate from the posterior Beta (src/core/simulate/draws.ts).
 */
export const FAULT_RATE_PRIOR = { faults: 0.5, requests: 25 } as const;

/**
 * The fault a host that showed none at random may still have (docs/calibration-and-simulation.md#the-band-what-a-short-test-crawl-leaves-open):
 * ten requests without a fault do not show that there is none. It is a back end's error (`status`) or, `hangShare`
 * of the time, a hang that lasts the test crawl's own timeout (when its report gives it); both retried as the
 * engine retries them. Its rate is the posterior of none seen: the plan's walk takes its mean, the simulation
 * draws it.
 */
export const UNSEEN_FAULT = { status: 500, hangShare: 0.5 } as const;

/** Whether a host's random faults (as randomFaults gives them) hold none at random: then it gets UNSEEN_FAULT. */
export function showsNoRandomFault(f: HostFaults): boolean {
  return [f.tooManyRequests, f.serverErrors, f.timeouts, f.otherErrors].every((k) => k.rate <= 0 || k.every !== null);
}

/** The posterior mean of a fault rate seen `count` times in `requests` requests. */
export function posteriorRate(count: number, requests: number): number {
  return (count + FAULT_RATE_PRIOR.faults) / (requests + FAULT_RATE_PRIOR.requests);
}

/**
 * Separate refusals (each after an accepted request: see LimiterFit.events) a limiter must explain before the fit
 * tells it from random refusals.
 */
export const MIN_REFUSALS_TO_TELL = 3;
/** Gaps kept as evidence, each side. */
export const FIT_MAX_GAPS = 50;
/** Separate refusals a token bucket must explain: one refusal (or one run of them) tells nothing about a burst (any of 800 buckets could refuse it). */
const MIN_BUCKET_REFUSALS = 2;
/** Token bucket sizes tried. */
const BURSTS = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20] as const;
/** Refill intervals tried for a token bucket, at most (spread over the gaps seen). */
const MAX_BUCKET_INTERVALS = 80;
/** A token short of one by less than this counts as one: the report's times are whole milliseconds. */
const TOKEN_SLACK = 0.01;

const LIMITER_STATUSES = [429, 503] as const;

interface Labelled {
  gapMs: number;
  refused: boolean;
  /** A refusal that ends a run of accepted requests: the first of a run of refusals (see LimiterFit.events). */
  event: boolean;
}

interface LimiterFit {
  limiter: LimiterModel;
  explained: number;
  /**
   * Explained refusals that each followed an accepted request: a run of refusals with no success between (a
   * retry refused again, as in a server's outage window) is one piece of evidence, not several. The fit tells a
   * limiter, and a bucket's burst, by these.
   */
  events: number;
  mispredicted: number;
  refusedGaps: number[];
  acceptedGaps: number[];
}

/** The gaps before each request after the first, from the previous accepted (or any) request, labelled. */
function labelled(seq: readonly FitRequest[], status: number, since: 'accepted' | 'any'): Labelled[] {
  const out: Labelled[] = [];
  let ref: number | undefined;
  let afterRefusal = false;
  for (const r of seq) {
    const refused = r.status === status;
    if (ref !== undefined) out.push({ gapMs: r.startMs - ref, refused, event: refused && !afterRefusal });
    if (!refused || since === 'any' || ref === undefined) ref = r.startMs;
    afterRefusal = refused;
  }
  return out;
}

/** The best threshold over labelled gaps: refused below it, accepted at or above. */
function minIntervalFit(seq: readonly FitRequest[], status: number, since: 'accepted' | 'any'): LimiterFit | null {
  const items = labelled(seq, status, since).sort((a, b) => a.gapMs - b.gapMs);
  const refusals = items.filter((x) => x.refused).length;
  if (refusals === 0) return null;
  let cost = refusals;
  let best = cost;
  let bestEnd = 0;
  let k = 0;
  while (k < items.length) {
    let j = k;
    while (j < items.length && items[j]!.gapMs === items[k]!.gapMs) {
      cost += items[j]!.refused ? -1 : 1;
      j++;
    }
    if (cost < best) {
      best = cost;
      bestEnd = j;
    }
    k = j;
  }
  if (bestEnd === 0) return null;
  const below = items.slice(0, bestEnd);
  const above = items.slice(bestEnd);
  const explained = below.filter((x) => x.refused).length;
  const events = below.filter((x) => x.event).length;
  const lo = below[below.length - 1]!.gapMs / 1000;
  const hi = above.length > 0 ? above[0]!.gapMs / 1000 : lo * 1.5;
  return {
    limiter: {
      kind: 'min-interval',
      intervalSeconds: round(middle(lo, hi)),
      intervalRangeSeconds: [round(lo), round(hi)],
      since,
      burst: 1,
      status,
      retryAfterShare: 0,
    },
    explained,
    events,
    mispredicted: below.length - explained,
    refusedGaps: items.filter((x) => x.refused).map((x) => x.gapMs / 1000),
    acceptedGaps: items.filter((x) => !x.refused).map((x) => x.gapMs / 1000),
  };
}

/** Mispredictions of a token bucket of `burst` refilled one per `intervalMs`, over the sequence as it went. */
function bucketCost(seq: readonly FitRequest[], status: number, intervalMs: number, burst: number) {
  let tokens = burst;
  let at: number | undefined;
  let explained = 0;
  let events = 0;
  let mispredicted = 0;
  let refusals = 0;
  let afterRefusal = false;
  for (const r of seq) {
    if (at !== undefined) tokens = Math.min(burst, tokens + (r.startMs - at) / intervalMs);
    at = r.startMs;
    const refused = r.status === status;
    const predicted = tokens < 1 - TOKEN_SLACK;
    const first = !afterRefusal;
    afterRefusal = refused;
    if (refused) {
      refusals++;
      if (predicted) {
        explained++;
        if (first) events++;
      }
    } else {
      if (predicted) mispredicted++;
      tokens = Math.max(0, tokens - 1);
    }
  }
  return { cost: mispredicted + refusals - explained, explained, events, mispredicted };
}

function tokenBucketFit(
  seq: readonly FitRequest[],
  status: number,
  minEvents = MIN_BUCKET_REFUSALS,
): LimiterFit | null {
  const gaps = labelled(seq, status, 'any').map((x) => x.gapMs);
  const distinct = [...new Set(gaps.filter((g) => g > 0))].sort((a, b) => a - b);
  if (distinct.length === 0) return null;
  // Refill intervals from the shortest gap to a few times the longest: each gap seen, thinned.
  const candidates: number[] = [];
  const lo = distinct[0]!;
  const hi = distinct[distinct.length - 1]! * 3;
  for (let i = 0; i < MAX_BUCKET_INTERVALS; i++) candidates.push(lo * (hi / lo) ** (i / (MAX_BUCKET_INTERVALS - 1)));
  // The best (fewest mispredictions; the smaller burst on a tie), and the run of refill intervals around it
  // that does as well: its range reaches to the neighbouring intervals that do worse.
  let best: {
    cost: number;
    burst: number;
    lo: number;
    hi: number;
    explained: number;
    events: number;
    mispredicted: number;
  } | null = null;
  for (const burst of BURSTS) {
    const costs = candidates.map((intervalMs) => bucketCost(seq, status, intervalMs, burst));
    for (let i = 0; i < costs.length; i++) {
      const c = costs[i]!;
      if (c.events < minEvents || (best !== null && c.cost >= best.cost)) continue;
      let a = i;
      let b = i;
      while (a > 0 && costs[a - 1]!.cost === c.cost) a--;
      while (b < costs.length - 1 && costs[b + 1]!.cost === c.cost) b++;
      best = {
        burst,
        lo: candidates[Math.max(0, a - 1)]!,
        hi: candidates[Math.min(candidates.length - 1, b + 1)]!,
        ...c,
      };
    }
  }
  if (best === null) return null;
  return {
    limiter: {
      kind: 'token-bucket',
      intervalSeconds: round(middle(best.lo, best.hi) / 1000),
      intervalRangeSeconds: [round(best.lo / 1000), round(best.hi / 1000)],
      since: 'accepted',
      burst: best.burst,
      status,
      retryAfterShare: 0,
    },
    explained: best.explained,
    events: best.events,
    mispredicted: best.mispredicted,
    refusedGaps: [],
    acceptedGaps: [],
  };
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

/**
 * The fit within a range an interval is known to lie in: its geometric middle (an interval is a scale: before
 * the test crawl, 0.1 s to 0.2 s is as likely as 1 s to 2 s), the arithmetic one when the range starts at 0.
 */
export function middle(lo: number, hi: number): number {
  return lo > 0 ? Math.sqrt(lo * hi) : (lo + hi) / 2;
}

/** A draw within the range: log-uniform (see middle), uniform when it starts at 0; `u` in [0, 1). */
export function withinRange(lo: number, hi: number, u: number): number {
  return lo > 0 ? lo * (hi / lo) ** u : lo + u * (hi - lo);
}
/** A limiter in words: "a min-interval limiter (0.251–0.253 s)", "a token bucket of 2 (a token per 0.53–0.7 s)". */
function limiterWords(l: LimiterModel): string {
  const [lo, hi] = l.intervalRangeSeconds;
  return l.kind === 'min-interval'
    ? `a min-interval limiter (${lo}–${hi} s)`
    : `a token bucket of ${l.burst} (a token per ${lo}–${hi} s)`;
}

function undeterminedNote(
  limiter: LimiterModel,
  other: LimiterModel | null,
  explained: number,
  events: number,
): string {
  const seen = refusalsText(explained, events);
  const open = other === null ? `${limiterWords(limiter)} and` : `${limiterWords(limiter)}, ${limiterWords(other)} and`;
  return `${seen}: too few to tell ${open} random ${limiter.status}s apart (the plan takes the fit, the band draws from each)`;
}

/** "one refusal", "3 refusals", or "2 refusals in one run" when runs of them are fewer pieces of evidence. */
function refusalsText(explained: number, events: number): string {
  const n = explained === 1 ? 'one refusal' : `${explained} refusals`;
  if (events === explained) return n;
  return `${n} in ${events === 1 ? 'one run' : `${events} runs`}`;
}

const costOf = (f: LimiterFit, refusals: number): number => f.mispredicted + refusals - f.explained;

const refusedStatus = (status: number | null): boolean => status !== null && (status === 429 || status >= 500);

/** The 429s and 5xx that came right after another (FaultModelEvidence.repeated). */
function repeatedRefusals(seq: readonly FitRequest[]): { tooManyRequests: number; serverErrors: number } {
  const out = { tooManyRequests: 0, serverErrors: 0 };
  for (let i = 1; i < seq.length; i++) {
    const s = seq[i]!.status;
    if (!refusedStatus(s) || !refusedStatus(seq[i - 1]!.status)) continue;
    if (s === 429) out.tooManyRequests++;
    else out.serverErrors++;
  }
  return out;
}

/** The host's fault model from its requests in start order (robots.txt first) and its faults' counts. */
export function fitFaultModel(seq: readonly FitRequest[], counts: FitCounts): HostFaultModel {
  let chosen: { fit: LimiterFit; refusals: number; other: LimiterFit | null } | null = null;
  for (const status of LIMITER_STATUSES) {
    const refusals = seq.filter((r) => r.status === status).length;
    if (refusals === 0) continue;
    let fit: LimiterFit | null = null;
    for (const since of ['accepted', 'any'] as const) {
      const f = minIntervalFit(seq, status, since);
      if (f !== null && (fit === null || costOf(f, refusals) < costOf(fit, refusals))) fit = f;
    }
    const interval = fit;
    const bucket = tokenBucketFit(seq, status);
    if (bucket !== null && (fit === null || costOf(bucket, refusals) < costOf(fit, refusals))) {
      // The bucket's evidence: the gaps as a min-interval limiter would read them.
      bucket.refusedGaps = fit?.refusedGaps ?? [];
      bucket.acceptedGaps = fit?.acceptedGaps ?? [];
      fit = bucket;
    }
    // A limiter is kept only when it mispredicts fewer than random refusals would (every refusal unexplained),
    // and, when the refusals came on every Nth request, only when it explains them all with no misprediction:
    // else a counting limiter explains them better.
    if (fit === null || costOf(fit, refusals) >= refusals) continue;
    if (counts.periodic(status) && costOf(fit, refusals) > 0) continue;
    if (chosen === null || fit.explained > chosen.fit.explained) {
      // The other kind, for an undetermined fit: a bucket from a single refusal too, or the min-interval limiter.
      const other = fit.limiter.kind === 'min-interval' ? tokenBucketFit(seq, status, 1) : interval;
      chosen = {
        fit,
        refusals,
        other: other !== null && costOf(other, refusals) <= costOf(fit, refusals) ? other : null,
      };
    }
  }
  const limiter = chosen === null ? null : { ...chosen.fit.limiter };
  if (limiter !== null) limiter.retryAfterShare = counts.retryAfterShare(limiter.status);
  const explained = chosen?.fit.explained ?? 0;
  const unexplained = chosen === null ? 0 : chosen.refusals - explained;
  const random429 = counts.tooManyRequests - (limiter?.status === 429 ? explained : 0);
  const random5xx = counts.serverErrors - (limiter?.status === 503 ? explained : 0);
  const kinds: FaultModelKind[] = [];
  if (limiter !== null) kinds.push(limiter.kind);
  const counting = (status: number, left: number) => left > 0 && counts.periodic(status) && limiter?.status !== status;
  if (counting(429, random429) || counting(503, random5xx)) kinds.push('counting');
  if (random429 > 0 && !counting(429, random429)) kinds.push('random-429');
  if (random5xx > 0 && !counting(503, random5xx)) kinds.push('random-5xx');
  if (counts.timeouts > 0) kinds.push('timeouts');
  if (counts.otherErrors > 0) kinds.push('errors');
  const events = chosen?.fit.events ?? 0;
  const undetermined = limiter !== null && events < MIN_REFUSALS_TO_TELL;
  const evidence: FaultModelEvidence = {
    requests: seq.length,
    refusals: seq.filter((r) => r.status === 429 || r.status === 503).length,
    explained,
    mispredicted: chosen?.fit.mispredicted ?? 0,
    refusedGapsSeconds: (chosen?.fit.refusedGaps ?? []).sort((a, b) => a - b).slice(-FIT_MAX_GAPS),
    acceptedGapsSeconds: (chosen?.fit.acceptedGaps ?? []).sort((a, b) => a - b).slice(0, FIT_MAX_GAPS),
    repeated: repeatedRefusals(seq),
  };
  const other = undetermined ? chosen!.other : null;
  return {
    kinds,
    limiter,
    ...(other === null ? {} : { alternative: { ...other.limiter, retryAfterShare: limiter!.retryAfterShare } }),
    unexplainedRefusals: unexplained,
    undetermined,
    evidence,
    note: undetermined ? undeterminedNote(limiter!, other?.limiter ?? null, explained, events) : null,
  };
}

/**
 * The faults of a host that come at random, as its fitted model has them: its measured faults less the
 * refusals its limiter explains (which the limiter replays at the pace kept instead), each at its posterior
 * mean rate (a periodic one, `every`, at 1/every). Without a model (a calibration written by hand): the
 * faults as measured.
 */
export function randomFaults(c: HostCalibration): HostFaults {
  const model = c.model;
  if (model === undefined) return c.faults;
  const l = model.limiter;
  const explained = model.evidence.explained;
  const less = <F extends FaultSummary>(f: F, by: number): F => {
    const count = Math.max(0, f.count - by);
    const every = count === f.count ? f.every : null;
    const rate = count === 0 ? 0 : every !== null ? f.rate : posteriorRate(count, c.requests);
    return { ...f, count, rate, every };
  };
  const f = c.faults;
  const rest = {
    timeouts: less(f.timeouts, 0),
    otherErrors: less(f.otherErrors, 0),
  };
  // A run of refusals is one event: the repeats come out of the random rates (a limiter's explained ones instead).
  // Not out of a counting limiter's (`every`): its rate is exact, and its faults stay where it puts them.
  const runs = model.evidence.repeated ?? { tooManyRequests: 0, serverErrors: 0 };
  const repeated = {
    tooManyRequests: f.tooManyRequests.every === null ? runs.tooManyRequests : 0,
    serverErrors: f.serverErrors.every === null ? runs.serverErrors : 0,
  };
  if (l === null)
    return {
      ...rest,
      tooManyRequests: less(f.tooManyRequests, repeated.tooManyRequests),
      serverErrors: less(f.serverErrors, repeated.serverErrors),
    };
  if (l.status === 429)
    return {
      ...rest,
      tooManyRequests: less(f.tooManyRequests, explained),
      serverErrors: less(f.serverErrors, repeated.serverErrors),
    };
  const served = less(f.serverErrors, explained);
  const statuses = { ...f.serverErrors.statuses };
  const key = String(l.status);
  statuses[key] = Math.max(0, (statuses[key] ?? 0) - explained);
  if (statuses[key] === 0) delete statuses[key];
  return {
    ...rest,
    tooManyRequests: less(f.tooManyRequests, repeated.tooManyRequests),
    serverErrors: { ...served, statuses },
  };
}
