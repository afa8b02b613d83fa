/**
 * What the simulation draws from, per host: its answer times, its robots.txt answer, and its faults with
 * their rates, statuses, Retry-After pauses and times, as a calibration measured them (or the typed values
 * for a host it did not see: a fixed answer time, no faults). Built from a Plan (its hosts, its settings
 * and its calibration).
 */
import type { HostCalibration } from '../calibrate/types';
import type { Random } from '../clock';
import type { ErrorKind } from '../crawl/events';
import type { PageResult } from '../crawl/types';
import type { HostPlan } from '../plan/types';
import { readsRetryAfter } from '../politeness/retryPolicy';

/** One kind of fault a host answers with, at its rate. */
interface FaultKind {
  rate: number;
  /** Draws the answer (a status with its headers, or a transport error) and how long it takes, seconds. */
  draw(random: Random, startedAt: number): { result: (endedAt: number) => PageResult; seconds: number; retryAfterSeconds: number | null; status: number | null };
}

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
  /** Whether every draw gives the same result (no spread and no faults): one run tells all. */
  fixed: boolean;
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** A uniform pick from a list; `fallback` when it is empty. */
function pick(list: readonly number[], random: Random, fallback: number): number {
  return list.length === 0 ? fallback : list[Math.floor(random() * list.length)]!;
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

function statusAnswer(status: number, retryAfterSeconds: number | null, startedAt: number): (endedAt: number) => PageResult {
  const headers = retryAfterSeconds === null ? NO_HEADERS : { 'retry-after': String(retryAfterSeconds) };
  return (endedAt) => ({ status, headers, bytes: 0, truncated: false, startedAt, endedAt });
}

function faultKinds(c: HostCalibration, fallbackSeconds: number): FaultKind[] {
  const f = c.faults;
  const kinds: FaultKind[] = [];
  if (f.tooManyRequests.rate > 0) {
    const t = f.tooManyRequests;
    const withPause = Math.min(1, t.retryAfterSeconds.length / Math.max(1, t.count));
    kinds.push({
      rate: t.rate,
      draw(random, startedAt) {
        const ra = random() < withPause ? Math.round(pick(t.retryAfterSeconds, random, 1)) : null;
        return { result: statusAnswer(429, ra, startedAt), seconds: pick(t.latencySeconds, random, fallbackSeconds), retryAfterSeconds: ra, status: 429 };
      },
    });
  }
  if (f.serverErrors.rate > 0) {
    const s = f.serverErrors;
    let reading = 0;
    for (const [status, count] of Object.entries(s.statuses)) if (readsRetryAfter(Number(status))) reading += count;
    const withPause = reading === 0 ? 0 : Math.min(1, s.retryAfterSeconds.length / reading);
    kinds.push({
      rate: s.rate,
      draw(random, startedAt) {
        const status = Number(pickWeighted(s.statuses, random, '503'));
        const ra = readsRetryAfter(status) && random() < withPause ? Math.round(pick(s.retryAfterSeconds, random, 1)) : null;
        return { result: statusAnswer(status, ra, startedAt), seconds: pick(s.latencySeconds, random, fallbackSeconds), retryAfterSeconds: ra, status };
      },
    });
  }
  const errorKind = (rate: number, latency: readonly number[], kind: (random: Random) => ErrorKind): void => {
    if (rate <= 0) return;
    kinds.push({
      rate,
      draw(random, startedAt) {
        const k = kind(random);
        return {
          result: (endedAt) => ({ error: { kind: k, message: `simulated ${k}` }, startedAt, endedAt }),
          seconds: pick(latency, random, fallbackSeconds),
          retryAfterSeconds: null,
          status: null,
        };
      },
    });
  };
  errorKind(f.timeouts.rate, f.timeouts.latencySeconds, () => 'timeout');
  errorKind(f.otherErrors.rate, f.otherErrors.latencySeconds, (random) => pickWeighted(f.otherErrors.kinds, random, 'other'));
  return kinds;
}

/** The model of one planned host; `calibration` when a test crawl saw it. */
export function hostModel(h: HostPlan, calibration: HostCalibration | undefined): HostModel {
  const measured = h.calibrated.includes('latency') && calibration !== undefined ? calibration.latency.samplesSeconds : undefined;
  const faults = calibration !== undefined && h.calibrated.includes('faults') ? faultKinds(calibration, h.latencySeconds) : [];
  const fixedLatency = h.latencySeconds;
  const robots = calibration?.robotsLatencySeconds ?? h.latencySeconds;
  const spread = measured !== undefined && measured[0] !== measured[measured.length - 1];
  return {
    host: h.host,
    pages: h.pages,
    crawlDelaySeconds: h.crawlDelaySeconds ?? undefined,
    robotsSeconds: robots,
    latency: measured === undefined ? () => fixedLatency : (random) => measured[Math.floor(random() * measured.length)]!,
    faults,
    fixed: !spread && faults.length === 0,
  };
}
