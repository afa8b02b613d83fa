/**
 * The plan report webview (browser, bundled as an iife into dist/report.js): the plan's header and chart,
 * and every host in a table drawn a window at a time. The extension sorts, filters and searches (it holds
 * the plan); this asks for the rows it draws and positions them in a tall scroll area, so 100,000 hosts
 * cost what 60 do. Text goes in through `textContent` and attributes only (test/unit/webview-static.test.ts).
 * Decisions live in `model.ts` (pure, unit-tested).
 */
import { formatNumber } from '../../core/format/duration';
import { assertNever } from '../../shared/protocol';
import { isHostReportMessage, type HostToReport, type ReportQuery, type ReportRowView, type ReportSortKey, type ReportToHost, type ReportView } from '../../shared/reportProtocol';
import { byId, el, renderChart, showNotice } from '../dom';
import { headingSort, missingRange, nextQuerySort, parseReportState, ROW_HEIGHT, rowCountText, visibleWindow, type ReportState } from './model';

interface VsCodeApi {
  postMessage(message: ReportToHost): void;
  getState(): unknown;
  setState(state: ReportState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const SEARCH_MS = 200;
const NOTICE_MS = 8000;

const vscode = acquireVsCodeApi();

const ui = {
  main: byId<HTMLElement>('report'),
  total: byId<HTMLElement>('total'),
  binding: byId<HTMLElement>('binding'),
  settings: byId<HTMLElement>('settings'),
  problems: byId<HTMLUListElement>('problems'),
  chartSection: byId<HTMLElement>('chart-section'),
  chart: byId<HTMLElement>('chart'),
  chartMore: byId<HTMLElement>('chart-more'),
  warningsSection: byId<HTMLDetailsElement>('warnings-section'),
  warningsHeading: byId<HTMLElement>('warnings-heading'),
  warnings: byId<HTMLUListElement>('warnings'),
  warningsMore: byId<HTMLElement>('warnings-more'),
  search: byId<HTMLInputElement>('search'),
  filter: byId<HTMLSelectElement>('filter'),
  rowCount: byId<HTMLElement>('row-count'),
  exportCsv: byId<HTMLButtonElement>('export-csv'),
  exportJson: byId<HTMLButtonElement>('export-json'),
  grid: byId<HTMLElement>('grid'),
  viewport: byId<HTMLElement>('viewport'),
  sizer: byId<HTMLElement>('sizer'),
  status: byId<HTMLElement>('status'),
};

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
    ...report.warnings.map((w) => el('li', { text: w.host === undefined ? w.text : `${w.host}: ${w.text}`, attrs: { 'data-code': w.code, ...(w.host ? { 'data-host': w.host } : {}) } })),
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
  const cells = [row.host, row.seeds, row.pages, row.interval, row.source, row.period, row.pagesPerHour, row.duration, row.machine ?? ''];
  const classes = ['row', row.binding ? 'binding' : '', row.skipped ? 'skipped' : ''].filter(Boolean).join(' ');
  const element = el(
    'div',
    { className: classes, attrs: { role: 'row', 'aria-rowindex': String(index + 2), 'data-host': row.host, 'data-source': row.intervalSource } },
    cells.map((text, i) => el('div', { className: `cell col-${i}`, text, attrs: { role: 'cell', ...(i === 0 ? { title: row.host } : {}) } })),
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
  const { first, end } = visibleWindow(scrollTop, Math.max(ui.viewport.clientHeight, ROW_HEIGHT * 40), Number.MAX_SAFE_INTEGER);
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
      showNotice(ui.status, message.level, message.message, NOTICE_MS);
      break;
    default:
      assertNever(message);
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostReportMessage(event.data)) handle(event.data);
});

// ---------------------------------------------------------------------------------------------
// Events

ui.viewport.addEventListener('scroll', () => {
  schedule();
  save();
});
window.addEventListener('resize', schedule);

ui.grid.querySelector('.grid-head')?.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-sort]') : null;
  if (!(button instanceof HTMLButtonElement)) return;
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
