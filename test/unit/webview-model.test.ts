import { test } from 'node:test';
import assert from 'node:assert/strict';
import { plan, type PlanInput } from '../../src/core/plan';
import type { CrawlResultView, RobotsView } from '../../src/shared/protocol';
import { formToRaw, parseDecimal, parseSavedState, readForm, type RawForm } from '../../src/webview/form';
import {
  crawlResultModel,
  barPercent,
  chartModel,
  chosenOrigin,
  decidingLineLabel,
  hostRows,
  intervalSourceLabel,
  MIN_BAR_PERCENT,
  outcomeLabel,
  robotsCards,
  robotsStatusText,
  seedErrorItems,
  totalText,
  uncheckedOrigins,
  warningItems,
} from '../../src/webview/model';

const seeds = (...hosts: string[]) => hosts.map((host) => ({ host }));

// ---------------------------------------------------------------------------------------------
// form.ts

const raw: RawForm = {
  seeds: 'https://a.example/',
  pagesMode: 'total',
  pages: '1000',
  rate: '',
  workers: '',
  delay: '1',
  delayFrom: 'start',
  latency: '0.5',
  userAgent: '',
  useRobots: false,
};

const decimals: Array<[string, number | 'empty' | 'invalid']> = [
  ['', 'empty'],
  ['   ', 'empty'],
  ['1', 1],
  [' 2.5 ', 2.5],
  ['.5', 0.5],
  ['2.', 2],
  ['1e3', 1000],
  ['1E-2', 0.01],
  ['-1', -1],
  ['1,000,000', 1_000_000],
  ['1,000.5', 1000.5],
  ['1,00', 'invalid'],
  ['abc', 'invalid'],
  ['NaN', 'invalid'],
  ['Infinity', 'invalid'],
  ['0x10', 'invalid'],
  ['1e400', 'invalid'],
  ['10s', 'invalid'],
  ['1.2.3', 'invalid'],
];

for (const [text, expected] of decimals) {
  test(`parseDecimal(${JSON.stringify(text)}) is ${String(expected)}`, () => {
    assert.equal(parseDecimal(text), expected);
  });
}

test('readForm: a valid form becomes a PlannerForm, empty numbers become null', () => {
  const { form, errors } = readForm(raw);
  assert.deepEqual(errors, {});
  assert.deepEqual(form, {
    seeds: 'https://a.example/',
    pagesMode: 'total',
    pages: 1000,
    rate: null,
    workers: null,
    delaySeconds: 1,
    delayFrom: 'start',
    latencySeconds: 0.5,
    userAgent: '',
    useRobots: false,
  });
});

const fieldErrors: Array<[string, Partial<RawForm>, Record<string, RegExp>]> = [
  ['a word in a number field', { rate: 'fast' }, { rate: /not a number/ }],
  ['zero workers', { workers: '0' }, { workers: /at least 1/ }],
  ['fractional pages', { pages: '10.5' }, { pages: /whole number/ }],
  ['a negative delay', { delay: '-1' }, { delay: /at least 0/ }],
  ['zero latency', { latency: '0' }, { latency: /greater than 0/ }],
  ['a user agent with a newline', { userAgent: 'a\nb' }, { userAgent: /control characters/ }],
  ['too many seed lines', { seeds: 'x\n'.repeat(1000) }, { seeds: /1000 lines/ }],
  ['two bad fields', { rate: '0', workers: 'x' }, { rate: /greater than 0/, workers: /not a number/ }],
];

for (const [name, patch, expected] of fieldErrors) {
  test(`readForm marks ${name} and sends nothing`, () => {
    const { form, errors } = readForm({ ...raw, ...patch });
    assert.equal(form, undefined);
    assert.deepEqual(Object.keys(errors).sort(), Object.keys(expected).sort());
    for (const [field, re] of Object.entries(expected)) assert.match(errors[field as keyof RawForm]!, re);
  });
}

test('formToRaw and readForm round-trip', () => {
  const { form } = readForm({ ...raw, rate: '2.5', workers: '16', pagesMode: 'perHost', delayFrom: 'end', useRobots: true, userAgent: 'Bot/1' });
  assert.ok(form);
  assert.deepEqual(readForm(formToRaw(form)).form, form);
});

test('parseSavedState keeps a valid state and drops anything else', () => {
  assert.deepEqual(parseSavedState({ v: 1, raw }), { v: 1, raw });
  assert.deepEqual(parseSavedState({ v: 1, raw, origin: 'https://a.example' }), { v: 1, raw, origin: 'https://a.example' });
  for (const bad of [undefined, null, 'x', { v: 2, raw }, { v: 1 }, { v: 1, raw: { ...raw, pages: 5 } }, { v: 1, raw: { ...raw, pagesMode: 'x' } }, { v: 1, raw: { ...raw, useRobots: 'yes' } }]) {
    assert.equal(parseSavedState(bad), undefined, JSON.stringify(bad));
  }
});

// ---------------------------------------------------------------------------------------------
// model.ts: the plan

test('hostRows: interval and source, pages/h, duration, binding and skipped flags', () => {
  const p = plan({
    seeds: seeds('a.example', 'b.example', 'c.example'),
    pages: { perHost: 1000 },
    crawlDelayByHost: { 'b.example': 10, 'c.example': 100 },
    crawlDelayPolicy: 'skip',
  });
  const { rows, hidden } = hostRows(p);
  assert.equal(hidden, 0);
  assert.deepEqual(
    rows.map((r) => [r.host, r.interval, r.pagesPerHour, r.duration, r.binding, r.skipped]),
    [
      ['a.example', '1 s · delay', '3,600', '16 m 42 s', false, false],
      ['b.example', '10 s · Crawl-delay', '360', '2 h 46 m 42 s', true, false],
      ['c.example', '100 s · Crawl-delay', '36', '1 d 3 h 47 m', false, true],
    ],
  );
  assert.match(rows[1]!.detail, /limits the crawl/);
  assert.match(rows[2]!.detail, /skipped/);
});

test('hostRows: the period is shown when latency or the end reading sets the pace', () => {
  const start = plan({ seeds: seeds('a.example'), pages: { total: 10 }, latencySeconds: 2 });
  assert.equal(hostRows(start).rows[0]!.interval, '1 s · latency');
  assert.equal(hostRows(start).rows[0]!.period, 'one request every 2 s');
  const end = plan({ seeds: seeds('a.example'), pages: { total: 10 }, delayFrom: 'end' });
  assert.equal(hostRows(end).rows[0]!.interval, '1 s · delay');
  assert.equal(hostRows(end).rows[0]!.period, 'one request every 1.5 s');
  const plain = plan({ seeds: seeds('a.example'), pages: { total: 10 } });
  assert.equal(hostRows(plain).rows[0]!.period, undefined);
});

test('hostRows cuts long tables and says how many are left out', () => {
  const many = plan({ seeds: Array.from({ length: 250 }, (_, i) => ({ host: `h${i}.example` })), pages: { perHost: 1 } });
  const { rows, hidden } = hostRows(many, 200);
  assert.equal(rows.length, 200);
  assert.equal(hidden, 50);
});

test('intervalSourceLabel names every source', () => {
  assert.deepEqual(
    (['configured', 'crawl-delay', 'adaptive', 'latency'] as const).map(intervalSourceLabel),
    ['delay', 'Crawl-delay', 'adaptive', 'latency'],
  );
});

test('totalText and warnings', () => {
  const p = plan({ seeds: seeds('a.example'), pages: { total: 1_000_000 } });
  assert.equal(totalText(p), '11 d 14 h 8 m for 1,000,000 pages over 1 host');
  const skipped = plan({ seeds: seeds('a.example', 'b.example'), pages: { perHost: 10 }, crawlDelayByHost: { 'b.example': 100 }, crawlDelayPolicy: 'skip' });
  assert.match(totalText(skipped), /10 pages of skipped hosts not counted/);
  const w = warningItems(skipped);
  assert.ok(w.some((x) => x.code === 'crawl-delay-host-skipped' && x.host === 'b.example'));
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
  const p = plan({ seeds: seeds('a.example', 'b.example'), pages: { perHost: 1000 }, crawlDelayByHost: { 'b.example': 10 } });
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
  assert.match(chart.summary, /^Crawl duration, total 2 h 46 m 42 s, longest first: b\.example 2 h 46 m 42 s \(limits the crawl\); a\.example 16 m 42 s/);
});

test('chartModel: a binding global rate or worker bound gets the highlighted bar', () => {
  const rate = plan({ seeds: seeds('a.example', 'b.example', 'c.example'), pages: { total: 3000 }, rate: 0.5 });
  assert.equal(rate.bindingConstraint, 'global-rate');
  const rateChart = chartModel(rate);
  const bindingBars = rateChart.bars.filter((b) => b.binding);
  assert.deepEqual(bindingBars.map((b) => [b.kind, b.percent]), [['global-rate', 100]]);
  assert.match(rateChart.summary, /global rate bound .* \(limits the crawl\)/);

  const workers = plan({ seeds: Array.from({ length: 20 }, (_, i) => ({ host: `h${i}.example` })), pages: { perHost: 100 }, workers: 1, latencySeconds: 2 });
  assert.equal(workers.bindingConstraint, 'workers');
  assert.deepEqual(chartModel(workers).bars.filter((b) => b.binding).map((b) => b.kind), ['workers']);
});

test('chartModel: skipped hosts are not drawn; bars are capped; nothing to crawl is said', () => {
  const p = plan({ seeds: seeds('a.example', 'b.example'), pages: { perHost: 10 }, crawlDelayByHost: { 'b.example': 100 }, crawlDelayPolicy: 'skip' });
  assert.deepEqual(chartModel(p).bars.filter((b) => b.kind === 'host').map((b) => b.host), ['a.example']);
  const many = plan({ seeds: Array.from({ length: 30 }, (_, i) => ({ host: `h${i}.example` })), pages: { total: 30_000 } });
  const chart = chartModel(many, 12);
  assert.equal(chart.bars.filter((b) => b.kind === 'host').length, 12);
  assert.equal(chart.hidden, 18);
  assert.match(chart.summary, /and 18 shorter hosts\.$/);
  const none = plan({ seeds: seeds('a.example'), pages: { total: 1 }, crawlDelayByHost: { 'a.example': 100 }, crawlDelayPolicy: 'skip' });
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

// ---------------------------------------------------------------------------------------------
// model.ts: seeds and robots.txt

test('seedErrorItems: line number + reason, the text as typed, and a count of the rest', () => {
  const result = {
    invalidSeeds: [
      { line: 2, text: 'not a url', reason: 'not-a-url' as const, message: 'not a URL' },
      { line: 5, text: 'ftp://a.example/', reason: 'not-http' as const, message: 'not http/https' },
    ],
    invalidSeedCount: 30,
  };
  const { items, more } = seedErrorItems(result, 20);
  assert.deepEqual(items, [
    { line: 2, label: 'Line 2: not a URL', text: 'not a url' },
    { line: 5, label: 'Line 5: not http/https', text: 'ftp://a.example/' },
  ]);
  assert.equal(more, 28);
});

const robots: RobotsView = {
  userAgent: 'ExampleBot/1.0',
  omittedOrigins: 0,
  origins: [
    {
      origin: 'https://a.example',
      robotsUrl: 'https://a.example/robots.txt',
      outcome: 'ok',
      status: 200,
      crawlDelaySeconds: 10,
      effectiveIntervalSeconds: 10,
      intervalSource: 'crawl-delay',
      sitemaps: ['https://a.example/sitemap.xml'],
      sitemapCount: 3,
      group: { line: 1, userAgents: ['examplebot'] },
      findingCount: 1,
      reason: 'robots.txt read (HTTP 200).',
    },
    {
      origin: 'https://b.example',
      robotsUrl: 'https://b.example/robots.txt',
      outcome: 'unreachable',
      status: 503,
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      sitemaps: [],
      sitemapCount: 0,
      findingCount: 0,
      reason: 'robots.txt unreachable (HTTP 503).',
    },
  ],
  results: [
    { url: 'https://a.example/private/x', origin: 'https://a.example', verdict: 'disallowed', line: 3, rule: 'Disallow: /private', reason: 'Disallowed by line 3.' },
    { url: 'https://a.example/', origin: 'https://a.example', verdict: 'allowed', reason: 'No rule matches.' },
    { url: 'https://b.example/', origin: 'https://b.example', verdict: 'disallowed', reason: 'robots.txt unreachable (HTTP 503): everything disallowed.' },
  ],
};

test('robotsCards: outcome, Crawl-delay, the plan interval, group, sitemaps and verdicts with the deciding line', () => {
  const p = plan({ seeds: seeds('a.example', 'b.example'), pages: { perHost: 10 }, crawlDelayByHost: { 'a.example': 10 } });
  const cards = robotsCards(robots, p, ['https://a.example', 'https://b.example']);
  assert.equal(cards.length, 2);
  const [a, b] = cards;
  assert.equal(a!.outcomeText, 'read (HTTP 200)');
  assert.equal(a!.crawlDelayText, 'Crawl-delay: 10 s');
  assert.equal(a!.intervalText, 'Interval in the plan: 10 s (Crawl-delay)');
  assert.equal(a!.groupText, 'Group at L1: examplebot');
  assert.equal(a!.sitemapsMore, 'and 2 more sitemaps');
  assert.match(a!.findingsText!, /^1 finding/);
  assert.deepEqual(a!.seeds[0]!.deciding, { line: 3, label: 'L3 Disallow: /private' });
  assert.equal(a!.seeds[1]!.deciding, undefined);
  assert.equal(a!.stale, false);
  assert.equal(b!.outcomeText, 'unreachable (HTTP 503): everything disallowed');
  assert.equal(b!.crawlDelayText, 'No Crawl-delay (file not read)');
  assert.equal(b!.groupText, undefined);
  assert.equal(b!.seeds[0]!.verdictText, 'disallowed');
});

test('robotsCards marks origins that are no longer seeds; uncheckedOrigins lists new ones', () => {
  const cards = robotsCards(robots, null, ['https://a.example', 'https://c.example']);
  assert.deepEqual(cards.map((c) => [c.origin, c.stale]), [['https://a.example', false], ['https://b.example', true]]);
  assert.deepEqual(uncheckedOrigins(robots, ['https://a.example', 'https://c.example']), ['https://c.example']);
});

test('decidingLineLabel and outcomeLabel', () => {
  assert.equal(decidingLineLabel(3, 'Disallow: /private'), 'L3 Disallow: /private');
  assert.equal(decidingLineLabel(7, '  Allow:\t/a  '), 'L7 Allow: /a');
  assert.equal(decidingLineLabel(9, undefined), 'L9');
  assert.equal(decidingLineLabel(1, `Disallow: /${'x'.repeat(300)}`).length, 'L1 '.length + 121);
  assert.equal(outcomeLabel({ outcome: 'unavailable', status: 404 }), 'unavailable (HTTP 404): everything allowed');
  assert.equal(outcomeLabel({ outcome: 'unreachable' }), 'unreachable: everything disallowed');
});

test('robotsStatusText for each state', () => {
  assert.match(robotsStatusText({ state: 'off' }, false, []), /^Off: robots\.txt is not fetched/);
  assert.equal(robotsStatusText({ state: 'loading', origins: 2 }, true, []), 'Checking robots.txt for 2 origins…');
  assert.equal(robotsStatusText({ state: 'error', message: 'boom' }, true, []), 'boom');
  assert.equal(robotsStatusText({ state: 'done', robots }, true, ['https://a.example', 'https://b.example']), 'Checked 2 origins for “ExampleBot/1.0”.');
  assert.match(robotsStatusText({ state: 'done', robots }, true, ['https://c.example']), /1 seed origin is not checked yet/);
});

test('chosenOrigin keeps a choice while it is a seed origin', () => {
  assert.equal(chosenOrigin(['https://a.example', 'https://b.example'], 'https://b.example'), 'https://b.example');
  assert.equal(chosenOrigin(['https://a.example'], 'https://b.example'), 'https://a.example');
  assert.equal(chosenOrigin([], undefined), undefined);
});

test('robotsCards: the Crawl-delay names its line; a file that is not text gets a warning line', () => {
  const view: RobotsView = {
    ...robots,
    origins: [{ ...robots.origins[0]!, crawlDelaySeconds: 42, crawlDelayLine: 2, notText: 'This file does not look like text.' }, robots.origins[1]!],
  };
  const [a, b] = robotsCards(view, null, ['https://a.example', 'https://b.example']);
  assert.equal(a!.crawlDelayText, 'Crawl-delay: 42 s (L2)');
  assert.equal(a!.notText, 'This file does not look like text.');
  assert.equal(b!.notText, undefined);
});

test('crawlResultModel: how the last crawl ended, and what it did not follow by reason with the hosts', () => {
  const crawl: CrawlResultView = {
    name: 'test crawl',
    endReason: 'complete',
    exitCode: 0,
    pages: 1,
    requests: 10,
    elapsedSeconds: 2.1,
    notFollowed: [
      { reason: 'other-host', urls: 8, hosts: [{ host: 'b.example', urls: 8 }], moreHosts: 0 },
      { reason: 'max-pages', urls: 12, hosts: [{ host: 'a.example', urls: 12 }], moreHosts: 2 },
    ],
  };
  assert.deepEqual(crawlResultModel(crawl), {
    headline: 'test crawl: complete (all work done) · 1 page · 10 requests · 2.1 s',
    notFollowedHeadline: '20 URLs not followed:',
    notFollowed: ['other host 8 (b.example 8)', 'page limit 12 (a.example 12, +2 more hosts)'],
    ok: true,
  });
  const clean = crawlResultModel({ ...crawl, notFollowed: [], exitCode: 1, endReason: 'stopped' });
  assert.equal(clean.headline, 'test crawl: stopped · 1 page · 10 requests · 2.1 s');
  assert.equal(clean.notFollowedHeadline, 'Everything it met was followed (within its hosts and limits).');
  assert.deepEqual(clean.notFollowed, []);
  assert.equal(clean.ok, false);
});
