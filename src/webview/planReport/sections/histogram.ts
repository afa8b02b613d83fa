/**
 * The band as a distribution (docs/extension.md#calibration-and-simulation): a histogram of the runs' makespans
 * on its own axis, with p10, p50, p90 and the plan's own total marked and labelled above it. The geometry is
 * simulationModel.ts's; labels are text (`textContent`), the bars' tooltips `<title>` text.
 */
import type { ReportSimulationView } from '../../../shared/planReport/messages';
import { el } from '../../dom';
import type { PlanReport } from '../page';
import { HISTOGRAM_HEIGHT, HISTOGRAM_WIDTH, histogramLayout } from '../simulationModel';
import { svg, svgTitle } from './svg';

/** A mark's label's width at most, CSS pixels (14 characters of the report's small text, and a gap). */
const LABEL_PX = 110;

/** Draws the histogram of `simulation` (or clears it: none, or none binned). */
export function renderHistogram(p: PlanReport, simulation: ReportSimulationView | null): void {
  const { ui } = p;
  ui.histogramChart.replaceChildren();
  ui.histogramMarks.replaceChildren();
  ui.histogramAxis.replaceChildren();
  const histogram = simulation?.histogram ?? null;
  ui.histogram.hidden = simulation === null || histogram === null || histogram.counts.length === 0;
  ui.histogram.dataset.bins = '0';
  if (simulation === null || histogram === null || ui.histogram.hidden) return;
  // Labels ("p50 12 m 40 s") are about LABEL_PX wide: those closer than that go on separate lines.
  const chartPx = ui.histogramChart.clientWidth;
  const layout = histogramLayout(histogram, simulation, chartPx > 0 ? (LABEL_PX / chartPx) * 100 : undefined);
  ui.histogram.dataset.bins = String(histogram.counts.length);
  ui.histogram.dataset.runs = String(histogram.counts.reduce((sum, n) => sum + n, 0));
  ui.histogramChart.setAttribute(
    'aria-label',
    `Histogram of ${simulation.runs} runs' makespans: ${layout.labels.map((l) => l.text).join(', ')}`,
  );
  ui.histogramChart.append(
    svg(
      'svg',
      {
        viewBox: `0 0 ${HISTOGRAM_WIDTH} ${HISTOGRAM_HEIGHT}`,
        preserveAspectRatio: 'none',
        class: 'hist-svg',
      },
      [
        ...layout.bars
          .filter((bar) => bar.count > 0)
          .map((bar) =>
            svg('rect', { class: 'hist-bar', x: bar.x, y: bar.y, width: bar.width, height: bar.height }, [
              svgTitle(bar.label),
            ]),
          ),
        ...layout.marks.map((mark) =>
          svg('line', {
            class: `hist-mark hist-${mark.kind}`,
            'data-mark': mark.kind,
            x1: mark.x,
            x2: mark.x,
            y1: 0,
            y2: HISTOGRAM_HEIGHT,
          }),
        ),
      ],
    ),
  );
  ui.histogramMarks.style.height = `${layout.lines * 1.3}em`;
  for (const l of layout.labels) {
    // The plan's colour when it reads alone.
    const label = el('span', {
      className: `hist-label hist-${l.kinds.length === 1 ? l.kinds[0]! : 'marks'}`,
      text: l.text,
    });
    label.dataset.marks = l.kinds.join(' ');
    label.style.left = `${l.percent}%`;
    label.style.top = `${l.line * 1.3}em`;
    ui.histogramMarks.append(label);
  }
  for (const tick of layout.ticks) {
    const label = el('span', { className: 'tick', text: tick.label });
    label.style.left = `${tick.percent}%`;
    ui.histogramAxis.append(label);
  }
}
