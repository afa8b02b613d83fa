/**
 * The plan report's simulation pictures (docs/extension.md#calibration-and-simulation): the band as a histogram
 * of the runs' makespans with p10/p50/p90 and the plan marked, and the timeline's ticks (one per request, 429 and
 * 503 apart) and shaded Retry-After pauses; and what the simulation keeps for them (the histogram's bins, the
 * median run's requests, bounded). The geometry is pure, so it is tested here in node; the run's data comes from
 * the real simulation of a plan calibrated by a test crawl on virtual time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationFromReport } from '../../src/core/calibrate/fromCrawlReport';
import { plan } from '../../src/core/plan';
import { HISTOGRAM_MAX_BINS, makespanHistogram } from '../../src/core/simulate/histogram';
import {
  keepRequestsOfFirstHosts,
  RequestLog,
  requestKind,
  TIMELINE_MAX_REQUESTS,
  TIMELINE_REQUEST_HOSTS,
  timelineOrder,
  type TimelineRequest,
} from '../../src/core/simulate/requestLog';
import { simulate } from '../../src/core/simulate/simulate';
import { reportSimulationView, ReportTimeline, ticksText } from '../../src/extension/planReport/timeline';
import { axisTicks, rangeTicks } from '../../src/webview/planReport/model';
import {
  HISTOGRAM_HEIGHT,
  HISTOGRAM_WIDTH,
  histogramLayout,
  shadedIntervals,
  tickPaths,
} from '../../src/webview/planReport/simulationModel';
import { testCrawlReport } from '../helpers/calibration';

const sum = (list: readonly number[]) => list.reduce((a, b) => a + b, 0);

test('the histogram: round bins, about √runs of them and at most the cap, every run in its bin', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.deepEqual(makespanHistogram(hundred), {
    fromSeconds: 0,
    binSeconds: 10,
    counts: [9, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1],
  });
  // A narrow band (the 12.08–12.16 s): bins of 0.02 s, the first at the fastest run.
  const narrow = [12.08, 12.1, 12.11, 12.16];
  const h = makespanHistogram(narrow);
  assert.equal(h.binSeconds, 0.02);
  assert.equal(h.fromSeconds, 12.08);
  assert.deepEqual(h.counts, [1, 2, 0, 0, 1]);
  // Runs that all end alike: one bin around that time.
  assert.deepEqual(makespanHistogram([12, 12, 12]), { fromSeconds: 12, binSeconds: 0.2, counts: [3] });
  assert.deepEqual(makespanHistogram([]).counts, []);
  // 10,000 runs spread over three orders of magnitude: the cap holds, and every run is counted once.
  const wide = Array.from({ length: 10_000 }, (_, i) => Math.exp(i / 1000));
  const w = makespanHistogram(wide);
  assert.ok(w.counts.length <= HISTOGRAM_MAX_BINS && w.counts.length >= 5, `${w.counts.length} bins`);
  assert.equal(sum(w.counts), 10_000);
  assert.ok(w.fromSeconds <= wide[0]! && w.fromSeconds + w.counts.length * w.binSeconds > wide.at(-1)!);
  assert.ok(w.counts.at(-1)! > 0 && w.counts[0]! > 0, 'no empty bin at either end');
});

test('the histogram drawn: bars by count, p10/p50/p90 and the plan marked on its axis, labels kept apart', () => {
  const histogram = { fromSeconds: 10, binSeconds: 1, counts: [2, 8, 4, 0, 1] };
  const layout = histogramLayout(histogram, { p10Seconds: 10.5, p50Seconds: 11.5, p90Seconds: 13, planSeconds: 20 });
  // The axis holds the bins (10 to 15 s) and the plan (20 s), 2 % more on each side.
  assert.equal(layout.fromSeconds, 9.8);
  assert.equal(layout.toSeconds, 20.2);
  const x = (s: number) => Math.round(((s - 9.8) / 10.4) * HISTOGRAM_WIDTH * 10) / 10;
  assert.deepEqual(
    layout.bars.map((b) => [b.x, b.count, b.height]),
    [
      [x(10), 2, 14.5],
      [x(11), 8, HISTOGRAM_HEIGHT - 2],
      [x(12), 4, 29],
      [x(13), 0, 0],
      [x(14), 1, 7.3],
    ],
  );
  for (const b of layout.bars) assert.equal(b.y + b.height, HISTOGRAM_HEIGHT, 'bars stand on the bottom');
  assert.match(layout.bars[1]!.label, /^8 runs ended between 11(\.0)? s and 12(\.0)? s$/);
  assert.deepEqual(
    layout.marks.map((m) => [m.kind, m.x]),
    [
      ['p10', x(10.5)],
      ['p50', x(11.5)],
      ['p90', x(13)],
      ['plan', x(20)],
    ],
  );
  // p10 and p50 are 9.6 % apart: two lines at the default gap (15 %); p90 and the plan clear of them.
  assert.deepEqual(
    layout.labels.map((l) => [l.text, l.line]),
    [
      ['p10 10.5 s', 0],
      ['p50 11.5 s', 1],
      ['p90 13 s', 0],
      ['plan 20 s', 0],
    ],
  );
  assert.equal(layout.lines, 2);
  // A wider chart (labels 7 % of it): one line.
  const wide = histogramLayout(histogram, { p10Seconds: 10.5, p50Seconds: 11.5, p90Seconds: 13, planSeconds: 20 }, 7);
  assert.deepEqual(
    wide.labels.map((l) => l.line),
    [0, 0, 0, 0],
  );
  // Marks close together: those that read alike share a label; the others go on separate lines, each clear
  // of the others on its line; every mark is in one label.
  const close = histogramLayout(
    { fromSeconds: 12, binSeconds: 0.2, counts: [3, 5, 2] },
    { p10Seconds: 12.1, p50Seconds: 12.3, p90Seconds: 12.5, planSeconds: 12.3 },
    25,
  );
  assert.deepEqual(
    close.labels.map((l) => [l.text, l.line]),
    [
      ['p10 12.1 s', 0],
      ['p50 = plan 12.3 s', 1],
      ['p90 12.5 s', 0],
    ],
  );
  // A band narrower than a tenth of a second (the 12.08–12.16 s): labels to the millisecond.
  const narrow = histogramLayout(
    { fromSeconds: 12.08, binSeconds: 0.02, counts: [1, 2, 0, 0, 1] },
    { p10Seconds: 12.08, p50Seconds: 12.1, p90Seconds: 12.16, planSeconds: 12.12 },
    10,
  );
  assert.deepEqual(
    narrow.labels.map((l) => l.text),
    ['p10 12.08 s', 'p50 12.1 s', 'p90 12.16 s', 'plan 12.12 s'],
  );
  assert.equal(narrow.bars[0]!.label, '1 run ended between 12.08 s and 12.1 s');
  assert.deepEqual(close.labels.flatMap((l) => l.kinds).sort(), ['p10', 'p50', 'p90', 'plan']);
  for (const a of close.labels)
    for (const b of close.labels)
      if (a !== b && a.line === b.line) assert.ok(Math.abs(a.percent - b.percent) >= 15, `${a.text} and ${b.text}`);
  // Runs that all end alike (no spread): one label, and one bar a fifth of the axis wide, not all of it.
  const alike = histogramLayout(
    { fromSeconds: 8.4, binSeconds: 0.1, counts: [200] },
    { p10Seconds: 8.45, p50Seconds: 8.45, p90Seconds: 8.45, planSeconds: 8.45 },
  );
  assert.deepEqual(
    alike.labels.map((l) => [l.text, l.line]),
    [['p10 = p50 = p90 = plan 8.5 s', 0]],
  );
  assert.ok(Math.abs(alike.bars[0]!.width - HISTOGRAM_WIDTH / 5) < 2, `${alike.bars[0]!.width}`);
  assert.deepEqual(
    alike.ticks.map((t) => t.label),
    [...new Set(alike.ticks.map((t) => t.label))],
    'no two ticks read alike',
  );
  // The axis's ticks are round and inside it.
  for (const t of layout.ticks) assert.ok(t.seconds >= 9.8 && t.seconds <= 20.2 && t.percent >= 0 && t.percent <= 100);
  assert.deepEqual(
    layout.ticks.map((t) => t.seconds),
    [10, 15, 20],
  );
});

test('round ticks over a range that does not start at 0; the time axis is the range from 0', () => {
  assert.deepEqual(
    rangeTicks(12.07, 12.17).map((t) => t.seconds),
    [12.08, 12.1, 12.12, 12.14, 12.16],
  );
  assert.deepEqual(axisTicks(30), rangeTicks(0, 30));
  assert.deepEqual(rangeTicks(5, 5), []);
});

test("a row's ticks: one per request at its start, 429 and 503 tallest and apart, other faults apart", () => {
  assert.deepEqual(
    [200, 404, 429, 503, 500, 502, null].map((s) => requestKind(s)),
    ['ok', 'ok', 'refused', 'refused', 'error', 'error', 'error'],
  );
  const paths = tickPaths(
    [
      [0, 0.1, 200],
      [1, 1.1, 200],
      [2, 2.1, 429],
      [5, 5.1, 503],
      [6, 6.1, null],
      [6.001, 6.1, 200],
      [6.002, 6.1, 200],
    ],
    10,
  );
  assert.deepEqual(paths, {
    ok: { d: 'M0 6V14 M100 6V14 M600.1 6V14 M600.2 6V14', count: 4 },
    refused: { d: 'M200 1V19 M500 1V19', count: 2 },
    error: { d: 'M600 3V17', count: 1 },
  });
  // Requests that land on the same tenth of a unit are one tick, and still counted.
  const same = tickPaths(
    [
      [100, 101, 200],
      [100.00001, 101, 200],
    ],
    1000,
  );
  assert.deepEqual(same.ok, { d: 'M100 6V14', count: 2 });
});

test('Retry-After pauses shaded: overlapping ones are one stretch, at least a unit wide, labelled', () => {
  const shaded = shadedIntervals(
    [
      { fromSeconds: 5, untilSeconds: 7, label: 'c' },
      { fromSeconds: 1, untilSeconds: 3, label: 'a' },
      { fromSeconds: 2, untilSeconds: 4, label: 'b' },
      { fromSeconds: 9, untilSeconds: 9, label: 'd' },
    ],
    10,
  );
  assert.deepEqual(shaded, [
    { x: 100, width: 300, label: 'a (and 1 more)' },
    { x: 500, width: 200, label: 'c' },
    { x: 900, width: 1, label: 'd' },
  ]);
  assert.deepEqual(shadedIntervals([], 10), []);
});

test('the request log: every request under the cap; over it every fault and evenly spaced others, in order', () => {
  const log = new RequestLog();
  for (let i = 0; i < 10; i++) log.add(i * 1000, i * 1000 + 100, i === 3 ? 429 : i === 7 ? null : 200);
  assert.equal(log.count, 10);
  assert.equal(log.refused, 1);
  const all = log.kept();
  assert.equal(all.length, 10);
  assert.deepEqual(all[3], [3, 3.1, 429]);
  assert.equal(all[7]![2], null);
  const four = log.kept(4);
  assert.deepEqual(
    four.map(([start, , status]) => [start, status]),
    [
      [0, 200],
      [3, 429],
      [7, null],
      [9, 200],
    ],
  );
  // More faults than room: evenly spaced faults only.
  const faulty = new RequestLog();
  for (let i = 0; i < 1000; i++) faulty.add(i * 1000, i * 1000 + 10, i % 2 === 0 ? 503 : 200);
  const kept = faulty.kept();
  assert.equal(kept.length, TIMELINE_MAX_REQUESTS);
  assert.ok(kept.every(([, , status]) => status === 503));
  assert.equal(faulty.refused, 500);
  for (let i = 1; i < kept.length; i++) assert.ok(kept[i]![0] > kept[i - 1]![0]);
});

test("the timeline's order (the binding host, then the latest end) bounds which hosts keep their requests", () => {
  const hosts = Array.from({ length: TIMELINE_REQUEST_HOSTS + 20 }, (_, i) => ({
    host: `h${i}`,
    endSeconds: i % 7,
    requests: [[0, 1, 200] as TimelineRequest],
  }));
  const order = timelineOrder(hosts, 'h5');
  assert.equal(order[0], 5);
  for (let i = 2; i < order.length; i++) {
    const [a, b] = [hosts[order[i - 1]!]!, hosts[order[i]!]!];
    assert.ok(a.endSeconds > b.endSeconds || (a.endSeconds === b.endSeconds && order[i - 1]! < order[i]!));
  }
  keepRequestsOfFirstHosts(hosts, 'h5');
  const kept = new Set(order.slice(0, TIMELINE_REQUEST_HOSTS));
  hosts.forEach((h, i) => assert.equal(h.requests !== undefined, kept.has(i), h.host));
});

test("a calibrated plan's simulation: the histogram holds every run and the band; the median run's requests are its ticks", async () => {
  const calibration = calibrationFromReport(await testCrawlReport(), 'r.json');
  const p = plan({
    seeds: [{ host: 'a.example' }, { host: 'b.example' }],
    pages: { perHost: 40 },
    delaySeconds: 0.5,
    calibration,
  });
  const sim = simulate(p, { runs: 60, seed: 3 });
  assert.equal(sim.method, 'engine');
  const h = sim.histogram!;
  assert.equal(sum(h.counts), 60);
  const end = h.fromSeconds + h.counts.length * h.binSeconds;
  for (const s of [sim.p10Seconds, sim.p50Seconds, sim.p90Seconds]) assert.ok(s >= h.fromSeconds && s < end);
  // The bins hold the percentiles where they are: the p50 bin has at least half the runs to its left, inclusive.
  const p50Bin = Math.floor((sim.p50Seconds - h.fromSeconds) / h.binSeconds + 1e-9);
  assert.ok(sum(h.counts.slice(0, p50Bin + 1)) >= 30);

  const a = sim.timeline.hosts.find((x) => x.host === 'a.example')!;
  const requests = a.requests!;
  // robots.txt, every page, and every retry of a refused one: all kept (under the cap).
  assert.equal(requests.length, a.requestCount);
  assert.ok(a.requestCount! >= 41);
  // Times to the millisecond.
  const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;
  for (const [start, end] of requests) assert.ok(ms(start) === start && ms(end) === end && start <= end);
  assert.equal(requests[0]![0], ms(a.startSeconds), 'the first is robots.txt, at the start');
  assert.equal(Math.max(...requests.map(([, end]) => end)), ms(a.endSeconds));
  for (let i = 1; i < requests.length; i++) assert.ok(requests[i]![0] >= requests[i - 1]![0]);
  const refused = requests.filter(([, , status]) => status === 429);
  assert.ok(refused.length > 0, 'a.example is refused in the run drawn');
  assert.equal(a.refusedCount, refused.length);
  assert.equal(requests.filter(([, , status]) => status === 200).length, a.requestCount! - refused.length);
  // Every Retry-After pause starts at a refused request's answer.
  assert.ok(a.pauses.length > 0);
  const answers = new Set(refused.map(([, end]) => end));
  for (const pause of a.pauses) assert.ok(answers.has(ms(pause.fromSeconds)), `pause at ${pause.fromSeconds}`);
  // The run drawn is the median's.
  assert.equal(sim.timeline.seconds, sim.p50Seconds);

  // What the report is sent: the histogram as it is, each row's ticks and counts, nothing left out.
  const view = reportSimulationView(sim, p, 1);
  assert.deepEqual(view.histogram, h);
  assert.equal(view.ticksText, '');
  const row = new ReportTimeline(sim, p.bindingHost).rows(0, 2).find((r) => r.host === 'a.example')!;
  assert.deepEqual(row.requests, requests);
  assert.equal(row.requestCount, a.requestCount);
  assert.equal(row.refusedCount, refused.length);
  assert.match(row.summary, new RegExp(`, ${a.requestCount} requests \\(${refused.length} refused: 429 or 503\\)$`));
  const paths = tickPaths(row.requests!, view.axisSeconds);
  assert.equal(paths.refused.count, refused.length);
  assert.equal(paths.ok.count + paths.error.count + paths.refused.count, a.requestCount);
});

test('bounded: a host with more requests than the cap, and hosts past the cap, say so; per-host sums have no ticks', () => {
  const seeds = [
    { host: 'big.example' },
    ...Array.from({ length: TIMELINE_REQUEST_HOSTS + 5 }, (_, i) => ({ host: `h${i}.example` })),
  ];
  const p = plan({ seeds, pages: { byHost: { 'big.example': 400 }, otherwise: 1 }, delaySeconds: 0.1 });
  const sim = simulate(p, { runs: 1 });
  const big = sim.timeline.hosts.find((h) => h.host === 'big.example')!;
  assert.equal(big.requestCount, 401);
  assert.equal(big.requests!.length, TIMELINE_MAX_REQUESTS);
  assert.equal(sim.timeline.hosts.filter((h) => h.requests !== undefined).length, TIMELINE_REQUEST_HOSTS);
  assert.equal(
    ticksText(sim),
    `Ticks: at most ${TIMELINE_MAX_REQUESTS} ticks per host (every 429 and 503 kept, the other requests evenly spaced); only the first ${TIMELINE_REQUEST_HOSTS} hosts have ticks (6 more hosts show their pages only).`,
  );
  const rows = new ReportTimeline(sim, p.bindingHost).rows(0, seeds.length);
  assert.equal(rows[0]!.host, 'big.example', 'the binding host first, with its ticks');
  assert.match(rows[0]!.summary, /401 requests, 300 drawn$/);
  assert.match(rows.at(-1)!.summary, /2 requests, no ticks drawn$/);
  assert.equal(rows.at(-1)!.requests, null);
  // One run: one bin.
  assert.deepEqual(sim.histogram!.counts, [1]);

  // A plan past the budget: per-host sums, no run to tick.
  const sums = simulate(plan({ seeds: [{ host: 'a.example' }], pages: { total: 2000 }, delaySeconds: 0.1 }), {
    runs: 10,
    budgetRequests: 1000,
  });
  assert.equal(sums.method, 'per-host-sums');
  assert.ok(sums.timeline.hosts.every((h) => h.requests === undefined));
  assert.equal(ticksText(sums), '');
  assert.equal(sum(sums.histogram!.counts), 10);
  assert.ok(sums.histogram!.fromSeconds <= sums.p10Seconds);
});
