/**
 * One host's plan under resolved settings: its interval (effectiveInterval: configured delay, Crawl-delay
 * under the cap policy, adaptive), the period between starts on one lane, its ceiling in pages per
 * second, hour and day, and how long it takes: its robots.txt request, then its pages at the gap the crawl
 * engine keeps (the period plus the per-request overhead, timing.ts), then its last answer; with a
 * calibration, over the measured answer times and with the measured faults (faults.ts).
 */
import type { HostCalibration } from '../calibrate/types';
import { ADAPTIVE_FLOOR_SECONDS, effectiveInterval, type IntervalInput } from '../politeness/interval';
import { REQUEST_OVERHEAD } from '../politeness/pacing';
import { limiterReplay } from '../calibrate/limiterReplay';
import { faultOutcomes, limiterRefusal, unseenFaultOutcomes, walkHost } from './faults';
import { engineSeconds, gapAfter, LatencyModel, type Overhead } from './timing';
import { bytesPerPageOf, hostBytes } from './transfer';
import {
  CRAWL_DELAY_CEILING_SECONDS,
  type CalibratedInput,
  type HostPlan,
  type IntervalSource,
  type ResolvedPlanInput,
} from './types';

/** Rounds float noise away (10 × 0.3 = 3.0000000000000004 → 3): 12 significant digits. Monotone. */
export function tidy(x: number): number {
  // Fast path (toPrecision is slow, and plan() calls this four times per host): a number that is already
  // the closest double to a decimal with at most 6 decimals and under 10⁶ has at most 12 significant
  // digits, so toPrecision(12) would give it back unchanged.
  if (x > -1e6 && x < 1e6 && Math.round(x * 1e6) / 1e6 === x) return x === 0 ? 0 : x;
  return x === 0 ? 0 : Number(x.toPrecision(12));
}

function ownValue(record: Readonly<Record<string, number>> | undefined, key: string): number | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

export interface HostNotes {
  /** Set when a Crawl-delay above the cap was planned at the cap. */
  capped?: { declaredSeconds: number; capSeconds: number };
}

/** The notes of a host that has none (most hosts): one object for them all. */
const NO_NOTES: HostNotes = Object.freeze({});

/** `calibrated` of a host planned without a calibration (most hosts): one array for them all. */
const NOT_CALIBRATED: readonly CalibratedInput[] = Object.freeze([]);

/** `calibrated`: which inputs came from the calibration, in this order. */
function calibratedInputs(latency: boolean, crawlDelay: boolean, faults: boolean): readonly CalibratedInput[] {
  if (!latency && !crawlDelay && !faults) return NOT_CALIBRATED;
  const inputs: CalibratedInput[] = [];
  if (latency) inputs.push('latency');
  if (crawlDelay) inputs.push('crawl-delay');
  if (faults) inputs.push('faults');
  return inputs;
}

/**
 * The requests a host's pages cost beyond one each, retries apart: its redirects at the share per page the
 * test crawl met (docs/calibration-and-simulation.md#requests-per-page); 0 without a calibration.
 */
export function nonPageRequests(pages: number, calibration: HostCalibration | undefined): number {
  const p = calibration?.perPage;
  if (p === undefined || p.pages === 0 || p.redirects === 0) return 0;
  return Math.round((pages * p.redirects) / p.pages);
}

/** One host's interval, period, ceiling and duration under resolved settings. */
export function planHost(
  host: string,
  seeds: number,
  pages: number,
  r: ResolvedPlanInput,
  calibration?: HostCalibration,
  overhead: Overhead = REQUEST_OVERHEAD,
): HostPlan {
  return planHostWithNotes(host, seeds, pages, r, calibration, overhead).plan;
}

export function planHostWithNotes(
  host: string,
  seeds: number,
  pages: number,
  r: ResolvedPlanInput,
  calibration?: HostCalibration,
  overhead: Overhead = REQUEST_OVERHEAD,
): { plan: HostPlan; notes: HostNotes } {
  const typedLatency = ownValue(r.latencyByHost, host);
  // Measured answer times, when the calibration has them and none was typed for the host; else one
  // typed answer time, kept exactly as given (a measured one is their mean, tidied).
  let measured: LatencyModel | undefined;
  let latency: number;
  if (
    calibration !== undefined &&
    typedLatency === undefined &&
    calibration.latency.count > 0 &&
    calibration.latency.samplesSeconds.length > 0
  ) {
    measured = LatencyModel.samples(calibration.latency.samplesSeconds);
    latency = measured.fixed ? measured.mean : tidy(measured.mean);
  } else {
    latency = typedLatency ?? r.latencySeconds;
  }
  const typedDelay = ownValue(r.crawlDelayByHost, host);
  const measuredDelay = calibration?.interval.crawlDelaySeconds ?? undefined;
  const declared =
    typedDelay === undefined
      ? measuredDelay
      : measuredDelay === undefined
        ? typedDelay
        : Math.max(typedDelay, measuredDelay);
  const delayCalibrated = measuredDelay !== undefined && (typedDelay === undefined || measuredDelay > typedDelay);
  const crawlDelay = declared === undefined ? undefined : Math.min(declared, CRAWL_DELAY_CEILING_SECONDS);
  const intervalInput: IntervalInput = {
    configuredSeconds: r.delaySeconds,
    crawlDelayPolicy: r.crawlDelayPolicy,
    maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
    crawlDelaySeconds: crawlDelay,
    adaptiveLatencySeconds: r.adaptive ? latency : undefined,
  };
  const decision = effectiveInterval(intervalInput);
  // A skipped host shows what obeying its Crawl-delay would cost.
  const shown = decision.skipped ? effectiveInterval({ ...intervalInput, crawlDelayPolicy: 'obey' }) : decision;
  // Only the adaptive rule computes a number (10 × 0.3 = 3.0000000000000004); tidy it, but never below
  // the numbers it has to respect. Configured delays and Crawl-delays are kept exactly as given.
  const interval =
    shown.source === 'adaptive' ? Math.max(tidy(shown.seconds), r.delaySeconds, ADAPTIVE_FLOOR_SECONDS) : shown.seconds;
  const period =
    r.delayFrom === 'start' ? Math.max(interval, latency) : Math.max(tidy(latency + interval), interval, latency);
  const intervalSource: IntervalSource = r.delayFrom === 'start' && latency > interval ? 'latency' : shown.source;
  const lanes = r.perHostConcurrency;
  // Requests that fetch no page (redirects), at the test crawl's share per page; retries the walk counts.
  const nonPage = nonPageRequests(pages, calibration);
  const lanePages = Math.ceil((pages + nonPage) / lanes);

  // The crawl's own timeline: robots.txt at t = 0, the first page a gap later, then a page every step.
  const o = overhead;
  const kept = engineSeconds(interval);
  const robotsLatency = calibration?.robotsLatencySeconds ?? latency;
  const firstPage = tidy(gapAfter(kept, robotsLatency, r.delayFrom, o));
  const step = tidy(measured ? measured.meanGap(kept, r.delayFrom, o) : gapAfter(kept, latency, r.delayFrom, o));
  const end = latency + o.afterResponseSeconds;
  const clean = pages === 0 ? 0 : tidy(firstPage + (lanePages - 1) * step + end);
  let seconds = clean;
  let attempts = pages + nonPage;
  const outcomes = calibration !== undefined && !decision.skipped ? faultOutcomes(calibration) : [];
  const refusal = calibration !== undefined && !decision.skipped ? limiterRefusal(calibration) : null;
  // The fault a fitted host may have although the test crawl saw none: part of the walk, not of `calibrated`.
  const unseen = calibration !== undefined && !decision.skipped ? unseenFaultOutcomes(calibration) : [];
  if ((outcomes.length > 0 || refusal !== null || unseen.length > 0) && pages > 0) {
    const walked = walkHost({
      urls: lanePages,
      delayFrom: r.delayFrom,
      configuredSeconds: r.delaySeconds,
      crawlDelaySeconds: crawlDelay,
      crawlDelayPolicy: r.crawlDelayPolicy,
      maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
      adaptive: r.adaptive,
      latency: measured ?? LatencyModel.fixed(latency),
      robotsLatencySeconds: robotsLatency,
      outcomes: unseen.length === 0 ? outcomes : [...outcomes, ...unseen],
      limiter: refusal === null ? null : { ...refusal, replay: limiterReplay(calibration!.model!.limiter!) },
      overhead: o,
    });
    seconds = Math.max(clean, tidy(walked.seconds));
    attempts = Math.round((walked.attempts * (pages + nonPage)) / lanePages);
  }
  const sized = bytesPerPageOf(calibration, r);
  const plan: HostPlan = {
    host,
    seeds,
    pages,
    latencySeconds: latency,
    crawlDelaySeconds: crawlDelay ?? null,
    intervalSeconds: interval,
    intervalSource,
    politenessSource: shown.source,
    periodSeconds: period,
    pagesPerSecond: tidy(lanes / period),
    pagesPerHour: tidy((3600 * lanes) / period),
    pagesPerDay: tidy((86_400 * lanes) / period),
    seconds,
    firstPageSeconds: pages === 0 ? 0 : firstPage,
    stepSeconds: step,
    faultSeconds: tidy(seconds - clean),
    requests: pages === 0 ? 0 : attempts + 1,
    nonPageRequests: pages === 0 ? 0 : nonPage,
    latencyP50Seconds: measured ? calibration!.latency.p50Seconds : null,
    latencyP90Seconds: measured ? calibration!.latency.p90Seconds : null,
    calibrated: calibratedInputs(measured !== undefined, delayCalibrated, outcomes.length > 0 || refusal !== null),
    ...sized,
    bytes: hostBytes(pages, false, sized.bytesPerPage),
    skipped: decision.skipped,
  };
  const capped = decision.crawlDelayAboveCap && !decision.skipped ? decision.crawlDelayAboveCap : undefined;
  return { plan, notes: capped ? { capped } : NO_NOTES };
}
