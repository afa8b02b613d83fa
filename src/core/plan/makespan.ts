/**
 * One machine's makespan: the largest of three lower bounds (the slowest host alone; the global rate over
 * every request, robots.txt included; the worker slots, each held for a request's latency), and which of
 * them binds.
 */
import { tidy } from './host';
import type { BindingConstraint, Bounds, HostPlan, IntervalSource, ResolvedPlanInput } from './types';

export function nearlyAtLeast(a: number, b: number): boolean {
  return a >= b - 1e-9 * Math.max(1, Math.abs(b));
}

const HOST_BINDING: Readonly<Record<IntervalSource, BindingConstraint>> = {
  configured: 'host-interval',
  'crawl-delay': 'crawl-delay',
  adaptive: 'adaptive',
  latency: 'latency',
};

export interface Makespan {
  seconds: number;
  bindingConstraint: BindingConstraint;
  bindingHost: HostPlan | null;
  bounds: Bounds;
}

/**
 * One machine's makespan: the largest of three lower bounds (slowest host; global rate; worker slots).
 * On a tie the host is named (politeness is the reason), then the global rate, then the workers.
 */
export function makespan(active: readonly HostPlan[], r: ResolvedPlanInput): Makespan {
  const n = active.reduce((sum, h) => sum + h.pages, 0);
  if (n === 0) {
    return {
      seconds: 0,
      bindingConstraint: 'none',
      bindingHost: null,
      bounds: { hostSeconds: 0, globalRateSeconds: r.rate === null ? null : 0, workersSeconds: 0 },
    };
  }
  let top = active[0]!;
  for (const h of active) if (h.seconds > top.seconds) top = h;
  const minLatency = active.reduce((min, h) => Math.min(min, h.latencySeconds), Number.POSITIVE_INFINITY);
  // Every request counts, each host's robots.txt and the retries its faults cost included.
  const requests = active.reduce((sum, h) => sum + h.requests, 0);
  const globalRateSeconds = r.rate === null ? null : tidy((requests - 1) / r.rate + minLatency);
  const workersSeconds = tidy(active.reduce((sum, h) => sum + h.requests * h.latencySeconds, 0) / r.workers);
  const bounds: Bounds = { hostSeconds: top.seconds, globalRateSeconds, workersSeconds };
  const seconds = Math.max(top.seconds, globalRateSeconds ?? 0, workersSeconds);
  if (nearlyAtLeast(top.seconds, seconds)) {
    return { seconds, bindingConstraint: HOST_BINDING[top.intervalSource], bindingHost: top, bounds };
  }
  if (globalRateSeconds !== null && nearlyAtLeast(globalRateSeconds, seconds)) {
    return { seconds, bindingConstraint: 'global-rate', bindingHost: null, bounds };
  }
  return { seconds, bindingConstraint: 'workers', bindingHost: null, bounds };
}
