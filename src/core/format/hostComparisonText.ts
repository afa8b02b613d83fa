/**
 * Each host's planned against actual pages, requests and time (src/core/crawl/hostComparison.ts) as a table,
 * for the end of a crawl run with page budgets (`crawl --pages-per-host`, `--pages-for`, `--plan`, `demo`).
 * Host names come from the plan and the crawl: they are passed through `sanitizeText`. Pure.
 */
import type { HostComparison } from '../crawl/hostComparison';
import { formatDuration, formatNumber } from './duration';
import { renderTable, sanitizeText } from './table';

function pair(planned: number | null, actual: string): string {
  return `${planned === null ? '—' : formatNumber(planned)} / ${actual}`;
}

/** "Planned against actual, per host:" and a row per host: pages, requests, time (planned / actual, ±%). */
export function formatHostComparison(rows: readonly HostComparison[]): string[] {
  const table = renderTable(
    [
      { header: 'Host' },
      { header: 'Pages planned / actual', align: 'right' },
      { header: 'Requests planned / actual', align: 'right' },
      { header: 'Time planned / actual', align: 'right' },
    ],
    rows.map((r) => {
      const pct = r.secondsVsPlannedPercent;
      const time = `${r.plannedSeconds === null ? '—' : formatDuration(r.plannedSeconds)} / ${formatDuration(r.actualSeconds)}`;
      return [
        sanitizeText(r.host),
        pair(r.plannedPages, formatNumber(r.actualPages)),
        pair(r.plannedRequests, formatNumber(r.actualRequests)),
        pct === null ? time : `${time} (${pct >= 0 ? '+' : ''}${Math.round(pct)}%)`,
      ];
    }),
    { indent: '  ' },
  );
  return ['Planned against actual, per host (— : not in the plan, or its pages unknown):', ...table];
}
