/**
 * The simulation section's geometry as pure functions (unit-tested in node; drawn by sections/simulation.ts and
 * sections/histogram.ts): the band as a histogram of the runs' makespans with p10, p50, p90 and the plan marked
 * on its own axis, and in each host's timeline row a tick per request (429 and 503 apart) and its Retry-After
 * pauses shaded. docs/extension.md#calibration-and-simulation.
 */
import { formatNumber } from '../../core/format/duration';
import type { MakespanHistogram } from '../../core/simulate/histogram';
import { requestKind, type RequestKind, type TimelineRequest } from '../../core/simulate/requestLog';
import { rangeTicks, secondsLabel, timeX, TIMELINE_HEIGHT } from './model';

/** The histogram's SVG size in its own units (stretched to the section's width). */
export const HISTOGRAM_WIDTH = 1000;
export const HISTOGRAM_HEIGHT = 60;
/** The markers' labels closer than this (per cent of the width) go on different lines, unless told otherwise. */
const LABEL_GAP_PERCENT = 15;

export interface HistogramBar {
  x: number;
  width: number;
  y: number;
  height: number;
  count: number;
  /** "12 runs ended between 12.1 s and 12.2 s" */
  label: string;
}

export type MarkKind = 'p10' | 'p50' | 'p90' | 'plan';

/** A mark's line. */
export interface HistogramMark {
  kind: MarkKind;
  seconds: number;
  x: number;
}

/** A label over the marks: marks that read alike ("8.5 s") share one ("p10 = p50 = p90 = plan 8.5 s"). */
export interface HistogramLabel {
  kinds: MarkKind[];
  text: string;
  /** Where it goes: per cent of the width, and the line (0, 1, …) that keeps it clear of the others. */
  percent: number;
  line: number;
}

export interface HistogramLayout {
  fromSeconds: number;
  toSeconds: number;
  bars: HistogramBar[];
  marks: HistogramMark[];
  labels: HistogramLabel[];
  ticks: Array<{ seconds: number; percent: number; label: string }>;
  /** How many lines the labels take. */
  lines: number;
}

/** The axis spans this many bins at least, so that runs that all end alike are one narrow bar, not the whole width. */
const MIN_AXIS_BINS = 5;

/**
 * The histogram of the runs on an axis from its first bin to its last, widened to hold the plan's own total
 * (and a little more on each side, so a mark at an end shows; and to {@link MIN_AXIS_BINS} bins at least); each
 * bar's height is its runs over the most any bin has.
 */
export function histogramLayout(
  histogram: MakespanHistogram,
  band: { p10Seconds: number; p50Seconds: number; p90Seconds: number; planSeconds: number },
  labelGapPercent = LABEL_GAP_PERCENT,
  width = HISTOGRAM_WIDTH,
  height = HISTOGRAM_HEIGHT,
): HistogramLayout {
  const { fromSeconds, binSeconds, counts } = histogram;
  let lo = Math.min(fromSeconds, band.p10Seconds, band.planSeconds);
  let hi = Math.max(fromSeconds + counts.length * binSeconds, band.p90Seconds, band.planSeconds);
  const pad = Math.max((hi - lo) * 0.02, (MIN_AXIS_BINS * binSeconds - (hi - lo)) / 2);
  lo = Math.max(0, lo - pad);
  hi += pad;
  const x = (seconds: number) => Math.round(((seconds - lo) / (hi - lo)) * width * 10) / 10;
  const most = Math.max(1, ...counts);
  const bars = counts.map((count, k): HistogramBar => {
    const from = fromSeconds + k * binSeconds;
    const barHeight = count === 0 ? 0 : Math.max(1, Math.round(((height - 2) * count * 10) / most) / 10);
    return {
      x: x(from),
      width: Math.max(1, Math.round((x(from + binSeconds) - x(from) - 1) * 10) / 10),
      y: Math.round((height - barHeight) * 10) / 10,
      height: barHeight,
      count,
      label: `${formatNumber(count)} ${count === 1 ? 'run' : 'runs'} ended between ${secondsLabel(from, binSeconds)} and ${secondsLabel(from + binSeconds, binSeconds)}`,
    };
  });
  const marks = (
    [
      ['p10', band.p10Seconds],
      ['p50', band.p50Seconds],
      ['p90', band.p90Seconds],
      ['plan', band.planSeconds],
    ] as const
  ).map(([kind, seconds]): HistogramMark => ({ kind, seconds, x: x(seconds) }));
  const byText = new Map<string, HistogramLabel>();
  for (const mark of marks) {
    const duration = secondsLabel(mark.seconds, binSeconds);
    const label = byText.get(duration);
    if (label === undefined)
      byText.set(duration, {
        kinds: [mark.kind],
        text: duration,
        percent: ((mark.seconds - lo) / (hi - lo)) * 100,
        line: 0,
      });
    else label.kinds.push(mark.kind);
  }
  const labels = labelLines(
    [...byText.values()].map((l) => ({ ...l, text: `${l.kinds.join(' = ')} ${l.text}` })),
    labelGapPercent,
  );
  return {
    fromSeconds: lo,
    toSeconds: hi,
    bars,
    marks,
    labels,
    ticks: rangeTicks(lo, hi),
    lines: Math.max(0, ...labels.map((l) => l.line)) + 1,
  };
}

/** Each label on the first line whose labels are all `gap` per cent from it or more (in order of place). */
function labelLines(labels: HistogramLabel[], gap: number): HistogramLabel[] {
  const lines: number[][] = [];
  const placed = [...labels].sort((a, b) => a.percent - b.percent);
  for (const label of placed) {
    let line = lines.findIndex((taken) => taken.every((p) => Math.abs(p - label.percent) >= gap));
    if (line < 0) line = lines.push([]) - 1;
    lines[line]!.push(label.percent);
    label.line = line;
  }
  return labels;
}

/** Where each kind of request's tick is drawn in a row (SVG units, TIMELINE_HEIGHT high): refusals tallest. */
const TICK_SPAN: Record<RequestKind, readonly [number, number]> = {
  ok: [6, TIMELINE_HEIGHT - 6],
  refused: [1, TIMELINE_HEIGHT - 1],
  error: [3, TIMELINE_HEIGHT - 3],
};

/**
 * A row's requests as one SVG path per kind: a vertical tick at each request's start (ticks that land on the
 * same tenth of a unit are drawn once), and how many requests each kind has.
 */
export function tickPaths(
  requests: readonly TimelineRequest[],
  axisSeconds: number,
): Record<RequestKind, { d: string; count: number }> {
  const out: Record<RequestKind, { d: string; count: number }> = {
    ok: { d: '', count: 0 },
    refused: { d: '', count: 0 },
    error: { d: '', count: 0 },
  };
  const seen: Record<RequestKind, Set<number>> = { ok: new Set(), refused: new Set(), error: new Set() };
  for (const [startSeconds, , status] of requests) {
    const kind = requestKind(status);
    const x = timeX(startSeconds, axisSeconds);
    out[kind].count++;
    if (seen[kind].has(x)) continue;
    seen[kind].add(x);
    const [top, bottom] = TICK_SPAN[kind];
    out[kind].d += `${out[kind].d === '' ? '' : ' '}M${x} ${top}V${bottom}`;
  }
  return out;
}

/**
 * The pauses as shaded stretches of a row (SVG units): pauses that overlap or touch once drawn are one stretch
 * (so the shade is even), at least a unit wide, labelled by the first and how many more it holds.
 */
export function shadedIntervals(
  pauses: ReadonlyArray<{ fromSeconds: number; untilSeconds: number; label: string }>,
  axisSeconds: number,
): Array<{ x: number; width: number; label: string }> {
  const spans = pauses
    .map((p) => {
      const from = timeX(p.fromSeconds, axisSeconds);
      return { from, to: Math.max(from + 1, timeX(p.untilSeconds, axisSeconds)), label: p.label };
    })
    .sort((a, b) => a.from - b.from);
  const merged: Array<{ from: number; to: number; labels: string[] }> = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last !== undefined && s.from <= last.to) {
      last.to = Math.max(last.to, s.to);
      last.labels.push(s.label);
    } else merged.push({ from: s.from, to: s.to, labels: [s.label] });
  }
  return merged.map((m) => ({
    x: m.from,
    width: Math.round((m.to - m.from) * 10) / 10,
    label: m.labels.length === 1 ? m.labels[0]! : `${m.labels[0]!} (and ${formatNumber(m.labels.length - 1)} more)`,
  }));
}
