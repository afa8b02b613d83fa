/**
 * A plan in a few lines (src/core/format/planSummary.ts, src/extension/planner/summary.ts): the total, hosts
 * alike grouped with the binding row first, each row's text, the chart over the rows; and that a plan of
 * 100,000 hosts is posted as a summary of a few KB.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan, type PlanInput } from '../../src/core/plan';
import {
  barPercent,
  chartModel,
  GROUP_MIN_HOSTS,
  hostGroups,
  hostRowText,
  intervalSourceLabel,
  MIN_BAR_PERCENT,
  totalText,
} from '../../src/core/format/planSummary';
import { MAX_SUMMARY_ROWS, MAX_WARNINGS_POSTED, planSummaryView } from '../../src/extension/planner/summary';

const seeds = (...hosts: string[]) => hosts.map((host) => ({ host }));
const many = (n: number, prefix = 'h') => Array.from({ length: n }, (_, i) => ({ host: `${prefix}${i}.example` }));

const rowsOf = (p: ReturnType<typeof plan>) => hostGroups(p).map((g) => hostRowText(g.host, g.binding, g.count));

test('host rows: interval and source, pages/h, duration, binding and skipped flags; the binding row first, skipped last', () => {
  const p = plan({
    seeds: seeds('a.example', 'b.example', 'c.example'),
    pages: { perHost: 1000 },
    crawlDelayByHost: { 'b.example': 10, 'c.example': 100 },
    crawlDelayPolicy: 'skip',
  });
  const rows = rowsOf(p);
  // robots.txt, then 1,000 pages the interval plus 1.3 ms apart, the last answered 0.50005 s later
  // (REQUEST_OVERHEAD): 1,000 × 10.0013 s + 0.50005 s = 2 h 46 m 42 s; 1,001.8 s; 100,001.8 s.
  assert.deepEqual(
    rows.map((r) => [r.host, r.interval, r.source, r.pagesPerHour, r.duration, r.binding, r.skipped, r.count]),
    [
      ['b.example', '10 s', 'Crawl-delay', '360', '2 h 46 m 42 s', true, false, 1],
      ['a.example', '1 s', undefined, '3,600', '16 m 42 s', false, false, 1],
      ['c.example', '100 s', 'Crawl-delay', '36', '1 d 3 h 47 m', false, true, 1],
    ],
  );
  assert.match(rows[0]!.detail, /limits the crawl/);
  assert.match(rows[2]!.detail, /skipped/);
});

test('host rows: the period is shown when latency or the end reading sets the pace', () => {
  const start = plan({ seeds: seeds('a.example'), pages: { total: 10 }, latencySeconds: 2 });
  assert.deepEqual([rowsOf(start)[0]!.interval, rowsOf(start)[0]!.source], ['1 s', 'latency']);
  assert.equal(rowsOf(start)[0]!.period, 'one request every 2 s');
  const end = plan({ seeds: seeds('a.example'), pages: { total: 10 }, delayFrom: 'end' });
  assert.deepEqual(
    [rowsOf(end)[0]!.interval, rowsOf(end)[0]!.source],
    ['1 s', undefined],
    'the configured delay names no source',
  );
  assert.equal(rowsOf(end)[0]!.period, 'one request every 1.5 s');
  const plain = plan({ seeds: seeds('a.example'), pages: { total: 10 } });
  assert.equal(rowsOf(plain)[0]!.period, undefined);
});

test('host groups: hosts with the same pages, interval and duration share a row from three on; the binding host names its row', () => {
  // 1,000 pages over 1,000 hosts at 1 s: all alike, one row named after the binding host.
  const alike = plan({ seeds: many(1000), pages: { perHost: 1000 }, workers: 1000 });
  const groups = hostGroups(alike);
  assert.equal(groups.length, 1);
  assert.equal(groups[0]!.count, 1000);
  assert.equal(groups[0]!.binding, true);
  const row = hostRowText(groups[0]!.host, true, 1000);
  assert.equal(row.label, `1,000 hosts like ${alike.bindingHost}`);
  assert.equal(row.detail, '1,000 pages each, limits the crawl');
  assert.deepEqual(
    [row.pages, row.interval, row.intervalSource, row.duration],
    ['1,000', '1 s', 'configured', '16 m 42 s'],
  );
  // Two alike stay two rows.
  const two = hostGroups(plan({ seeds: seeds('a.example', 'b.example'), pages: { perHost: 10 } }));
  assert.deepEqual(
    two.map((g) => [g.host.host, g.count]),
    [
      ['a.example', 1],
      ['b.example', 1],
    ],
  );
  assert.equal(GROUP_MIN_HOSTS, 3);
  // 1,000 pages in total over 3 hosts: 334, 333, 333; the 334 host binds, the two others stay apart.
  const split = hostGroups(plan({ seeds: many(3), pages: { total: 1000 } }));
  assert.deepEqual(
    split.map((g) => [g.host.host, g.host.pages, g.count, g.binding]),
    [
      ['h0.example', 334, 1, true],
      ['h1.example', 333, 1, false],
      ['h2.example', 333, 1, false],
    ],
  );
  // Every host is in exactly one row.
  const mixed = plan({
    seeds: many(50),
    pages: { total: 10_007 },
    crawlDelayByHost: { 'h7.example': 5, 'h8.example': 5, 'h9.example': 5 },
  });
  assert.equal(
    hostGroups(mixed).reduce((n, g) => n + g.count, 0),
    50,
  );
});

test('intervalSourceLabel names every source', () => {
  assert.deepEqual((['configured', 'crawl-delay', 'adaptive', 'latency'] as const).map(intervalSourceLabel), [
    'delay',
    'Crawl-delay',
    'adaptive',
    'latency',
  ]);
});

test('totalText', () => {
  const p = plan({ seeds: seeds('a.example'), pages: { total: 1_000_000 } });
  assert.equal(totalText(p), '11 d 14 h 8 m for 1,000,000 pages over 1 host');
  const skipped = plan({
    seeds: seeds('a.example', 'b.example'),
    pages: { perHost: 10 },
    crawlDelayByHost: { 'b.example': 100 },
    crawlDelayPolicy: 'skip',
  });
  assert.match(totalText(skipped), /10 pages of skipped hosts not counted/);
});

const barCases: Array<[number, number, number]> = [
  [0, 100, 0],
  [100, 100, 100],
  [50, 100, 50],
  [1, 3, 33.3],
  [2, 3, 66.7],
  [1e-9, 1e6, MIN_BAR_PERCENT],
  [5, 0, 0],
  [NaN, 10, 0],
  [200, 100, 100],
];

for (const [seconds, max, expected] of barCases) {
  test(`barPercent(${seconds}, ${max}) = ${expected}`, () => {
    assert.equal(barPercent(seconds, max), expected);
  });
}

test('chartModel: longest host first at 100%, the binding host highlighted, labelled for screen readers', () => {
  const p = plan({
    seeds: seeds('a.example', 'b.example'),
    pages: { perHost: 1000 },
    crawlDelayByHost: { 'b.example': 10 },
  });
  const chart = chartModel(p);
  const hostsBars = chart.bars.filter((b) => b.kind === 'host');
  assert.deepEqual(
    hostsBars.map((b) => [b.host, b.percent, b.binding]),
    [
      ['b.example', 100, true],
      ['a.example', 10, false],
    ],
  );
  assert.equal(chart.hidden, 0);
  assert.match(
    chart.summary,
    /^Crawl duration, total 2 h 46 m 42 s, longest first: b\.example 2 h 46 m 42 s \(limits the crawl\); a\.example 16 m 42 s/,
  );
});

test('chartModel: a bar per row of hosts alike, named for the group', () => {
  const p = plan({ seeds: many(1000), pages: { perHost: 10 }, workers: 1000, crawlDelayByHost: { 'h999.example': 2 } });
  const bars = chartModel(p).bars.filter((b) => b.kind === 'host');
  assert.deepEqual(
    bars.map((b) => [b.label, b.count, b.binding]),
    [
      ['h999.example', 1, true],
      ['999 hosts like h0.example', 999, false],
    ],
  );
});

test('chartModel: a binding global rate or worker bound gets the highlighted bar', () => {
  const rate = plan({ seeds: seeds('a.example', 'b.example', 'c.example'), pages: { total: 3000 }, rate: 0.5 });
  assert.equal(rate.bindingConstraint, 'global-rate');
  const rateChart = chartModel(rate);
  const bindingBars = rateChart.bars.filter((b) => b.binding);
  assert.deepEqual(
    bindingBars.map((b) => [b.kind, b.percent]),
    [['global-rate', 100]],
  );
  assert.match(rateChart.summary, /global rate bound .* \(limits the crawl\)/);

  const workers = plan({ seeds: many(20), pages: { perHost: 100 }, workers: 1, latencySeconds: 2 });
  assert.equal(workers.bindingConstraint, 'workers');
  assert.deepEqual(
    chartModel(workers)
      .bars.filter((b) => b.binding)
      .map((b) => b.kind),
    ['workers'],
  );
});

test('chartModel: skipped hosts are not drawn; bars are capped; nothing to crawl is said', () => {
  const p = plan({
    seeds: seeds('a.example', 'b.example'),
    pages: { perHost: 10 },
    crawlDelayByHost: { 'b.example': 100 },
    crawlDelayPolicy: 'skip',
  });
  assert.deepEqual(
    chartModel(p)
      .bars.filter((b) => b.kind === 'host')
      .map((b) => b.host),
    ['a.example'],
  );
  // 30 hosts with 30 different page counts: 30 rows, 12 drawn.
  const distinct = plan({
    seeds: many(30),
    pages: { byHost: Object.fromEntries(many(30).map((s, i) => [s.host, 100 + i])) },
  });
  const chart = chartModel(distinct, 12);
  assert.equal(chart.bars.filter((b) => b.kind === 'host').length, 12);
  assert.equal(chart.hidden, 18);
  assert.match(chart.summary, /and 18 shorter hosts\.$/);
  const none = plan({
    seeds: seeds('a.example'),
    pages: { total: 1 },
    crawlDelayByHost: { 'a.example': 100 },
    crawlDelayPolicy: 'skip',
  });
  assert.equal(chartModel(none).summary, 'Crawl duration chart: nothing to crawl.');
});

test('every bar percent is within 0–100 for a range of plans', () => {
  const inputs: PlanInput[] = [
    { seeds: seeds('a.example'), pages: { total: 1 } },
    { seeds: seeds('a.example', 'b.example'), pages: { total: 1 } },
    { seeds: seeds('a.example', 'b.example'), pages: { perHost: 1e9 }, rate: 1e6, workers: 1e6 },
    { seeds: seeds('a.example'), pages: { total: 10 }, delaySeconds: 0, latencySeconds: 1e-6 },
  ];
  for (const input of inputs) {
    for (const bar of chartModel(plan(input)).bars) {
      assert.ok(bar.percent >= 0 && bar.percent <= 100, `${bar.label}: ${bar.percent}`);
      if (bar.seconds > 0) assert.ok(bar.percent >= MIN_BAR_PERCENT);
    }
  }
});

test('planSummaryView: 100,000 hosts are posted as a summary of a few KB, rows and warnings capped, counts whole', () => {
  const hosts = many(100_000);
  const byHost = Object.fromEntries(hosts.map((s, i) => [s.host, 1 + (i % 97)]));
  const p = plan({
    seeds: hosts,
    pages: { byHost },
    workers: 1_000_000,
    crawlDelayByHost: Object.fromEntries(hosts.slice(0, 500).map((s) => [s.host, 99_999])),
  });
  const summary = planSummaryView(p);
  assert.equal(summary.hostCount, 100_000);
  assert.equal(summary.groupCount, hostGroups(p).length);
  assert.ok(summary.groupCount > MAX_SUMMARY_ROWS);
  assert.equal(summary.groups.length, MAX_SUMMARY_ROWS);
  assert.equal(summary.groups[0]!.binding, true, 'the binding row first');
  assert.ok(summary.warningCount > MAX_WARNINGS_POSTED, `${summary.warningCount} warnings`);
  assert.equal(summary.warnings.length, MAX_WARNINGS_POSTED);
  const bytes = JSON.stringify(summary).length;
  assert.ok(bytes < 64 * 1024, `${bytes} bytes`);
});
