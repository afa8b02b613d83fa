/**
 * The plan report (src/extension/planReport/, src/shared/planReport/messages.ts, src/webview/planReport/model.ts): every
 * host of a plan of up to 100,000 as a table read a window at a time, sorted, filtered and searched by the
 * extension; its messages checked before any work; the CSV export; the scroll window.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvField, csvRow } from '../../src/core/format/csv';
import { plan, type Plan } from '../../src/core/plan';
import { ReportController } from '../../src/extension/planReport/controller';
import { FILTER_LABELS, getReportHtml, REPORT_COLUMNS } from '../../src/extension/planReport/html';
import { reportRow, reportView, ReportTable } from '../../src/extension/planReport/table';
import { checkSeedText, unplannableSeeds } from '../../src/extension/planner/planning';
import {
  isHostReportMessage,
  MAX_REPORT_ROWS,
  parseReportMessage,
  REPORT_FILTERS,
  REPORT_SORT_KEYS,
  type HostToReport,
  type ReportQuery,
} from '../../src/shared/planReport/messages';
import {
  DEFAULT_QUERY,
  headingSort,
  missingRange,
  nextQuerySort,
  parseReportState,
  rowCountText,
  visibleWindow,
} from '../../src/webview/planReport/model';

const many = (n: number) => Array.from({ length: n }, (_, i) => ({ host: `h${String(i).padStart(6, '0')}.example` }));
const q = (patch: Partial<ReportQuery> = {}): ReportQuery => ({ ...DEFAULT_QUERY, ...patch });

function mixedPlan(): Plan {
  return plan({
    seeds: [
      { host: 'a.example' },
      { host: 'b.example' },
      { host: 'b.example' },
      { host: 'c.example' },
      { host: 'd.example' },
    ],
    pages: { byHost: { 'a.example': 100, 'b.example': 30, 'c.example': 50, 'd.example': 10 } },
    crawlDelayByHost: { 'c.example': 5, 'd.example': 500 },
    crawlDelayPolicy: 'skip',
    maxCrawlDelaySeconds: 60,
  });
}

test('ReportTable: plan order, every column both ways, filters and a search, ties in plan order', () => {
  const t = new ReportTable(mixedPlan());
  const hosts = (query: ReportQuery) => [...t.view(query)].map((i) => t.plan.hosts[i]!.host);
  assert.deepEqual(hosts(q()), ['a.example', 'b.example', 'c.example', 'd.example']);
  assert.deepEqual(hosts(q({ descending: true })), ['d.example', 'c.example', 'b.example', 'a.example']);
  assert.deepEqual(hosts(q({ sort: 'pages', descending: true })), ['a.example', 'c.example', 'b.example', 'd.example']);
  assert.deepEqual(hosts(q({ sort: 'seeds', descending: true })), ['b.example', 'a.example', 'c.example', 'd.example']);
  assert.deepEqual(hosts(q({ sort: 'interval', descending: true })), [
    'd.example',
    'c.example',
    'a.example',
    'b.example',
  ]);
  // robots.txt, then n pages an interval plus 1.3 ms apart, the last answered 0.50005 s later (REQUEST_OVERHEAD):
  // c: 50 × 5.0013 s + 0.50005 s = 250.56505 s; a: 100.63005 s; b: 30.53905 s; d is skipped: below every crawled host.
  assert.deepEqual(hosts(q({ sort: 'duration', descending: true })), [
    'c.example',
    'a.example',
    'b.example',
    'd.example',
  ]);
  assert.deepEqual(hosts(q({ sort: 'duration' })), ['d.example', 'b.example', 'a.example', 'c.example']);
  assert.deepEqual(hosts(q({ sort: 'host', descending: true })), ['d.example', 'c.example', 'b.example', 'a.example']);
  assert.deepEqual(
    hosts(q({ sort: 'source' })),
    ['c.example', 'd.example', 'a.example', 'b.example'],
    '"Crawl-delay" before "delay", ties in plan order',
  );
  assert.deepEqual(hosts(q({ filter: 'crawl-delay' })), ['c.example', 'd.example']);
  assert.deepEqual(hosts(q({ filter: 'configured' })), ['a.example', 'b.example']);
  assert.deepEqual(hosts(q({ filter: 'skipped' })), ['d.example']);
  assert.deepEqual(hosts(q({ filter: 'binding' })), ['c.example']);
  assert.deepEqual(hosts(q({ filter: 'latency' })), []);
  assert.deepEqual(hosts(q({ search: ' B.EX ' })), ['b.example']);
  assert.deepEqual(hosts(q({ search: 'example', filter: 'configured', sort: 'pages' })), ['b.example', 'a.example']);
});

test("ReportTable.rows: a window as text, the view's size, nothing past the end", () => {
  const t = new ReportTable(mixedPlan());
  const { total, rows } = t.rows(q({ sort: 'duration', descending: true }), 0, 2);
  assert.equal(total, 4);
  assert.deepEqual(rows[0], {
    host: 'c.example',
    seeds: '1',
    pages: '50',
    interval: '5 s',
    source: 'Crawl-delay',
    intervalSource: 'crawl-delay',
    period: '5 s',
    pagesPerHour: '720',
    duration: '4 m 11 s',
    binding: true,
    skipped: false,
  });
  assert.equal(t.rows(q(), 3, 10).rows[0]!.duration, 'skipped');
  assert.deepEqual(t.rows(q(), 4, 10), { total: 4, rows: [] });
});

test('ReportTable at 100,000 hosts: a window is 50 rows whatever the order; the machine column when sharded', () => {
  const p = plan({ seeds: many(100_000), pages: { total: 1_000_000 }, machines: 4 });
  const t = new ReportTable(p);
  const byDuration = t.rows(q({ sort: 'duration', descending: true }), 99_950, 50);
  assert.equal(byDuration.total, 100_000);
  assert.equal(byDuration.rows.length, 50);
  const searched = t.rows(q({ search: 'h01234' }), 0, 500);
  assert.equal(searched.total, 10);
  assert.deepEqual(
    searched.rows.map((r) => r.host),
    Array.from({ length: 10 }, (_, i) => `h01234${i}.example`),
  );
  assert.ok(searched.rows.every((r) => r.machine !== undefined && /^[0-3]$/.test(r.machine)));
  assert.equal(reportView(p, 'seeds.txt').sharded, true);
  assert.equal(reportRow(p.hosts[0]!, p).machine, String(p.hosts[0]!.machine));
});

test('reportView: the header of the plan with a longer chart, warnings capped', () => {
  const p = mixedPlan();
  const view = reportView(p, 'the seeds box');
  assert.match(view.totalText, /^4 m 11 s for 180 pages over 4 hosts \(10 pages of skipped hosts not counted\)$/);
  assert.equal(view.hostCount, 4);
  assert.equal(view.seedsFrom, 'the seeds box');
  assert.equal(view.bindingConstraint, 'crawl-delay');
  assert.equal(view.warningCount, p.warnings.length);
  assert.equal(
    view.settingsText,
    'delay 1 s start to start · latency 0.5 s · 8 workers · no global rate · Crawl-delay skip at 60 s',
  );
  assert.deepEqual(
    view.chart.bars.filter((b) => b.kind === 'host').map((b) => b.host),
    ['c.example', 'a.example', 'b.example'],
  );
  assert.equal(view.sharded, false);
});

test('CSV: RFC 4180 quoting, numbers as numbers, formulas defused; the export of a view', () => {
  assert.equal(csvField('plain'), 'plain');
  assert.equal(csvField('a,b'), '"a,b"');
  assert.equal(csvField('say "hi"'), '"say ""hi"""');
  assert.equal(csvField('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvField('-1+2'), "'-1+2");
  assert.equal(csvField(1.5), '1.5');
  assert.equal(csvField(NaN), '');
  assert.equal(csvField(null), '');
  assert.equal(csvRow(['a', 1, true]), 'a,1,true\r\n');
  const t = new ReportTable(mixedPlan());
  const text = [...t.csv(q({ filter: 'crawl-delay' }), 1)].join('');
  assert.deepEqual(text.split('\r\n'), [
    'host,seeds,pages,interval_seconds,interval_source,period_seconds,pages_per_hour,duration_seconds,duration,skipped,limits_the_crawl',
    'c.example,1,50,5,crawl-delay,5,720,250.56505,4 m 11 s,false,true',
    'd.example,1,10,500,crawl-delay,500,7.2,,skipped,true,false',
    '',
  ]);
});

test('parseReportMessage: every field checked, anything else refused', () => {
  const query = q({ sort: 'duration', descending: true, filter: 'crawl-delay', search: 'x' });
  assert.deepEqual(parseReportMessage({ type: 'ready' }), { type: 'ready' });
  assert.deepEqual(parseReportMessage({ type: 'rows', plan: 3, request: 9, query, offset: 100, count: 60 }), {
    type: 'rows',
    plan: 3,
    request: 9,
    query,
    offset: 100,
    count: 60,
  });
  assert.deepEqual(parseReportMessage({ type: 'export', format: 'csv', query }), {
    type: 'export',
    format: 'csv',
    query,
  });
  const bad: Array<[unknown, RegExp]> = [
    [null, /not an object/],
    [{ type: 'delete' }, /unknown type/],
    [{ type: 'ready', x: 1 }, /unknown field "x"/],
    [{ type: 'rows', plan: 1, request: 1, query, offset: 0, count: MAX_REPORT_ROWS + 1 }, /count must be/],
    [{ type: 'rows', plan: 1, request: 1, query, offset: -1, count: 1 }, /offset/],
    [{ type: 'rows', plan: 1.5, request: 1, query, offset: 0, count: 1 }, /plan and request/],
    [{ type: 'rows', plan: 1, request: 1, query: { ...query, sort: 'evil' }, offset: 0, count: 1 }, /query\.sort/],
    [{ type: 'rows', plan: 1, request: 1, query: { ...query, filter: 'x' }, offset: 0, count: 1 }, /query\.filter/],
    [
      { type: 'rows', plan: 1, request: 1, query: { ...query, search: 'x'.repeat(300) }, offset: 0, count: 1 },
      /query\.search/,
    ],
    [
      { type: 'rows', plan: 1, request: 1, query: { ...query, extra: 1 }, offset: 0, count: 1 },
      /unknown field "extra"/,
    ],
    [{ type: 'export', format: 'xlsx', query }, /format must be csv or json/],
    [{ type: 'export', format: 'csv', query, path: '/etc/passwd' }, /unknown field "path"/],
  ];
  for (const [raw, error] of bad) {
    const result = parseReportMessage(raw);
    assert.ok('error' in result, JSON.stringify(raw));
    assert.match(result.error, error);
  }
  assert.ok(isHostReportMessage({ type: 'rows' }));
  assert.ok(!isHostReportMessage({ type: 'state' }));
  assert.deepEqual(
    [...REPORT_SORT_KEYS],
    ['plan', 'host', 'seeds', 'pages', 'interval', 'source', 'period', 'pagesPerHour', 'duration', 'machine'],
  );
});

test('ReportController: ready gets the report; rows come from the current plan; a new plan is sent once; exports', async () => {
  let current: {
    plan: Plan | null;
    problems: Array<{ field: string; message: string }>;
    seeds: ReturnType<typeof checkSeedText>;
  } = {
    plan: mixedPlan(),
    problems: [],
    seeds: checkSeedText('https://a.example/\nhttps://u:p@b.example/\nnot a url'),
  };
  const posted: HostToReport[] = [];
  const saves: Array<[string, string]> = [];
  const logs: string[] = [];
  const c = new ReportController({
    source: { currentPlan: () => current, seedsFrom: () => 'seeds.txt' },
    save: async (format, pieces) => {
      saves.push([format, [...pieces].join('')]);
      return `crawl-plan.${format}`;
    },
    log: (m) => logs.push(m),
  });
  c.attach((m) => {
    posted.push(structuredClone(m));
    return Promise.resolve(true);
  });
  c.receive({ type: 'rows', plan: 1, request: 1, query: q(), offset: 0, count: 10 });
  assert.equal(posted.length, 0, 'nothing before ready');
  c.receive({ type: 'ready' });
  await c.readyAnswered(0);
  const report = posted[0] as Extract<HostToReport, { type: 'report' }>;
  assert.equal(report.plan, 1);
  assert.equal(report.report!.hostCount, 4);
  assert.equal(report.report!.seedsFrom, 'seeds.txt');
  c.receive({ type: 'rows', plan: 1, request: 7, query: q({ sort: 'pages', descending: true }), offset: 1, count: 2 });
  const rows = posted.at(-1) as Extract<HostToReport, { type: 'rows' }>;
  assert.deepEqual(
    [rows.request, rows.total, rows.offset, rows.rows.map((r) => r.host)],
    [7, 4, 1, ['c.example', 'b.example']],
  );
  // An answer for an older plan is empty.
  c.planChanged();
  assert.equal(posted.length, 2, 'the same plan: nothing sent');
  current = { ...current, plan: plan({ seeds: many(3), pages: { total: 3 } }) };
  c.planChanged();
  assert.equal((posted.at(-1) as Extract<HostToReport, { type: 'report' }>).plan, 2);
  c.receive({ type: 'rows', plan: 1, request: 8, query: q(), offset: 0, count: 10 });
  assert.deepEqual(posted.at(-1), { type: 'rows', plan: 1, request: 8, total: 0, offset: 0, rows: [] });
  // Exports: CSV of the view, JSON of the whole plan (the estimate --json document), without credentials.
  current = { ...current, plan: mixedPlan() };
  c.planChanged();
  c.receive({ type: 'export', format: 'csv', query: q({ filter: 'skipped' }) });
  c.receive({ type: 'export', format: 'json', query: q({ filter: 'skipped' }) });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(saves[0]![1].split('\r\n').length, 3, 'a heading, one host, the end');
  const doc = JSON.parse(saves[1]![1]);
  assert.equal(doc.schemaVersion, 1);
  assert.equal(doc.hosts.length, 4);
  assert.equal(doc.invalidSeeds.length, 1);
  assert.deepEqual(
    doc.seedNotes.map((n: { code: string }) => n.code),
    ['credentials'],
  );
  assert.ok(!saves[1]![1].includes('u:p@'));
  assert.deepEqual(
    (posted.at(-1) as Extract<HostToReport, { type: 'notice' }>).message,
    'Saved 4 hosts as JSON: crawl-plan.json',
  );
  // No plan: the report says why; an export says there is nothing.
  current = {
    plan: null,
    problems: [{ field: 'seeds', message: 'Enter at least one seed URL (http or https).' }],
    seeds: unplannableSeeds('x'),
  };
  c.planChanged();
  const none = posted.at(-1) as Extract<HostToReport, { type: 'report' }>;
  assert.deepEqual([none.report, none.problems], [null, ['Enter at least one seed URL (http or https).']]);
  c.receive({ type: 'export', format: 'csv', query: q() });
  assert.match((posted[posted.length - 1] as Extract<HostToReport, { type: 'notice' }>).message, /^Nothing to export/);
  c.receive({ type: 'export', format: 'pdf', query: q() });
  assert.match(logs.at(-1)!, /^Plan report: ignored an invalid message: export: format/);
});

test('the report page: CSP with a nonce, its script and style only, every filter and column', () => {
  const html = getReportHtml(
    {
      cspSource: 'https://webview.test',
      asWebviewUri: (u: string) => ({ toString: () => `https://webview.test/${u}` }),
    },
    'bm9uY2U=',
    { script: 'dist/planReport.js', style: 'media/planReport.css' },
  );
  assert.match(
    html,
    /content="default-src &#39;none&#39;; style-src https:\/\/webview\.test; script-src &#39;nonce-bm9uY2U=&#39;; img-src https:\/\/webview\.test data:"/,
  );
  assert.match(html, /<script nonce="bm9uY2U=" src="https:\/\/webview\.test\/dist\/planReport\.js"><\/script>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.doesNotMatch(html, /\sstyle="|\son[a-z]+="/);
  for (const f of REPORT_FILTERS) assert.ok(html.includes(`<option value="${f}">${FILTER_LABELS[f]}</option>`), f);
  for (const [key] of REPORT_COLUMNS) assert.ok(html.includes(`data-sort="${key}"`), key);
  assert.throws(
    () => getReportHtml({ cspSource: 'x', asWebviewUri: (u: string) => u }, '"><script>', { script: 's', style: 's' }),
    /nonce/,
  );
});

test('the scroll window: the visible rows and some more, the missing ones asked as one range', () => {
  assert.deepEqual(visibleWindow(0, 440, 100_000, 22, 30), { first: 0, end: 51 });
  assert.deepEqual(visibleWindow(22_000, 440, 100_000, 22, 30), { first: 970, end: 1051 });
  assert.deepEqual(visibleWindow(99_999 * 22, 440, 100_000, 22, 30), { first: 99_969, end: 100_000 });
  assert.deepEqual(visibleWindow(0, 440, 0), { first: 0, end: 0 });
  assert.deepEqual(visibleWindow(10_000, 440, 5, 22, 30), { first: 0, end: 5 }, 'scrolled past a shorter view');
  const have = new Set([0, 1, 2, 7, 8, 9]);
  assert.deepEqual(
    missingRange((i) => have.has(i), 0, 10),
    { offset: 3, count: 4 },
  );
  assert.equal(
    missingRange((i) => have.has(i), 0, 3),
    undefined,
  );
});

test("the report's heading clicks, counts and saved state", () => {
  let query = nextQuerySort(DEFAULT_QUERY, 'duration');
  assert.deepEqual([query.sort, query.descending], ['duration', true]);
  assert.equal(headingSort(query, 'duration'), 'descending');
  query = nextQuerySort(query, 'duration');
  assert.equal(headingSort(query, 'duration'), 'ascending');
  assert.deepEqual([nextQuerySort(query, 'host').sort, nextQuerySort(query, 'host').descending], ['host', false]);
  assert.equal(rowCountText(100_000, 100_000), '100,000 hosts');
  assert.equal(rowCountText(12, 100_000), 'Showing 12 of 100,000 hosts');
  assert.deepEqual(
    parseReportState({
      v: 1,
      query: { sort: 'pages', descending: true, filter: 'skipped', search: 'a' },
      scrollTop: 440,
    }),
    {
      v: 1,
      query: { sort: 'pages', descending: true, filter: 'skipped', search: 'a' },
      scrollTop: 440,
    },
  );
  assert.deepEqual(parseReportState({ v: 1, query: { sort: 'evil', filter: 1 }, scrollTop: -5 }), {
    v: 1,
    query: DEFAULT_QUERY,
    scrollTop: 0,
  });
  assert.deepEqual(parseReportState('x'), { v: 1, query: DEFAULT_QUERY, scrollTop: 0 });
});
