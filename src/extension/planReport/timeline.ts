/**
 * The plan report's simulation section (docs/extension.md §Calibration and simulation): the band of a
 * simulation of the report's plan, and its per-host timeline as rows the webview reads a window at a time,
 * the host that limits the crawl first, then the others by when they end (latest first). Pure (no vscode).
 */
import { formatDuration, formatNumber, formatSeconds } from '../../core/format/duration';
import type { Plan } from '../../core/plan';
import { TIMELINE_MAX_REQUESTS, TIMELINE_REQUEST_HOSTS, timelineOrder } from '../../core/simulate/requestLog';
import type { Simulation, TimelineHost } from '../../core/simulate/types';
import { simulationRunningText, type SimulationState } from '../../shared/planner/viewModel';
import type { ReportSimulationView, TimelineRowView } from '../../shared/planReport/messages';
import { simulationView } from '../planner/estimates';

/** How the band and the lines were made, in words. */
export function simulationMethodText(sim: Simulation): string {
  if (sim.method === 'per-host-sums') {
    return `Per-host sums: the plan is too large to simulate request by request, so each host's time is drawn from the spread of shorter engine runs of that host, ${formatNumber(sim.runs)} times; each line is the plan's, from the host's robots.txt to its p50 end (no pauses drawn).`;
  }
  return `The crawl engine on virtual time, ${formatNumber(sim.runs)} ${sim.runs === 1 ? 'run' : 'runs'} (seed ${sim.seed}); the lines are run ${(sim.timeline.run ?? 0) + 1}, one whose makespan is the band's p50.`;
}

/** The section's header for a simulation of `plan`. */
export function reportSimulationView(sim: Simulation, plan: Plan, number: number): ReportSimulationView {
  // The run drawn and the plan fill the axis; a p90 past them runs to its end (the histogram shows the band whole).
  let axis = Math.max(plan.totalSeconds, sim.timeline.seconds);
  for (const h of sim.timeline.hosts) {
    if (h.endSeconds > axis) axis = h.endSeconds;
    for (const p of h.pauses) if (p.untilSeconds > axis) axis = p.untilSeconds;
  }
  return {
    ...simulationView(sim, plan),
    number,
    methodText: simulationMethodText(sim),
    axisSeconds: axis > 0 ? axis : 1,
    histogram: sim.histogram ?? null,
    ticksText: ticksText(sim),
  };
}

/** What the timeline's ticks leave out, in words (the picture says so); empty when every request is drawn. */
export function ticksText(sim: Simulation): string {
  const hosts = sim.timeline.hosts;
  if (!hosts.some((h) => h.requests !== undefined)) return '';
  const thinned = hosts.some((h) => h.requests !== undefined && (h.requestCount ?? 0) > h.requests.length);
  const unlogged = hosts.filter((h) => h.requests === undefined).length;
  if (!thinned && unlogged === 0) return '';
  const parts: string[] = [];
  if (thinned)
    parts.push(
      `at most ${formatNumber(TIMELINE_MAX_REQUESTS)} ticks per host (every 429 and 503 kept, the other requests evenly spaced)`,
    );
  if (unlogged > 0)
    parts.push(
      `only the first ${formatNumber(TIMELINE_REQUEST_HOSTS)} hosts have ticks (${formatNumber(unlogged)} more ${unlogged === 1 ? 'host' : 'hosts'} show their pages only)`,
    );
  return `Ticks: ${parts.join('; ')}.`;
}

/** One host's line as the webview draws it. */
export function timelineRow(h: TimelineHost, binding: boolean): TimelineRowView {
  const totalPages = h.pages.length === 0 ? 0 : h.pages[h.pages.length - 1]![1];
  const pauses = h.pauses.map((p) => ({
    fromSeconds: p.fromSeconds,
    untilSeconds: p.untilSeconds,
    label: `${p.status === null ? 'Retry-After' : `${p.status} Retry-After`} ${formatSeconds(p.retryAfterSeconds)}: paused from ${formatDuration(p.fromSeconds)} to ${formatDuration(p.untilSeconds)}`,
  }));
  const parts = [
    `starts at ${formatDuration(h.startSeconds)}`,
    `${formatNumber(totalPages)} ${totalPages === 1 ? 'page' : 'pages'} by ${formatDuration(h.endSeconds)}`,
  ];
  if (pauses.length > 0)
    parts.push(`${formatNumber(pauses.length)} Retry-After ${pauses.length === 1 ? 'pause' : 'pauses'}`);
  const requestCount = h.requestCount ?? null;
  const refusedCount = h.refusedCount ?? 0;
  if (requestCount !== null) {
    let text = `${formatNumber(requestCount)} ${requestCount === 1 ? 'request' : 'requests'}`;
    if (refusedCount > 0) text += ` (${formatNumber(refusedCount)} refused: 429 or 503)`;
    if (h.requests === undefined) text += ', no ticks drawn';
    else if (h.requests.length < requestCount) text += `, ${formatNumber(h.requests.length)} drawn`;
    parts.push(text);
  }
  return {
    host: h.host,
    binding,
    startSeconds: h.startSeconds,
    endSeconds: h.endSeconds,
    pages: h.pages,
    totalPages,
    pauses,
    requests: h.requests ?? null,
    requestCount,
    refusedCount,
    summary: parts.join(', '),
  };
}

/** A simulation's timeline as rows: the binding host first, then by end, latest first (ties: the plan's order). */
export class ReportTimeline {
  private readonly order: Int32Array;

  constructor(
    readonly simulation: Simulation,
    private readonly bindingHost: string | null,
  ) {
    // The order the simulation kept the first hosts' requests in (requestLog.ts).
    this.order = Int32Array.from(timelineOrder(simulation.timeline.hosts, bindingHost));
  }

  get total(): number {
    return this.order.length;
  }

  /** Rows `offset` to `offset + count`, in the timeline's order. */
  rows(offset: number, count: number): TimelineRowView[] {
    const hosts = this.simulation.timeline.hosts;
    const out: TimelineRowView[] = [];
    for (let i = offset; i < Math.min(this.order.length, offset + count); i++) {
      const h = hosts[this.order[i]!]!;
      out.push(timelineRow(h, h.host === this.bindingHost));
    }
    return out;
  }
}

/** What the section says while there is no simulation of the plan to draw. */
export function simulationStatusText(state: SimulationState): string {
  switch (state.state) {
    case 'off':
      return 'Not simulated: turn on Simulate in the planner (Measured and simulated), or run Crawl Planner: Simulate Plan.';
    case 'running':
      return simulationRunningText(state.runs, state.seed);
    case 'error':
      return state.message;
    case 'done':
      return '';
  }
}
