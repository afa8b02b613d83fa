/**
 * The simulation: the p10–p90 band on the time axis, and the per-host timeline (each host's span, its pauses
 * and its pages over time) drawn a window of hosts at a time, as the hosts table is. Drawn as SVG whose
 * attributes are numbers and our own class names; text goes in as text (`<title>`, `textContent`).
 */
import { MAX_TIMELINE_ROWS, type HostToReport, type TimelineRowView } from '../../../shared/planReport/messages';
import { el } from '../../dom';
import {
  axisTicks,
  bandMarks,
  missingRange,
  pagesPoints,
  timeX,
  TIMELINE_HEIGHT,
  TIMELINE_OVERSCAN,
  TIMELINE_ROW_HEIGHT,
  TIMELINE_WIDTH,
  visibleWindow,
} from '../model';
import type { PlanReport } from '../page';
import { shadedIntervals, tickPaths } from '../simulationModel';
import { awaitedTimeline } from '../state';
import { renderHistogram } from './histogram';
import { svg, svgTitle } from './svg';

/** The simulation as the state has it now (or `status`, why there is none): the band, the axis, an empty timeline. */
export function renderSimulation(p: PlanReport, status: string): void {
  const { ui } = p;
  const timeline = p.state.timeline;
  const simulation = timeline.simulation;
  ui.simulationStatus.textContent = simulation === null ? status : '';
  ui.simulationBody.hidden = simulation === null;
  for (const element of p.drawn.timeline.values()) element.remove();
  p.drawn.timeline.clear();
  timeline.rows = new Map();
  timeline.waiting = undefined;
  ui.bandChart.replaceChildren();
  ui.timelineAxis.replaceChildren();
  ui.timeline.dataset.hosts = '0';
  ui.timelineSizer.style.height = '0px';
  renderHistogram(p, simulation);
  if (simulation === null) {
    ui.bandChart.setAttribute('aria-label', 'No simulation yet');
    return;
  }
  const s = simulation;
  ui.simulationText.textContent = s.text;
  ui.timelineMethod.textContent = s.methodText;
  ui.timelineTicks.textContent = s.ticksText;
  ui.timelineTicks.hidden = s.ticksText === '';
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
  scheduleTimeline(p);
}

function timelineElement(index: number, row: TimelineRowView, axis: number): HTMLElement {
  const startX = timeX(row.startSeconds, axis);
  const endX = timeX(row.endSeconds, axis);
  // A tick per request (429 and 503 in their own colour, other faults in theirs), over the pages line.
  const paths = row.requests === null ? undefined : tickPaths(row.requests, axis);
  const ticks =
    paths === undefined
      ? []
      : (['ok', 'error', 'refused'] as const)
          .filter((kind) => paths[kind].d !== '')
          .map((kind) => svg('path', { class: `tl-tick tl-tick-${kind}`, d: paths[kind].d }));
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
      ...shadedIntervals(row.pauses, axis).map((pause) =>
        svg('rect', { class: 'tl-pause', x: pause.x, y: 0, width: pause.width, height: TIMELINE_HEIGHT }, [
          svgTitle(pause.label),
        ]),
      ),
      svg('polyline', {
        class: row.requests === null ? 'tl-pages' : 'tl-pages with-ticks',
        points: pagesPoints(row.pages, row.totalPages, axis),
      }),
      ...ticks,
    ],
  );
  const element = el(
    'div',
    {
      className: row.binding ? 'trow binding' : 'trow',
      attrs: {
        role: 'listitem',
        'data-host': row.host,
        'data-pauses': String(row.pauses.length),
        'data-ticks': String(row.requests?.length ?? 0),
        'data-refused': String(paths?.refused.count ?? 0),
      },
    },
    [el('span', { className: 'tl-host', text: row.host, attrs: { title: `${row.host}: ${row.summary}` } }), drawing],
  );
  element.style.transform = `translateY(${index * TIMELINE_ROW_HEIGHT}px)`;
  return element;
}

/** Draws the timeline rows of the window that have arrived, drops those out of it, and asks for the missing ones. */
function updateTimeline(p: PlanReport): void {
  const { state, ui } = p;
  const timeline = state.timeline;
  const drawn = p.drawn.timeline;
  timeline.frame = undefined;
  const simulation = timeline.simulation;
  if (simulation === null) return;
  const { first, end } = visibleWindow(
    ui.timelineViewport.scrollTop,
    ui.timelineViewport.clientHeight,
    simulation.timelineHosts,
    TIMELINE_ROW_HEIGHT,
    TIMELINE_OVERSCAN,
  );
  for (const [index, element] of drawn) {
    if (index < first || index >= end) {
      element.remove();
      drawn.delete(index);
    }
  }
  for (let i = first; i < end; i++) {
    const row = timeline.rows.get(i);
    if (row === undefined || drawn.has(i)) continue;
    const element = timelineElement(i, row, simulation.axisSeconds);
    drawn.set(i, element);
    ui.timelineSizer.append(element);
  }
  if (timeline.waiting !== undefined) return;
  const range = missingRange((i) => timeline.rows.has(i), first, end);
  if (range === undefined || range.count === 0) return;
  state.request++;
  timeline.waiting = { request: state.request };
  p.post({
    type: 'timeline',
    plan: state.plan,
    simulation: simulation.number,
    request: state.request,
    offset: range.offset,
    count: Math.min(range.count, MAX_TIMELINE_ROWS),
  });
}

function scheduleTimeline(p: PlanReport): void {
  const timeline = p.state.timeline;
  if (timeline.frame === undefined) timeline.frame = requestAnimationFrame(() => updateTimeline(p));
}

/** Timeline rows came: kept and drawn, if they are the ones the timeline waits for. */
export function timelineReceived(p: PlanReport, message: Extract<HostToReport, { type: 'timeline' }>): void {
  const timeline = p.state.timeline;
  if (!awaitedTimeline(p.state, message)) return;
  timeline.waiting = undefined;
  message.hosts.forEach((row, i) => timeline.rows.set(message.offset + i, row));
  updateTimeline(p);
}

/** The timeline's events: its scroll, and the window's size. */
export function listenTimeline(p: PlanReport): void {
  window.addEventListener('resize', () => scheduleTimeline(p));
  p.ui.timelineViewport.addEventListener('scroll', () => scheduleTimeline(p));
}
