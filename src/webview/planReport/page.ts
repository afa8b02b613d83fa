/**
 * The plan report page: its elements (the markup is src/extension/planReport/html.ts), and `PlanReport`, what
 * every section (sections/) is handed: the one state, the elements, the row elements on screen, and the way to
 * the extension.
 */
import type { ReportToHost } from '../../shared/planReport/messages';
import type { Elements, ElementTable, WebviewPage } from '../dom';
import type { PlanReportState } from './state';

/** Each element's id and type, by the name the sections use (main.ts looks them up once, with elementsById). */
export const REPORT_ELEMENTS = {
  main: ['report', HTMLElement],
  status: ['status', HTMLElement],
  // The header and the chart
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
  // The hosts table
  search: ['search', HTMLInputElement],
  filter: ['filter', HTMLSelectElement],
  rowCount: ['row-count', HTMLElement],
  exportCsv: ['export-csv', HTMLButtonElement],
  exportJson: ['export-json', HTMLButtonElement],
  grid: ['grid', HTMLElement],
  viewport: ['viewport', HTMLElement],
  sizer: ['sizer', HTMLElement],
  // The simulation: the band and the timeline
  simulationStatus: ['simulation-status', HTMLElement],
  simulationBody: ['simulation-body', HTMLElement],
  simulationText: ['simulation-text', HTMLElement],
  histogram: ['histogram', HTMLElement],
  histogramMarks: ['histogram-marks', HTMLElement],
  histogramChart: ['histogram-chart', HTMLElement],
  histogramAxis: ['histogram-axis', HTMLElement],
  bandChart: ['band-chart', HTMLElement],
  timelineAxis: ['timeline-axis', HTMLElement],
  timeline: ['timeline', HTMLElement],
  timelineViewport: ['timeline-viewport', HTMLElement],
  timelineSizer: ['timeline-sizer', HTMLElement],
  timelineMethod: ['timeline-method', HTMLElement],
  timelineTicks: ['timeline-ticks', HTMLElement],
} satisfies ElementTable;

export type ReportElements = Elements<typeof REPORT_ELEMENTS>;

/** What every section is handed; it saves the view of the hosts and the scroll position. */
export interface PlanReport extends WebviewPage<PlanReportState, ReportElements, ReportToHost> {
  /** The row elements on screen, by position: the table's (in the view) and the timeline's (by host). */
  readonly drawn: { readonly rows: Map<number, HTMLElement>; readonly timeline: Map<number, HTMLElement> };
}
