/**
 * What the simulation draws from, per host: its answer times, its robots.txt answer, its rate limiter (the
 * fitted model, replayed at the pace the engine keeps: limiterReplay.ts), and its other faults with their
 * rates, statuses, Retry-After pauses and times, as a calibration measured them (or the typed values for a
 * host it did not see: a fixed answer time, no faults). Built from a Plan (its hosts, its settings and its
 * calibration). For one run, the model's parameters are first drawn from what the test crawl leaves open
 * (draws.ts; docs/calibration-and-simulation.md#the-band-what-a-short-test-crawl-leaves-open).
 */
import { randomFaults, showsNoRandomFault, UNSEEN_FAULT, withinRange } from '../calibrate/faultModel';
import { faultHypotheses } from '../calibrate/hypotheses';
import { limiterReplay, type LimiterReplay } from '../calibrate/limiterReplay';
import type { FaultSummary, HostCalibration, HostFaults } from '../calibrate/types';
import type { Random } from '../clock';
import type { ErrorKind } from '../crawl/events';
import type { PageResult } from '../crawl/types';
import type { HostPlan } from '../plan/types';
import { readsRetryAfter } from '../politeness/retryPolicy';
import { rateDraw } from './draws';

/** One kind of fault a host answers with, at its rate: on every `every`th request, or at random. */
interface FaultKind {
  rate: number;
  /** N when the calibration saw it on every Nth request (then it comes so, the first at N); else null. */
  every: number | null;
  /** Draws the answer (a status with its headers, or a transport error) and how long it takes, seconds. */
  draw(
    random: Random,
    startedAt: number,
  ): {
    result: (endedAt: number) => PageResult;
    seconds: number;
    retryAfterSeconds: number | null;
    status: number | null;
  };
}

export type { FaultKind };

export interface HostModel {
  host: string;
  /** Pages to fetch (after the host's robots.txt). */
  pages: number;
  /** The Crawl-delay its robots.txt declares, as the plan read it, or undefined. */
  crawlDelaySeconds: number | undefined;
  robotsSeconds: number;
  /** Draws an ordinary answer's time, seconds. */
  latency(random: Random): number;
  faults: FaultKind[];
  /** The host's rate limiter in this run (a fresh one), or null; `refusal` is its answer. */
  limiter: LimiterReplay | null;
  refusal: FaultKind | null;
  /** Whether every draw gives the same result (no spread and no faults): one run tells all. */
  fixed: boolean;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** Draws one of a list's values (see hostModel's `list`), or undefined for an empty list. */
type Draw = (random: Random) => number | undefined;

/** A uniform pick from a list of measured values. */
function drawFrom(samples: readonly number[]): Draw {
  return (random) => (samples.length === 0 ? undefined : samples[Math.floor(random() * samples.length)]!);
}

/**
 * A uniform pick from a bootstrap resample of `samples` (as many draws from it as it has, with replacement),
 * made lazily: the resample's ith value is drawn the first time a pick lands on i. The same distribution as
 * resampling the whole list first, at the cost of the picks a run makes, not of the list's length.
 */
function drawFromResample(samples: readonly number[], runRandom: Random): Draw {
  const n = samples.length;
  // Which value each drawn place of the resample holds (a sparse list: a run picks few of them).
  const resampled: number[] = [];
  return (random) => {
    if (n === 0) return undefined;
    const i = Math.floor(random() * n);
    let value = resampled[i];
    if (value === undefined) {
      value = samples[Math.floor(runRandom() * n)]!;
      resampled[i] = value;
    }
    return value;
  };
}

/** Picks a key by its count. */
function pickWeighted<K extends string>(counts: Partial<Record<K, number>>, random: Random, fallback: K): K {
  let total = 0;
  for (const value of Object.values(counts) as number[]) total += value;
  if (total <= 0) return fallback;
  let u = random() * total;
  for (const [key, value] of Object.entries(counts) as Array<[K, number]>) {
    u -= value;
    if (u < 0) return key;
  }
  return fallback;
}

function statusAnswer(
  status: number,
  retryAfterSeconds: number | null,
  startedAt: number,
): (endedAt: number) => PageResult {
  const headers = retryAfterSeconds === null ? NO_HEADERS : { 'retry-after': String(retryAfterSeconds) };
  return (endedAt) => ({ status, headers, bytes: 0, truncated: false, startedAt, endedAt });
}

/** A kind of status answer: its status drawn, a Retry-After pause as often as one came, its answer time drawn. */
function statusKind(
  fault: FaultSummary,
  rate: number,
  status: (random: Random) => number,
  withPause: number,
  fallbackSeconds: number,
  list: (samples: readonly number[]) => Draw,
): FaultKind {
  const pauses = list(fault.retryAfterSeconds);
  const times = list(fault.latencySeconds);
  return {
    rate,
    every: fault.every,
    draw(random, startedAt) {
      const drawn = status(random);
      const ra = readsRetryAfter(drawn) && random() < withPause ? Math.round(pauses(random) ?? 1) : null;
      return {
        result: statusAnswer(drawn, ra, startedAt),
        seconds: times(random) ?? fallbackSeconds,
        retryAfterSeconds: ra,
        status: drawn,
      };
    },
  };
}

function faultKinds(
  f: HostFaults,
  fallbackSeconds: number,
  list: (samples: readonly number[]) => Draw,
  rateOf: (fault: FaultSummary) => number,
): FaultKind[] {
  const kinds: FaultKind[] = [];
  // 429 and 5xx: a status (5xx: drawn by how often each came), with a Retry-After pause as often as one came.
  const addStatus = (fault: FaultSummary, status: (random: Random) => number, withPause: number): void => {
    if (fault.rate <= 0) return;
    kinds.push(statusKind(fault, rateOf(fault), status, withPause, fallbackSeconds, list));
  };
  const t = f.tooManyRequests;
  addStatus(t, () => 429, Math.min(1, t.retryAfterSeconds.length / Math.max(1, t.count)));
  const s = f.serverErrors;
  let reading = 0;
  for (const [status, count] of Object.entries(s.statuses)) if (readsRetryAfter(Number(status))) reading += count;
  addStatus(
    s,
    (random) => Number(pickWeighted(s.statuses, random, '503')),
    reading === 0 ? 0 : Math.min(1, s.retryAfterSeconds.length / reading),
  );
  const errorKind = (fault: FaultSummary, kind: (random: Random) => ErrorKind): void => {
    if (fault.rate <= 0) return;
    const latency = list(fault.latencySeconds);
    kinds.push({
      rate: rateOf(fault),
      every: fault.every,
      draw(random, startedAt) {
        const k = kind(random);
        return {
          result: (endedAt) => ({ error: { kind: k, message: `simulated ${k}` }, startedAt, endedAt }),
          seconds: latency(random) ?? fallbackSeconds,
          retryAfterSeconds: null,
          status: null,
        };
      },
    });
  };
  errorKind(f.timeouts, () => 'timeout');
  errorKind(f.otherErrors, (random) => pickWeighted(f.otherErrors.kinds, random, 'other'));
  return kinds;
}

/**
 * The model of one planned host; `calibration` when a test crawl saw it. With `random`, for one run: every
 * list of measured times is first drawn anew from itself (a bootstrap of the calibration), and with a fitted
 * fault model (`calibration.model`) its parameters are drawn from what the test crawl leaves open: the
 * limiter's interval over its range (wide when few refusals were seen), each random fault's rate from its
 * posterior (draws.ts), and when the host showed no random fault, one of a kind not seen (a 500) at a rate
 * drawn from none in its requests (half of them a timeout of the crawl's own length, when the report gives it).
 * An undetermined model first draws which of its hypotheses the run is (the fit, the other kind of limiter,
 * random refusals: src/core/calibrate/hypotheses.ts).
 */
export function hostModel(h: HostPlan, measuredCalibration: HostCalibration | undefined, random?: Random): HostModel {
  // A model the test crawl left undetermined: this run draws one of what it leaves open (hypotheses.ts).
  let calibration = measuredCalibration;
  if (random !== undefined && calibration !== undefined) {
    const open = faultHypotheses(calibration);
    if (open.length > 1) calibration = open[Math.floor(random() * open.length)];
  }
  const list = random === undefined ? drawFrom : (samples: readonly number[]) => drawFromResample(samples, random);
  const measured =
    h.calibrated.includes('latency') && calibration !== undefined
      ? list(calibration.latency.samplesSeconds)
      : undefined;
  const fixedLatency = h.latencySeconds;
  const latency = measured === undefined ? () => fixedLatency : (r: Random) => measured(r) ?? fixedLatency;
  const fitted = calibration?.model !== undefined && h.calibrated.length > 0 ? calibration.model : undefined;
  const withFaults = calibration !== undefined && h.calibrated.includes('faults');
  const limiterModel = withFaults && fitted?.limiter ? fitted.limiter : null;
  const source = calibration === undefined ? undefined : randomFaults(calibration);
  const requests = calibration?.requests ?? 0;
  const rateOf = (fault: FaultSummary): number =>
    fitted === undefined || random === undefined || fault.every !== null
      ? fault.rate
      : rateDraw(fault.count, requests, random);
  const faults = withFaults && source !== undefined ? faultKinds(source, h.latencySeconds, list, rateOf) : [];
  if (fitted !== undefined && random !== undefined && (!withFaults || showsNoRandomFault(source!))) {
    const rate = rateDraw(0, requests, random);
    // The fault not seen is a back end's error or, as often, a hang that lasts the crawl's timeout (when the
    // report gives it), retried as the engine retries a timeout.
    const timeoutSeconds = calibration!.timeoutSeconds;
    faults.push({
      rate,
      every: null,
      draw(r, startedAt) {
        if (timeoutSeconds !== undefined && r() < UNSEEN_FAULT.hangShare)
          return {
            result: (endedAt) => ({ error: { kind: 'timeout', message: 'simulated timeout' }, startedAt, endedAt }),
            seconds: timeoutSeconds,
            retryAfterSeconds: null,
            status: null,
          };
        return {
          result: statusAnswer(UNSEEN_FAULT.status, null, startedAt),
          seconds: latency(r),
          retryAfterSeconds: null,
          status: UNSEEN_FAULT.status,
        };
      },
    });
  }
  let limiter: LimiterReplay | null = null;
  let refusal: FaultKind | null = null;
  if (limiterModel !== null) {
    const [lo, hi] = limiterModel.intervalRangeSeconds;
    limiter = limiterReplay(
      limiterModel,
      random === undefined ? limiterModel.intervalSeconds : withinRange(lo, hi, random()),
    );
    const kind = limiterModel.status === 429 ? calibration!.faults.tooManyRequests : calibration!.faults.serverErrors;
    refusal = statusKind(kind, 0, () => limiterModel.status, limiterModel.retryAfterShare, h.latencySeconds, list);
  }
  const robots = calibration?.robotsLatencySeconds ?? h.latencySeconds;
  const original =
    h.calibrated.includes('latency') && calibration !== undefined ? calibration.latency.samplesSeconds : undefined;
  const spread = original !== undefined && original[0] !== original[original.length - 1];
  return {
    host: h.host,
    pages: h.pages,
    crawlDelaySeconds: h.crawlDelaySeconds ?? undefined,
    robotsSeconds: robots,
    latency,
    faults,
    limiter,
    refusal,
    // A fitted model draws its parameters in every run (a fault not seen included): never fixed.
    fixed: !spread && faults.length === 0 && limiter === null && fitted === undefined,
  };
}

/** Draws from `samples`, for each run from a bootstrap resample of it (see hostModel). */
export function sampler(samples: readonly number[], runRandom: Random): (random: Random) => number | undefined {
  return drawFromResample(samples, runRandom);
}
