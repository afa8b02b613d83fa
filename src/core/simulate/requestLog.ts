/**
 * The timeline run's requests, per host, for the plan report's ticks (docs/extension.md#calibration-and-simulation;
 * the JSON: docs/formats.md §The `simulation` section). Bounded: at most {@link TIMELINE_MAX_REQUESTS} per host
 * and only the first {@link TIMELINE_REQUEST_HOSTS} hosts in the timeline's order (the host that limits the crawl,
 * then the latest to end), so the estimate document and the report's messages stay small whatever the plan.
 * A host with more requests keeps every 429 and 503 (and every other fault) it can, then requests evenly spaced
 * in order, so the ticks' density still shows the pace. Pure.
 */
import { readsRetryAfter } from '../politeness/retryPolicy';

/** Requests kept per host at most. */
export const TIMELINE_MAX_REQUESTS = 300;
/** Hosts whose requests are kept at most. */
export const TIMELINE_REQUEST_HOSTS = 100;

/**
 * One request of the run: when it started and when its answer came (seconds from the crawl's start, to the
 * millisecond), and its HTTP status (null: a transport error, a timeout or a reset). A tuple, as the timeline's
 * `pages` are, so that 30,000 of them stay well under a megabyte of JSON.
 */
export type TimelineRequest = [startSeconds: number, endSeconds: number, status: number | null];

const toMs = (seconds: number) => Math.round(seconds * 1000) / 1000;

/** How a request is drawn: answered, refused with a Retry-After status (429, 503), or another fault. */
export type RequestKind = 'ok' | 'refused' | 'error';

export function requestKind(status: number | null): RequestKind {
  if (status === null) return 'error';
  if (readsRetryAfter(status)) return 'refused';
  return status >= 500 ? 'error' : 'ok';
}

/** A host's requests as the run makes them: three numbers each, so a long run costs little. */
export class RequestLog {
  private readonly values: number[] = [];
  /** The requests answered 429 or 503. */
  refused = 0;

  get count(): number {
    return this.values.length / 3;
  }

  /** A request from `startMs` to `endMs` (the run's clock) answered with `status`. */
  add(startMs: number, endMs: number, status: number | null): void {
    this.values.push(startMs / 1000, endMs / 1000, status ?? -1);
    if (requestKind(status) === 'refused') this.refused++;
  }

  /** The requests, at most `max`, in the order they were made: see the file's comment for which are kept. */
  kept(max = TIMELINE_MAX_REQUESTS): TimelineRequest[] {
    const n = this.count;
    const at = (i: number): TimelineRequest => {
      const status = this.values[3 * i + 2]!;
      return [toMs(this.values[3 * i]!), toMs(this.values[3 * i + 1]!), status < 0 ? null : status];
    };
    if (n <= max) return Array.from({ length: n }, (_, i) => at(i));
    const faults: number[] = [];
    const others: number[] = [];
    for (let i = 0; i < n; i++) {
      const status = this.values[3 * i + 2]!;
      (requestKind(status < 0 ? null : status) === 'ok' ? others : faults).push(i);
    }
    const chosen = faults.length >= max ? evenly(faults, max) : [...faults, ...evenly(others, max - faults.length)];
    return chosen.sort((a, b) => a - b).map(at);
  }
}

/** `count` of `list`, evenly spaced by position, the first and the last kept. */
function evenly(list: readonly number[], count: number): number[] {
  if (list.length <= count) return [...list];
  if (count <= 0) return [];
  if (count === 1) return [list[0]!];
  const out: number[] = [];
  for (let k = 0; k < count; k++) out.push(list[Math.round((k * (list.length - 1)) / (count - 1))]!);
  return out;
}

/**
 * The timeline's order of hosts: the host that limits the crawl first, then by end, latest first (ties: the
 * given order). The plan report draws the rows in it, and the hosts whose requests are kept are its first.
 */
export function timelineOrder(
  hosts: ReadonlyArray<{ host: string; endSeconds: number }>,
  bindingHost: string | null,
): number[] {
  const indexes = Array.from({ length: hosts.length }, (_, i) => i);
  const rank = (i: number) => (hosts[i]!.host === bindingHost ? 0 : 1);
  return indexes.sort((a, b) => rank(a) - rank(b) || hosts[b]!.endSeconds - hosts[a]!.endSeconds || a - b);
}

/** Drops the requests of every host past the first {@link TIMELINE_REQUEST_HOSTS} in the timeline's order. */
export function keepRequestsOfFirstHosts<T extends { host: string; endSeconds: number; requests?: TimelineRequest[] }>(
  hosts: T[],
  bindingHost: string | null,
): void {
  for (const i of timelineOrder(hosts, bindingHost).slice(TIMELINE_REQUEST_HOSTS)) delete hosts[i]!.requests;
}
