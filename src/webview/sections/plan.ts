/**
 * The plan (docs/extension.md §What it shows, Plan): the total and what limits it, why there is no plan, the
 * first warnings, the duration chart and the host table (hosts alike in one row, sorted by a click on a heading),
 * and the buttons that need a plan.
 */
import { closestTo, el, renderChart } from '../dom';
import { ariaSort, hostRowView, moreRowsText, moreWarningsText, nextSort, sortRows, type SortKey } from '../model/plan';
import { warningListed } from '../model/servers';
import type { Planner } from '../page';
import { renderSharedGroups } from './servers';

function renderTable(p: Planner): void {
  const { state, ui } = p;
  const tbody = ui.hostTable.tBodies[0] ?? ui.hostTable.createTBody();
  tbody.replaceChildren();
  const summary = state.result?.summary ?? null;
  for (const th of ui.hostTable.tHead?.querySelectorAll<HTMLTableCellElement>('th[data-sort]') ?? [])
    th.setAttribute('aria-sort', ariaSort(state.sort, th.dataset.sort as SortKey));
  ui.tableMore.textContent = '';
  ui.hostTable.hidden = summary === null || summary.groups.length === 0;
  if (summary === null) return;
  for (const row of sortRows(summary.groups, state.sort)) {
    const view = hostRowView(row);
    // A group: "1,000 ×" on screen, "1,000 hosts like" for screen readers, then the host it is named after.
    const name = el('span', { className: 'host-name', text: row.host });
    const label =
      view.count === undefined
        ? [name]
        : [
            el('span', { className: 'host-count', text: view.count.shown, attrs: { 'aria-hidden': 'true' } }),
            el('span', { className: 'sr-only', text: view.count.spoken }),
            name,
          ];
    tbody.append(
      el('tr', { className: view.className, attrs: view.attrs }, [
        el('th', { attrs: { scope: 'row', title: view.title } }, label),
        el('td', { text: row.pages }),
        el('td', { attrs: { title: view.intervalTitle } }, [
          el('span', { text: row.interval }),
          ...(row.source === undefined ? [] : [el('span', { className: 'host-detail', text: row.source })]),
        ]),
        el('td', { text: view.time }),
      ]),
    );
  }
  ui.tableMore.textContent = moreRowsText(summary);
}

export function renderPlan(p: Planner): void {
  const { state, ui } = p;
  ui.problems.replaceChildren();
  ui.warnings.replaceChildren();
  ui.warningsMore.textContent = '';
  ui.planStatus.textContent = '';
  const result = state.result;
  const summary = result?.summary ?? null;
  ui.copyPlan.disabled = summary === null;
  ui.exportPlan.disabled = summary === null;
  ui.openReport.disabled = summary === null;
  renderTable(p);
  renderSharedGroups(p);
  if (result === undefined || summary === null) {
    ui.total.textContent = 'No plan yet.';
    ui.binding.textContent = '';
    for (const problem of result?.problems ?? [])
      ui.problems.append(el('li', { text: problem.message, attrs: { 'data-field': problem.field } }));
    renderChart(ui.chart, ui.chartMore, null);
    return;
  }
  ui.total.textContent = summary.totalText;
  ui.binding.textContent = summary.bindingDescription;
  for (const w of summary.warnings) {
    if (!warningListed(w.code, summary.sharedServers)) continue;
    const attrs: Record<string, string> = { 'data-code': w.code };
    if (w.host !== undefined) attrs['data-host'] = w.host;
    ui.warnings.append(el('li', { text: w.text, attrs }));
  }
  ui.warningsMore.textContent = moreWarningsText(summary);
  renderChart(ui.chart, ui.chartMore, summary.chart);
}

export function listenTable(p: Planner): void {
  p.ui.hostTable.tHead?.addEventListener('click', (event) => {
    const button = closestTo(event, 'button[data-sort]', HTMLButtonElement);
    if (button === null) return;
    p.state.sort = nextSort(p.state.sort, button.dataset.sort as SortKey);
    renderTable(p);
  });
}
