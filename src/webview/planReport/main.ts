/**
 * The plan report webview (browser, bundled as an iife into dist/planReport.js): the plan's header and chart,
 * and every host in a table drawn a window at a time. The extension sorts, filters and searches (it holds
 * the plan); this asks for the rows it draws and positions them in a tall scroll area, so 100,000 hosts
 * cost what 60 do. Text goes in through `textContent` and attributes only (test/unit/webview-static.test.ts).
 * Decisions live in `model.ts` (pure, unit-tested).
 */
import { formatNumber } from '../../core/format/duration';
import { assertNever } from '../../shared/messageChecks';
import {
  isHostReportMessage,
  MAX_TIMELINE_ROWS,
  type HostToReport,
  type ReportQuery,
  type ReportRowView,
  type ReportSimulationView,
  type ReportSortKey,
  type ReportToHost,
  type ReportView,
  type TimelineRowView,
} from '../../shared/planReport/messages';
import { closestTo, el, elementsById, receiveMessages, renderChart, showNotice, webviewApi } from '../dom';
import {
  axisTicks,
  bandMarks,
  headingSort,
  missingRange,
  nextQuerySort,
  pagesPoints,
  parseReportState,
  ROW_HEIGHT,
  rowCountText,
  timeX,
  TIMELINE_HEIGHT,
  TIMELINE_OVERSCAN,
  TIMELINE_ROW_HEIGHT,
  TIMELINE_WIDTH,
  visibleWindow,
  type ReportState,
} from './model';

const SEARCH_MS = 200;
const NOTICE_MS = 8000;

const vscode = webviewApi<ReportToHost, ReportState>();

const ui = elementsById({
  main: ['report', HTMLElement],
  total: ['total', HTMLElement],
  binding: ['binding', HTMLElement],
  settings: ['settings', HTMLElement],
  problems: ['problems', HTMLUListElement],
  chartSection: ['chart-section', HTMLElement],
  chart: ['chart', HTMLElement],
  chartMore: ['chart-more', HTMLElement],
  warningsSection: ['warnings-section', HTMLDetailsElement],
  warningsHeading: ['warnings-heading', HTMLElement],
  warnings: ['warnings', HTMLUListElement],
  warningsMore: ['warnings-more', HTMLElement],
  search: ['search', HTMLInputElement],
  filter: ['filter', HTMLSelectElement],
  rowCount: ['row-count', HTMLElement],
  exportCsv: ['export-csv', HTMLButtonElement],
  exportJson: ['export-json', HTMLButtonElement],
  grid: ['grid', HTMLElement],
  viewport: ['viewport', HTMLElement],
  sizer: ['sizer', HTMLElement],
  status: ['status', HTMLElement],
  simulationStatus: ['simulation-status', HTMLElement],
  simulationBody: ['simulation-body', HTMLElement],
  simulationText: ['simulation-text', HTMLElement],
  bandChart: ['band-chart', HTMLElement],
  timelineAxis: ['timeline-axis', HTMLElement],
  timeline: ['timeline', HTMLElement],
  timelineViewport: ['timeline-viewport', HTMLElement],
  timelineSizer: ['timeline-sizer', HTMLElement],
  timelineMethod: ['timeline-method', HTMLElement],
});

// ---------------------------------------------------------------------------------------------
// State

const state = parseReportState(vscode.getState());
let query: ReportQuery = state.query;
/** The plan the report shows (its number), its header, and the rows of the current view received so far. */
let plan = 0;
let report: ReportView | null = null;
let total = 0;
/** Whether `total` is known for the current view (after its first rows came). */
let counted = false;
let rows = new Map<number, ReportRowView>();
let request = 0;
let waiting: { request: number; offset: number; count: number } | undefined;
let restoreScroll: number | undefined = state.scrollTop;
let frame: number | undefined;
let searchTimer: ReturnType<typeof setTimeout> | undefined;
/** The timer that clears the notice. */
const noticeTimer: { notice?: ReturnType<typeof setTimeout> } = {};
/** Row elements on screen, by position in the view. */
const drawn = new Map<number, HTMLElement>();

document.documentElement.style.setProperty('--row-height', `${ROW_HEIGHT}px`);

function post(message: ReportToHost): void {
  vscode.postMessage(message);
}

function save(): void {
  vscode.setState({ v: 1, query, scrollTop: ui.viewport.scrollTop });
}

// ---------------------------------------------------------------------------------------------
// The header

function renderReport(problems: readonly string[]): void {
  ui.problems.replaceChildren(...problems.map((p) => el('li', { text: p })));
  ui.exportCsv.disabled = report === null;
  ui.exportJson.disabled = report === null;
  if (report === null) {
    ui.total.textContent = 'No plan yet: enter seeds and pages in the Crawl Planner sidebar.';
    ui.binding.textContent = '';
    ui.settings.textContent = '';
    ui.warningsSection.hidden = true;
    renderChart(ui.chart, ui.chartMore, null);
    ui.grid.classList.remove('sharded');
    return;
  }
  ui.total.textContent = report.totalText;
  ui.binding.textContent = report.bindingDescription;
  ui.settings.textContent = `Seeds from ${report.seedsFrom} · ${report.settingsText}`;
  renderChart(ui.chart, ui.chartMore, report.chart);
  ui.warningsSection.hidden = report.warningCount === 0;
  ui.warningsHeading.textContent = `Warnings (${formatNumber(report.warningCount)})`;
  ui.warnings.replaceChildren(
    ...report.warnings.map((w) =>
      el('li', {
        text: w.host === undefined ? w.text : `${w.host}: ${w.text}`,
        attrs: { 'data-code': w.code, ...(w.host ? { 'data-host': w.host } : {}) },
      }),
    ),
  );
  const more = report.warningCount - report.warnings.length;
  ui.warningsMore.textContent = more > 0 ? `and ${formatNumber(more)} more (all in Export JSON)` : '';
  ui.grid.classList.toggle('sharded', report.sharded);
}

function renderHeadings(): void {
  for (const cell of ui.grid.querySelectorAll<HTMLElement>('[role="columnheader"]')) {
    const key = cell.querySelector<HTMLButtonElement>('button[data-sort]')?.dataset.sort as ReportSortKey | undefined;
    if (key !== undefined) cell.setAttribute('aria-sort', headingSort(query, key));
  }
  ui.search.value = query.search;
  ui.filter.value = query.filter;
}

// ---------------------------------------------------------------------------------------------
// The table: a window of rows in a tall scroll area

function rowElement(index: number, row: ReportRowView): HTMLElement {
  const cells = [
    row.host,
    row.seeds,
    row.pages,
    row.interval,
    row.source,
    row.period,
    row.pagesPerHour,
    row.duration,
    row.machine ?? '',
  ];
  const classes = ['row', row.binding ? 'binding' : '', row.skipped ? 'skipped' : ''].filter(Boolean).join(' ');
  const element = el(
    'div',
    {
      className: classes,
      attrs: {
        role: 'row',
        'aria-rowindex': String(index + 2),
        'data-host': row.host,
        'data-source': row.intervalSource,
      },
    },
    cells.map((text, i) =>
      el('div', { className: `cell col-${i}`, text, attrs: { role: 'cell', ...(i === 0 ? { title: row.host } : {}) } }),
    ),
  );
  // CSSOM, not a style attribute: allowed by the CSP.
  element.style.transform = `translateY(${index * ROW_HEIGHT}px)`;
  return element;
}

/** Draws the rows of the window that have arrived, drops those out of it, and asks for the missing ones. */
function update(): void {
  frame = undefined;
  const { first, end } = visibleWindow(ui.viewport.scrollTop, ui.viewport.clientHeight, total);
  for (const [index, element] of drawn) {
    if (index < first || index >= end) {
      element.remove();
      drawn.delete(index);
    }
  }
  for (let i = first; i < end; i++) {
    if (drawn.has(i)) continue;
    const row = rows.get(i);
    if (row === undefined) continue;
    const element = rowElement(i, row);
    drawn.set(i, element);
    ui.sizer.append(element);
  }
  ask(first, end);
}

function ask(first: number, end: number): void {
  if (report === null || waiting !== undefined) return;
  // Before the first answer the total is unknown: ask for the window as if the view were long enough.
  const range = counted ? missingRange((i) => rows.has(i), first, end) : { offset: first, count: end - first };
  if (range === undefined || range.count === 0) return;
  request++;
  waiting = { request, offset: range.offset, count: Math.min(range.count, 500) };
  post({ type: 'rows', plan, request, query, offset: waiting.offset, count: waiting.count });
}

function schedule(): void {
  if (frame === undefined) frame = requestAnimationFrame(update);
}

/** A new plan or a new view of it: nothing drawn is valid any more. */
function resetRows(scrollTop: number): void {
  rows = new Map();
  total = 0;
  counted = false;
  waiting = undefined;
  for (const element of drawn.values()) element.remove();
  drawn.clear();
  ui.sizer.style.height = '0px';
  ui.grid.setAttribute('aria-rowcount', '1');
  ui.viewport.scrollTop = scrollTop;
  ui.rowCount.textContent = '';
  const { first, end } = visibleWindow(
    scrollTop,
    Math.max(ui.viewport.clientHeight, ROW_HEIGHT * 40),
    Number.MAX_SAFE_INTEGER,
  );
  ask(first, end);
}

function received(message: Extract<HostToReport, { type: 'rows' }>): void {
  if (message.plan !== plan || waiting === undefined || message.request !== waiting.request) return;
  waiting = undefined;
  total = message.total;
  counted = true;
  message.rows.forEach((row, i) => rows.set(message.offset + i, row));
  ui.sizer.style.height = `${total * ROW_HEIGHT}px`;
  ui.grid.setAttribute('aria-rowcount', String(total + 1));
  ui.grid.dataset.rows = String(total);
  ui.rowCount.textContent = report === null ? '' : rowCountText(total, report.hostCount);
  if (restoreScroll !== undefined) {
    ui.viewport.scrollTop = restoreScroll;
    restoreScroll = undefined;
  }
  update();
}

// ---------------------------------------------------------------------------------------------
// The simulation: the band, and the per-host timeline drawn a window of hosts at a time (as the table)

const SVG = 'http://www.w3.org/2000/svg';
let simulation: ReportSimulationView | null = null;
let timelineRows = new Map<number, TimelineRowView>();
let timelineWaiting: { request: number } | undefined;
let timelineFrame: number | undefined;
const timelineDrawn = new Map<number, HTMLElement>();

/** An SVG element with its attributes set as data (numbers and our own class names only). */
function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  children: Node[] = [],
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** A `<title>` (a tooltip and an accessible name) whose text is set as text. */
function svgTitle(text: string): SVGTitleElement {
  const title = svg('title');
  title.textContent = text;
  return title;
}

function renderSimulation(status: string): void {
  ui.simulationStatus.textContent = simulation === null ? status : '';
  ui.simulationBody.hidden = simulation === null;
  for (const element of timelineDrawn.values()) element.remove();
  timelineDrawn.clear();
  timelineRows = new Map();
  timelineWaiting = undefined;
  ui.bandChart.replaceChildren();
  ui.timelineAxis.replaceChildren();
  ui.timeline.dataset.hosts = '0';
  ui.timelineSizer.style.height = '0px';
  if (simulation === null) {
    ui.bandChart.setAttribute('aria-label', 'No simulation yet');
    return;
  }
  const s = simulation;
  ui.simulationText.textContent = s.text;
  ui.timelineMethod.textContent = s.methodText;
  ui.timeline.dataset.method = s.method;
  ui.timeline.dataset.hosts = String(s.timelineHosts);
  const marks = bandMarks(s);
  ui.bandChart.setAttribute('aria-label', s.text);
  ui.bandChart.append(
    svg(
      'svg',
      {
        viewBox: `0 0 ${TIMELINE_WIDTH} ${TIMELINE_HEIGHT}`,
        preserveAspectRatio: 'none',
        class: 'band-svg',
        'aria-hidden': 'true',
      },
      [
        svg('rect', {
          class: 'band-range',
          x: marks.fromX,
          y: 2,
          width: Math.max(1, marks.toX - marks.fromX),
          height: TIMELINE_HEIGHT - 4,
        }),
        svg('line', { class: 'band-p50', x1: marks.p50X, x2: marks.p50X, y1: 0, y2: TIMELINE_HEIGHT }),
        svg('line', { class: 'band-plan', x1: marks.planX, x2: marks.planX, y1: 0, y2: TIMELINE_HEIGHT }),
      ],
    ),
  );
  for (const tick of axisTicks(s.axisSeconds)) {
    const label = el('span', { className: 'tick', text: tick.label });
    label.style.left = `${tick.percent}%`;
    ui.timelineAxis.append(label);
  }
  ui.timelineSizer.style.height = `${s.timelineHosts * TIMELINE_ROW_HEIGHT}px`;
  ui.timelineViewport.scrollTop = 0;
  scheduleTimeline();
}

function timelineElement(index: number, row: TimelineRowView): HTMLElement {
  const axis = simulation!.axisSeconds;
  const startX = timeX(row.startSeconds, axis);
  const endX = timeX(row.endSeconds, axis);
  const drawing = svg(
    'svg',
    {
      viewBox: `0 0 ${TIMELINE_WIDTH} ${TIMELINE_HEIGHT}`,
      preserveAspectRatio: 'none',
      class: 'tl-svg',
      role: 'img',
      'aria-label': `${row.host}: ${row.summary}`,
    },
    [
      svgTitle(`${row.host}: ${row.summary}`),
      svg('rect', {
        class: 'tl-span',
        x: startX,
        y: TIMELINE_HEIGHT / 2 - 1,
        width: Math.max(1, endX - startX),
        height: 2,
      }),
      ...row.pauses.map((p) => {
        const from = timeX(p.fromSeconds, axis);
        return svg(
          'rect',
          {
            class: 'tl-pause',
            x: from,
            y: 0,
            width: Math.max(1, timeX(p.untilSeconds, axis) - from),
            height: TIMELINE_HEIGHT,
          },
          [svgTitle(p.label)],
        );
      }),
      svg('polyline', { class: 'tl-pages', points: pagesPoints(row.pages, row.totalPages, axis) }),
    ],
  );
  const element = el(
    'div',
    {
      className: row.binding ? 'trow binding' : 'trow',
      attrs: { role: 'listitem', 'data-host': row.host, 'data-pauses': String(row.pauses.length) },
    },
    [el('span', { className: 'tl-host', text: row.host, attrs: { title: `${row.host}: ${row.summary}` } }), drawing],
  );
  element.style.transform = `translateY(${index * TIMELINE_ROW_HEIGHT}px)`;
  return element;
}

function updateTimeline(): void {
  timelineFrame = undefined;
  if (simulation === null) return;
  const { first, end } = visibleWindow(
    ui.timelineViewport.scrollTop,
    ui.timelineViewport.clientHeight,
    simulation.timelineHosts,
    TIMELINE_ROW_HEIGHT,
    TIMELINE_OVERSCAN,
  );
  for (const [index, element] of timelineDrawn) {
    if (index < first || index >= end) {
      element.remove();
      timelineDrawn.delete(index);
    }
  }
  for (let i = first; i < end; i++) {
    const row = timelineRows.get(i);
    if (row === undefined || timelineDrawn.has(i)) continue;
    const element = timelineElement(i, row);
    timelineDrawn.set(i, element);
    ui.timelineSizer.append(element);
  }
  if (timelineWaiting !== undefined) return;
  const range = missingRange((i) => timelineRows.has(i), first, end);
  if (range === undefined || range.count === 0) return;
  request++;
  timelineWaiting = { request };
  post({
    type: 'timeline',
    plan,
    simulation: simulation.number,
    request,
    offset: range.offset,
    count: Math.min(range.count, MAX_TIMELINE_ROWS),
  });
}

function scheduleTimeline(): void {
  if (timelineFrame === undefined) timelineFrame = requestAnimationFrame(updateTimeline);
}

function timelineReceived(message: Extract<HostToReport, { type: 'timeline' }>): void {
  if (
    simulation === null ||
    message.plan !== plan ||
    message.simulation !== simulation.number ||
    message.request !== timelineWaiting?.request
  )
    return;
  timelineWaiting = undefined;
  message.hosts.forEach((row, i) => timelineRows.set(message.offset + i, row));
  updateTimeline();
}

function setQuery(next: ReportQuery): void {
  query = next;
  renderHeadings();
  save();
  resetRows(0);
}

// ---------------------------------------------------------------------------------------------
// Messages from the extension

function handle(message: HostToReport): void {
  switch (message.type) {
    case 'report':
      plan = message.plan;
      report = message.report;
      renderReport(message.problems);
      resetRows(restoreScroll ?? 0);
      ui.main.removeAttribute('aria-busy');
      break;
    case 'rows':
      received(message);
      break;
    case 'notice':
      showNotice(ui.status, message.level, message.message, NOTICE_MS, noticeTimer);
      break;
    case 'simulation':
      if (message.plan !== plan) break;
      // The same simulation again (the plan did not change): what is drawn stays.
      if (message.simulation !== null && simulation !== null && message.simulation.number === simulation.number) break;
      simulation = message.simulation;
      renderSimulation(message.status);
      break;
    case 'timeline':
      timelineReceived(message);
      break;
    default:
      assertNever(message);
  }
}

receiveMessages(isHostReportMessage, handle);

// ---------------------------------------------------------------------------------------------
// Events

ui.viewport.addEventListener('scroll', () => {
  schedule();
  save();
});
window.addEventListener('resize', () => {
  schedule();
  scheduleTimeline();
});
ui.timelineViewport.addEventListener('scroll', scheduleTimeline);

ui.grid.querySelector('.grid-head')?.addEventListener('click', (event) => {
  const button = closestTo(event, 'button[data-sort]', HTMLButtonElement);
  if (button === null) return;
  setQuery(nextQuerySort(query, button.dataset.sort as ReportSortKey));
});

ui.search.addEventListener('input', () => {
  if (searchTimer !== undefined) clearTimeout(searchTimer);
  searchTimer = setTimeout(() => setQuery({ ...query, search: ui.search.value.trim() }), SEARCH_MS);
});

ui.filter.addEventListener('change', () => setQuery({ ...query, filter: ui.filter.value as ReportQuery['filter'] }));

ui.exportCsv.addEventListener('click', () => post({ type: 'export', format: 'csv', query }));
ui.exportJson.addEventListener('click', () => post({ type: 'export', format: 'json', query }));

// ---------------------------------------------------------------------------------------------
// Start

renderHeadings();
renderReport([]);
post({ type: 'ready' });
