/**
 * The hosts table: every host of the plan in a view (an order, a filter, a search) the extension makes, drawn
 * a window at a time in a tall scroll area. The table asks for the rows of the window it has not received,
 * draws those it has, and drops the rows that leave the window, so 100,000 hosts cost what 60 do.
 */
import type { HostToReport, ReportQuery, ReportRowView, ReportSortKey } from '../../../shared/planReport/messages';
import { closestTo, el } from '../../dom';
import { headingSort, missingRange, nextQuerySort, ROW_HEIGHT, rowCountText, visibleWindow } from '../model';
import type { PlanReport } from '../page';
import { awaitedRows } from '../state';

/** The pause in typing before a search is sent. */
const SEARCH_MS = 200;

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
function update(p: PlanReport): void {
  const { ui } = p;
  const table = p.state.table;
  const drawn = p.drawn.rows;
  table.frame = undefined;
  const { first, end } = visibleWindow(ui.viewport.scrollTop, ui.viewport.clientHeight, table.total);
  for (const [index, element] of drawn) {
    if (index < first || index >= end) {
      element.remove();
      drawn.delete(index);
    }
  }
  for (let i = first; i < end; i++) {
    if (drawn.has(i)) continue;
    const row = table.rows.get(i);
    if (row === undefined) continue;
    const element = rowElement(i, row);
    drawn.set(i, element);
    ui.sizer.append(element);
  }
  ask(p, first, end);
}

function ask(p: PlanReport, first: number, end: number): void {
  const { state } = p;
  const table = state.table;
  if (state.report === null || table.waiting !== undefined) return;
  // Before the first answer the total is unknown: ask for the window as if the view were long enough.
  const range = table.counted
    ? missingRange((i) => table.rows.has(i), first, end)
    : { offset: first, count: end - first };
  if (range === undefined || range.count === 0) return;
  state.request++;
  table.waiting = { request: state.request, offset: range.offset, count: Math.min(range.count, 500) };
  p.post({
    type: 'rows',
    plan: state.plan,
    request: state.request,
    query: state.query,
    offset: table.waiting.offset,
    count: table.waiting.count,
  });
}

function schedule(p: PlanReport): void {
  const table = p.state.table;
  if (table.frame === undefined) table.frame = requestAnimationFrame(() => update(p));
}

/** A new plan or a new view of it: nothing drawn is valid any more. */
export function resetRows(p: PlanReport, scrollTop: number): void {
  const { ui } = p;
  const table = p.state.table;
  table.rows = new Map();
  table.total = 0;
  table.counted = false;
  table.waiting = undefined;
  for (const element of p.drawn.rows.values()) element.remove();
  p.drawn.rows.clear();
  ui.sizer.style.height = '0px';
  ui.grid.setAttribute('aria-rowcount', '1');
  ui.viewport.scrollTop = scrollTop;
  ui.rowCount.textContent = '';
  const { first, end } = visibleWindow(
    scrollTop,
    Math.max(ui.viewport.clientHeight, ROW_HEIGHT * 40),
    Number.MAX_SAFE_INTEGER,
  );
  ask(p, first, end);
}

/** Rows came: kept and drawn, if they are the ones the table waits for. */
export function rowsReceived(p: PlanReport, message: Extract<HostToReport, { type: 'rows' }>): void {
  const { state, ui } = p;
  const table = state.table;
  if (!awaitedRows(state, message)) return;
  table.waiting = undefined;
  table.total = message.total;
  table.counted = true;
  message.rows.forEach((row, i) => table.rows.set(message.offset + i, row));
  ui.sizer.style.height = `${table.total * ROW_HEIGHT}px`;
  ui.grid.setAttribute('aria-rowcount', String(table.total + 1));
  ui.grid.dataset.rows = String(table.total);
  ui.rowCount.textContent = state.report === null ? '' : rowCountText(table.total, state.report.hostCount);
  if (table.restoreScroll !== undefined) {
    ui.viewport.scrollTop = table.restoreScroll;
    table.restoreScroll = undefined;
  }
  update(p);
}

/** The headings' order marks, and the search box and the filter as the query has them. */
export function renderHeadings(p: PlanReport): void {
  const { state, ui } = p;
  for (const cell of ui.grid.querySelectorAll<HTMLElement>('[role="columnheader"]')) {
    const key = cell.querySelector<HTMLButtonElement>('button[data-sort]')?.dataset.sort as ReportSortKey | undefined;
    if (key !== undefined) cell.setAttribute('aria-sort', headingSort(state.query, key));
  }
  ui.search.value = state.query.search;
  ui.filter.value = state.query.filter;
}

function setQuery(p: PlanReport, next: ReportQuery): void {
  p.state.query = next;
  renderHeadings(p);
  p.save();
  resetRows(p, 0);
}

/** The table's row height for the stylesheet, and its events: the scroll, a heading, the search, the filter, the exports. */
export function listenHosts(p: PlanReport): void {
  const { state, ui } = p;
  document.documentElement.style.setProperty('--row-height', `${ROW_HEIGHT}px`);
  ui.viewport.addEventListener('scroll', () => {
    schedule(p);
    p.save();
  });
  window.addEventListener('resize', () => schedule(p));
  ui.grid.querySelector('.grid-head')?.addEventListener('click', (event) => {
    const button = closestTo(event, 'button[data-sort]', HTMLButtonElement);
    if (button === null) return;
    setQuery(p, nextQuerySort(state.query, button.dataset.sort as ReportSortKey));
  });
  ui.search.addEventListener('input', () => {
    if (state.timers.search !== undefined) clearTimeout(state.timers.search);
    state.timers.search = setTimeout(() => setQuery(p, { ...state.query, search: ui.search.value.trim() }), SEARCH_MS);
  });
  ui.filter.addEventListener('change', () =>
    setQuery(p, { ...state.query, filter: ui.filter.value as ReportQuery['filter'] }),
  );
  ui.exportCsv.addEventListener('click', () => p.post({ type: 'export', format: 'csv', query: state.query }));
  ui.exportJson.addEventListener('click', () => p.post({ type: 'export', format: 'json', query: state.query }));
}
