/**
 * The plan report's HTML: a static skeleton with stable element ids (the e2e tests and docs/extension.md
 * §The plan report name them), one external script by nonce and one external stylesheet, under the same
 * Content-Security-Policy as the planner (src/extension/planner/html.ts). The hosts table is an ARIA table of
 * rows the script draws a window at a time. Pure (no vscode at run time).
 */
import { REPORT_FILTERS, type ReportFilter } from '../../shared/planReport/messages';
import { escapeAttr, webviewPage, type WebviewLike } from '../planner/html';

/** The filter menu's words. */
export const FILTER_LABELS: Readonly<Record<ReportFilter, string>> = {
  all: 'All hosts',
  binding: 'The host that limits the crawl',
  skipped: 'Skipped hosts',
  configured: 'Interval set by the delay',
  'crawl-delay': 'Interval set by Crawl-delay',
  adaptive: 'Interval set by the adaptive rule',
  latency: 'Pace set by the response time',
};

/** The table's columns: the sort key each heading sorts by, and its heading. */
export const REPORT_COLUMNS = [
  ['host', 'Host'],
  ['seeds', 'Seeds'],
  ['pages', 'Pages'],
  ['interval', 'Interval'],
  ['source', 'Set by'],
  ['period', 'Period'],
  ['pagesPerHour', 'Pages/h'],
  ['duration', 'Duration'],
  ['machine', 'Machine'],
] as const;

export function getReportHtml<U>(webview: WebviewLike<U>, nonce: string, resources: { script: U; style: U }): string {
  const options = REPORT_FILTERS.map((f) => `<option value="${f}">${escapeAttr(FILTER_LABELS[f])}</option>`).join('');
  const headings = REPORT_COLUMNS.map(
    ([key, label], i) =>
      `<div role="columnheader" class="cell col-${i}" data-column="${i}" aria-sort="none"><button type="button" class="sort" data-sort="${key}">${escapeAttr(label)}</button></div>`,
  ).join('');
  return webviewPage(
    webview,
    nonce,
    resources,
    'Crawl Plan Report',
    `<main id="report" aria-busy="true">
  <header class="report-head">
    <h1 id="report-title">Crawl plan</h1>
    <p id="total" class="total"></p>
    <p id="binding" class="binding"></p>
    <p id="settings" class="hint"></p>
    <ul id="problems" class="problems" aria-label="Why there is no plan"></ul>
  </header>

  <section id="chart-section" class="chart-section" aria-labelledby="chart-heading">
    <h2 id="chart-heading">Duration by host</h2>
    <div id="chart" class="chart" role="img" aria-label="No plan yet"></div>
    <p id="chart-more" class="hint"></p>
  </section>

  <details id="warnings-section" class="warnings-section" hidden>
    <summary id="warnings-heading">Warnings</summary>
    <ul id="warnings" class="warnings" aria-label="Warnings"></ul>
    <p id="warnings-more" class="hint"></p>
  </details>

  <div id="sections">
    <section id="simulation-section" class="simulation-section" aria-labelledby="simulation-heading">
      <h2 id="simulation-heading">Simulated band and timeline</h2>
      <p id="simulation-status" class="hint" aria-live="polite"></p>
      <div id="simulation-body" hidden>
        <p id="simulation-text"></p>
        <figure id="histogram" class="histogram" data-bins="0" hidden>
          <figcaption class="hint">The runs' makespans: how many runs ended in each stretch of time, p10, p50, p90 and the plan marked.</figcaption>
          <div id="histogram-marks" class="histogram-marks" aria-hidden="true"></div>
          <div id="histogram-chart" class="histogram-chart" role="img"></div>
          <div id="histogram-axis" class="histogram-axis timeline-axis" aria-hidden="true"></div>
        </figure>
        <div id="band-chart" class="band-chart" role="img" aria-label="No simulation yet"></div>
        <div id="timeline-axis" class="timeline-axis" aria-hidden="true"></div>
        <div id="timeline" class="timeline" role="list" aria-label="Hosts over time, the host that limits the crawl first" data-hosts="0">
          <div id="timeline-viewport" class="timeline-viewport" tabindex="0" aria-label="Host timelines (scroll)">
            <div id="timeline-sizer" class="sizer"></div>
          </div>
        </div>
        <p id="timeline-method" class="hint"></p>
        <p id="timeline-ticks" class="hint" hidden></p>
        <p class="hint timeline-legend">Each line: the host's span from its robots.txt to its last answer, a tick for each request (<span class="legend-refused">tall and red: refused, 429 or 503</span>; <span class="legend-error">yellow: another fault</span>), its pages over time rising from the bottom to the top, and shaded its Retry-After pauses. Above the lines: the p10–p90 band, p50 and the plan on the same time axis (a p90 past its end runs to the edge).</p>
      </div>
    </section>
  </div>

  <section class="hosts" aria-labelledby="hosts-heading">
    <h2 id="hosts-heading">Hosts</h2>
    <div class="toolbar" role="toolbar" aria-label="Hosts table">
      <input id="search" type="search" autocomplete="off" spellcheck="false" placeholder="Search hosts" aria-label="Search hosts">
      <select id="filter" aria-label="Show">${options}</select>
      <span id="row-count" class="hint" aria-live="polite"></span>
      <span class="spacer"></span>
      <button id="export-csv" type="button" class="secondary" title="Save the rows shown (this search, filter and order) as CSV">Export CSV…</button>
      <button id="export-json" type="button" class="secondary" title="Save the whole plan as the estimate --json document">Export JSON…</button>
    </div>
    <div id="grid" class="host-grid" role="table" aria-label="Hosts" aria-rowcount="1">
      <div class="grid-head" role="rowgroup">
        <div class="row head" role="row" aria-rowindex="1">${headings}</div>
      </div>
      <div id="viewport" class="viewport" role="rowgroup" tabindex="0" aria-label="Host rows (scroll)">
        <div id="sizer" class="sizer"></div>
      </div>
    </div>
    <p id="status" class="status" role="status" aria-live="polite"></p>
  </section>
</main>
`,
  );
}
