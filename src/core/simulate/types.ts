/**
 * The simulation's result, in the shape the estimate document carries (docs/formats.md §The `simulation`
 * section) and the sidebar draws: the band, each host's p50 and p90, and one run's timeline.
 */
import type { MakespanHistogram } from './histogram';
import type { TimelineRequest } from './requestLog';

/** A host's run in the timeline: when it started and ended, its pages over time, its pauses, its requests. */
export interface TimelineHost {
  host: string;
  /** Its robots.txt request's start and its last answer, seconds from the crawl's start. */
  startSeconds: number;
  endSeconds: number;
  /** [seconds, pages fetched by then], ascending, the first [start, 0] and the last [end, pages]; at most TIMELINE_MAX_POINTS. */
  pages: Array<[number, number]>;
  /** The Retry-After pauses: from the answer that asked for one to its end. */
  pauses: Array<{ fromSeconds: number; untilSeconds: number; status: number | null; retryAfterSeconds: number }>;
  /** How many requests it made in the run, robots.txt included, and how many were answered 429 or 503 (engine runs only). */
  requestCount?: number;
  refusedCount?: number;
  /**
   * Its requests in the run, in order, at most TIMELINE_MAX_REQUESTS (requestLog.ts: which are kept); absent
   * for the hosts past TIMELINE_REQUEST_HOSTS in the timeline's order, and for per-host sums.
   */
  requests?: TimelineRequest[];
}

export interface SimulationTimeline {
  /** The run drawn (0-based), one whose makespan is the band's p50; null for per-host sums (the lines are then the plan's). */
  run: number | null;
  seconds: number;
  hosts: TimelineHost[];
}

export interface Simulation {
  /** `engine`: every run request by request; `per-host-sums`: each host's time drawn from its spread (a large plan). */
  method: 'engine' | 'per-host-sums';
  runs: number;
  seed: number;
  /** Nearest-rank percentiles of the runs' makespans, seconds. */
  p10Seconds: number;
  p50Seconds: number;
  p90Seconds: number;
  /** Per planned host (skipped hosts and hosts with no pages left out): its end over the runs. */
  hosts: Array<{ host: string; p50Seconds: number; p90Seconds: number }>;
  /** Requests the engine made in all. */
  requests: number;
  /** The runs' makespans in round bins (histogram.ts): the band as a distribution. */
  histogram?: MakespanHistogram;
  timeline: SimulationTimeline;
}
