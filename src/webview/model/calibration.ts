/**
 * Calibration and simulation as pure functions: what the plan took from a test crawl (or a chosen report),
 * the choice to plan with it, and the simulation's band and line.
 */
import { formatNumber } from '../../core/format/duration';
import { assertNever } from '../../shared/messageChecks';
import {
  simulationRunningText,
  type CalibrationState,
  type CalibrationView,
  type SimulationState,
} from '../../shared/planner/viewModel';

/** "From the test crawl “test crawl: demo hosts”: a test crawl of 12 pages, 15 requests in 9 s" */
export function calibrationHeadline(view: CalibrationView): string {
  const from = view.source === 'crawl' ? `the test crawl “${view.label}”` : view.label;
  return `Planned with what ${view.source === 'crawl' ? '' : 'the report '}${from} measured: ${view.headline}.`;
}

export interface CalibrationItem {
  host: string;
  /** "latency p50 / p90 0.2 s / 0.4 s · 429 10.0% (Retry-After 1 s) · achieved 1 s" */
  measured: string;
  /** "Used: latency, faults" or "Not planned (no seed on this host)". */
  used: string;
  /** Whether the plan took anything from it. */
  planned: boolean;
}

/** Each measured host: what was measured, and which inputs the plan took from it (the CLI's "Used" column). */
export function calibrationItems(view: CalibrationView): { items: CalibrationItem[]; more: string; unseen: string } {
  const items = view.hosts.map((h) => {
    const parts = [`latency p50 / p90 ${h.latency}`];
    if (h.tooManyRequests !== '—') parts.push(`429 ${h.tooManyRequests}`);
    if (h.serverErrors !== '—') parts.push(`5xx ${h.serverErrors}`);
    if (h.errors !== '—') parts.push(`errors ${h.errors}`);
    if (h.crawlDelay !== '—') parts.push(`Crawl-delay ${h.crawlDelay}`);
    if (h.achieved !== '—') parts.push(`achieved ${h.achieved}`);
    const planned = h.used !== null && h.used.length > 0;
    return {
      host: h.host,
      measured: parts.join(' · '),
      used:
        h.used === null
          ? 'Not planned (no seed on this host)'
          : planned
            ? `Used: ${h.used.join(', ')}`
            : 'Used: nothing (typed values)',
      planned,
    };
  });
  const hidden = view.hostCount - view.hosts.length;
  const more =
    hidden > 0
      ? `and ${formatNumber(hidden)} more measured ${hidden === 1 ? 'host' : 'hosts'} (all in Copy plan as JSON: calibration)`
      : '';
  const unseenList =
    view.unseenHosts.join(', ') +
    (view.unseenCount > view.unseenHosts.length
      ? `, +${formatNumber(view.unseenCount - view.unseenHosts.length)} more`
      : '');
  const unseen =
    view.unseenCount === 0
      ? ''
      : `Typed values for ${formatNumber(view.unseenCount)} ${view.unseenCount === 1 ? 'host' : 'hosts'} the report did not measure: ${unseenList}`;
  return { items, more, unseen };
}

/** The line under the calibration choice: what it would use, or why there is nothing yet. */
export function calibrationHelpText(state: CalibrationState): string {
  if (state.crawl === null)
    return 'Run a test crawl (or choose a crawl report) to plan with the answer times, faults and Crawl-delays it measured.';
  const c = state.crawl;
  return `“${c.name}”: ${formatNumber(c.pages)} ${c.pages === 1 ? 'page' : 'pages'}, ${formatNumber(c.requests)} ${c.requests === 1 ? 'request' : 'requests'}. Its hosts take the answer times, faults and interval it measured; other hosts keep the typed values.`;
}

/** The band in the plan's summary, or '' when there is none. */
export function bandSummaryText(state: SimulationState): string {
  switch (state.state) {
    case 'off':
      return '';
    case 'running':
      return simulationRunningText(state.runs, state.seed);
    case 'done': {
      const how =
        state.simulation.method === 'per-host-sums' ? ', per-host sums (too large to run request by request)' : '';
      return `Simulated: ${state.simulation.bandText} (${formatNumber(state.simulation.runs)} runs, seed ${state.simulation.seed}${how})`;
    }
    case 'error':
      return state.message;
    default:
      return assertNever(state);
  }
}

/** The simulation's line in its own section: the CLI's sentence when done. */
export function simulationStatusText(state: SimulationState): string {
  if (state.state === 'off')
    return 'Off: turn on Simulate to see the p10–p90 band (and the per-host timeline in the plan report).';
  return state.state === 'done' ? state.simulation.text : bandSummaryText(state);
}

/** "Plan with what the test crawl measured": on when the plan uses the crawl; it can only be turned on with one. */
export function calibrationChoice(state: CalibrationState): {
  checked: boolean;
  disabled: boolean;
  fileInUse: boolean;
} {
  return {
    checked: state.using === 'crawl',
    disabled: state.crawl === null && state.using !== 'crawl',
    fileInUse: state.using === 'file',
  };
}
