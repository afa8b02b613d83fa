/**
 * The report's header: the plan's total and what limits it, its settings, why there is no plan, the duration
 * chart and the warnings (the first ones; all of them are in Export JSON).
 */
import { formatNumber } from '../../../core/format/duration';
import { el, renderChart } from '../../dom';
import type { PlanReport } from '../page';

export function renderHeader(p: PlanReport, problems: readonly string[]): void {
  const { ui } = p;
  const report = p.state.report;
  ui.problems.replaceChildren(...problems.map((problem) => el('li', { text: problem })));
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
