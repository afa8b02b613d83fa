import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlResultView, RobotsCoverageView, RobotsView, SummaryRow } from '../../src/shared/planner/viewModel';
import {
  formatDeadline,
  formToRaw,
  formToRawKeeping,
  parseDecimal,
  readForm,
  sameForm,
} from '../../src/shared/planner/formFields';
import type { RawForm } from '../../src/shared/planner/form';
import { parseSavedState } from '../../src/webview/form';
import {
  changedSinceProblem,
  deadlineOptionLabel,
  droppedText,
  hostPagesRows,
  sitemapHostItems,
  sitemapsStatusText,
  ariaSort,
  crawlResultModel,
  chosenOrigin,
  decidingLineLabel,
  nextSort,
  outcomeLabel,
  robotsCards,
  robotsStatusText,
  seedErrorItems,
  seedFileSummary,
  seedNoteItems,
  seedsCountText,
  sortRows,
} from '../../src/webview/model';

// ---------------------------------------------------------------------------------------------
// form.ts

const raw: RawForm = {
  pagesMode: 'total',
  pages: '1000',
  pagesByHost: {},
  rate: '',
  workers: '',
  machines: '',
  deadline: '',
  delay: '1',
  delayFrom: 'start',
  latency: '0.5',
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
  changedSince: '',
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
    pagesMode: 'total',
    pages: 1000,
    pagesByHost: {},
    rate: null,
    workers: null,
    machines: null,
    deadlineSeconds: null,
    delaySeconds: 1,
    delayFrom: 'start',
    latencySeconds: 0.5,
    userAgent: '',
    useRobots: false,
    checkServers: false,
    politenessBy: 'host',
  });
});

const fieldErrors: Array<[string, Partial<RawForm>, Record<string, RegExp>]> = [
  ['a word in a number field', { rate: 'fast' }, { rate: /not a number/ }],
  ['zero workers', { workers: '0' }, { workers: /at least 1/ }],
  ['fractional pages', { pages: '10.5' }, { pages: /whole number/ }],
  ['a negative delay', { delay: '-1' }, { delay: /at least 0/ }],
  ['zero latency', { latency: '0' }, { latency: /greater than 0/ }],
  ['a user agent with a newline', { userAgent: 'a\nb' }, { userAgent: /control characters/ }],
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
  const { form } = readForm({
    ...raw,
    rate: '2.5',
    workers: '16',
    pagesMode: 'perHost',
    delayFrom: 'end',
    useRobots: true,
    userAgent: 'Bot/1',
  });
  assert.ok(form);
  assert.deepEqual(readForm(formToRaw(form)).form, form);
  assert.ok(sameForm(readForm(formToRaw(form)).form!, form));
  assert.ok(!sameForm({ ...form, rate: 3 }, form));
});

test('parseSavedState keeps a valid state and drops anything else', () => {
  assert.deepEqual(parseSavedState({ v: 2, raw }), { v: 2, raw });
  assert.deepEqual(parseSavedState({ v: 2, raw, origin: 'https://a.example' }), {
    v: 2,
    raw,
    origin: 'https://a.example',
  });
  for (const bad of [
    undefined,
    null,
    'x',
    { v: 3, raw },
    { v: 2 },
    { v: 2, raw: { ...raw, pages: 5 } },
    { v: 2, raw: { ...raw, pagesMode: 'x' } },
    { v: 2, raw: { ...raw, useRobots: 'yes' } },
  ]) {
    assert.equal(parseSavedState(bad), undefined, JSON.stringify(bad));
  }
});

test("parseSavedState reads an earlier version's state without its seeds (the extension keeps them), however long they were", () => {
  const old = { v: 1, raw: { ...raw, seeds: 'https://a.example/\n'.repeat(60_000) }, origin: 'https://a.example' };
  assert.deepEqual(parseSavedState(old), { v: 2, raw, origin: 'https://a.example' });
});

// ---------------------------------------------------------------------------------------------
// model.ts: the host table's order

function row(host: string, pages: number, intervalSeconds: number, seconds: number): SummaryRow {
  return {
    label: host,
    host,
    count: 1,
    detail: `${pages} pages`,
    pages: String(pages),
    interval: `${intervalSeconds} s`,
    intervalSource: 'configured',
    pagesPerHour: '0',
    duration: `${seconds} s`,
    binding: false,
    skipped: false,
    sort: { pages, intervalSeconds, pagesPerHour: 3600 / intervalSeconds, seconds },
  };
}

test("sortRows: the extension's order, or by a column; numbers largest first, hosts A to Z; ties keep order", () => {
  const rows = [row('b.example', 10, 1, 9), row('a.example', 30, 10, 290), row('c.example', 10, 2, 18)];
  const hosts = (sorted: SummaryRow[]) => sorted.map((r) => r.host);
  assert.deepEqual(hosts(sortRows(rows, { key: 'plan', descending: false })), ['b.example', 'a.example', 'c.example']);
  assert.deepEqual(hosts(sortRows(rows, { key: 'host', descending: false })), ['a.example', 'b.example', 'c.example']);
  assert.deepEqual(hosts(sortRows(rows, { key: 'duration', descending: true })), [
    'a.example',
    'c.example',
    'b.example',
  ]);
  assert.deepEqual(hosts(sortRows(rows, { key: 'interval', descending: false })), [
    'b.example',
    'c.example',
    'a.example',
  ]);
  assert.deepEqual(
    hosts(sortRows(rows, { key: 'pages', descending: true })),
    ['a.example', 'b.example', 'c.example'],
    'b and c tie: plan order',
  );
  assert.deepEqual(hosts(rows), ['b.example', 'a.example', 'c.example'], 'the rows themselves are not reordered');
});

test('nextSort and ariaSort: a click sorts by the column, a second click turns it round', () => {
  let sort = nextSort({ key: 'plan', descending: false }, 'duration');
  assert.deepEqual(sort, { key: 'duration', descending: true });
  assert.equal(ariaSort(sort, 'duration'), 'descending');
  assert.equal(ariaSort(sort, 'host'), 'none');
  sort = nextSort(sort, 'duration');
  assert.deepEqual(sort, { key: 'duration', descending: false });
  assert.equal(ariaSort(sort, 'duration'), 'ascending');
  assert.deepEqual(nextSort(sort, 'host'), { key: 'host', descending: false });
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
    {
      url: 'https://a.example/private/x',
      origin: 'https://a.example',
      verdict: 'disallowed',
      line: 3,
      rule: 'Disallow: /private',
      reason: 'Disallowed by line 3.',
    },
    { url: 'https://a.example/', origin: 'https://a.example', verdict: 'allowed', reason: 'No rule matches.' },
    {
      url: 'https://b.example/',
      origin: 'https://b.example',
      verdict: 'disallowed',
      reason: 'robots.txt unreachable (HTTP 503): everything disallowed.',
    },
  ],
};

const coverage = (patch: Partial<RobotsCoverageView> = {}): RobotsCoverageView => ({
  unchecked: 0,
  stale: [],
  intervals: [],
  ...patch,
});

test('robotsCards: outcome, Crawl-delay, the plan interval, group, sitemaps and verdicts with the deciding line', () => {
  const cards = robotsCards(
    robots,
    coverage({ intervals: [{ origin: 'https://a.example', intervalSeconds: 10, source: 'crawl-delay' }] }),
  );
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

test('robotsCards marks origins that are no longer seeds', () => {
  const cards = robotsCards(robots, coverage({ stale: ['https://b.example'], unchecked: 1 }));
  assert.deepEqual(
    cards.map((c) => [c.origin, c.stale]),
    [
      ['https://a.example', false],
      ['https://b.example', true],
    ],
  );
  assert.equal(cards[0]!.intervalText, undefined, "no interval without the plan's");
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
  assert.match(robotsStatusText({ state: 'off' }, false, 0), /^Off: robots\.txt is not fetched/);
  assert.equal(robotsStatusText({ state: 'loading', origins: 2 }, true, 0), 'Checking robots.txt for 2 origins…');
  assert.equal(robotsStatusText({ state: 'error', message: 'boom' }, true, 0), 'boom');
  assert.equal(robotsStatusText({ state: 'done', robots }, true, 0), 'Checked 2 origins for “ExampleBot/1.0”.');
  assert.match(robotsStatusText({ state: 'done', robots }, true, 1), /1 seed origin is not checked yet/);
  // Origins over the per-check limit are said once, not again as "not checked yet".
  const capped = robotsStatusText({ state: 'done', robots: { ...robots, omittedOrigins: 3 } }, true, 3);
  assert.match(capped, /3 more origins were not checked \(limit per check\)\.$/);
});

test('chosenOrigin keeps a choice while it is a seed origin', () => {
  assert.equal(chosenOrigin(['https://a.example', 'https://b.example'], 'https://b.example'), 'https://b.example');
  assert.equal(chosenOrigin(['https://a.example'], 'https://b.example'), 'https://a.example');
  assert.equal(chosenOrigin([], undefined), undefined);
  // Only the first origins were posted: a choice among the others stands (the extension checks it).
  assert.equal(chosenOrigin(['https://a.example'], 'https://z.example', 5000), 'https://z.example');
});

test('seedNoteItems: a group per kind with the first lines, and the duplicates', () => {
  const items = seedNoteItems({
    seedNotes: [
      {
        code: 'credentials',
        count: 1,
        notes: [
          {
            code: 'credentials',
            line: 3,
            text: 'http://cred.example/',
            message: 'user name and password removed from the URL',
          },
        ],
      },
      {
        code: 'local-address',
        count: 7,
        notes: [
          {
            code: 'local-address',
            line: 1,
            text: 'http://10.0.0.1/',
            message: '10.0.0.1 is a private network address',
            kind: 'private',
          },
        ],
      },
    ],
    duplicateSeeds: 2,
  });
  assert.deepEqual(
    items.groups.map((g) => [g.code, g.head, g.more]),
    [
      ['credentials', '1 seed had a user name or password: removed, never sent', 0],
      ['local-address', '7 seeds are on this machine or a private network', 6],
    ],
  );
  assert.deepEqual(items.groups[0]!.lines, [
    { line: 3, label: 'Line 3: user name and password removed from the URL', text: 'http://cred.example/' },
  ]);
  assert.equal(
    items.duplicates,
    '2 duplicate seeds (the same URL as an earlier line; they change nothing in the plan)',
  );
  assert.equal(seedNoteItems({ seedNotes: [], duplicateSeeds: 0 }).duplicates, undefined);
});

test('seedsCountText and seedFileSummary', () => {
  assert.equal(seedsCountText(0), '');
  assert.equal(seedsCountText(1), '1 seed line.');
  assert.equal(seedsCountText(2000), '2,000 seed lines.');
  assert.match(seedsCountText(2001), /^2,001 seed lines\. A list this long is better kept in a file/);
  assert.equal(
    seedFileSummary({ label: 'seeds.txt', bytes: 1.2 * 1024 * 1024, seedLines: 50_000, firstLines: [] }),
    '50,000 seed lines · 1.2 MB',
  );
  assert.equal(
    seedFileSummary({ label: 'seeds.txt', bytes: 0, seedLines: 0, firstLines: [], loading: true }),
    'Reading…',
  );
  assert.equal(
    seedFileSummary({
      label: 'seeds.txt',
      bytes: 0,
      seedLines: 0,
      firstLines: [],
      problem: 'Cannot read seeds.txt: the file is gone.',
    }),
    '',
  );
});

test('robotsCards: the Crawl-delay names its line; a file that is not text gets a warning line', () => {
  const view: RobotsView = {
    ...robots,
    origins: [
      {
        ...robots.origins[0]!,
        crawlDelaySeconds: 42,
        crawlDelayLine: 2,
        notText: 'This file does not look like text.',
      },
      robots.origins[1]!,
    ],
  };
  const [a, b] = robotsCards(view, coverage());
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

// ---------------------------------------------------------------------------------------------
// Pages by host, the deadline, sitemap sizing

test("readForm: a deadline as typed (36h, 2d, seconds), machines, and each host's own pages (empty: none of its own)", () => {
  const { form, errors } = readForm({
    ...raw,
    pagesMode: 'byHost',
    pages: '',
    pagesByHost: { 'a.example': '1,000', 'b.example': '', 'c.example': '0' },
    deadline: '1d12h',
    machines: '3',
  });
  assert.deepEqual(errors, {});
  assert.deepEqual(
    [form!.pagesMode, form!.pages, form!.pagesByHost, form!.deadlineSeconds, form!.machines],
    ['byHost', null, { 'a.example': 1000, 'c.example': 0 }, 129_600, 3],
  );
  const bad = readForm({ ...raw, pagesByHost: { 'a.example': '-2' }, deadline: 'soon', machines: '0' });
  assert.equal(bad.form, undefined);
  assert.match(bad.errors.pagesByHost!, /^a\.example: /);
  assert.match(bad.errors.deadline!, /soon/);
  assert.match(bad.errors.machines!, /at least 1/);
});

test('formToRawKeeping keeps the text as typed of every value that did not change, and shows the new ones', () => {
  const typed: RawForm = {
    ...raw,
    pagesMode: 'byHost',
    pages: '1,000',
    pagesByHost: { 'a.example': '2,000' },
    deadline: '1d12h',
    workers: '',
  };
  const { form } = readForm(typed);
  const changed = formToRawKeeping(
    { ...form!, workers: 4, pagesByHost: { 'a.example': 2000, 'b.example': 70 } },
    typed,
  );
  assert.deepEqual(
    [changed.pages, changed.deadline, changed.workers, changed.pagesByHost],
    ['1,000', '1d12h', '4', { 'a.example': '2,000', 'b.example': '70' }],
  );
  assert.equal(formToRawKeeping({ ...form!, deadlineSeconds: 7200 }, typed).deadline, '2h');
  assert.deepEqual(
    [formatDeadline(604_800), formatDeadline(172_800), formatDeadline(5400), formatDeadline(61)],
    ['1w', '2d', '90m', '61'],
  );
  assert.equal(readForm({ ...raw, deadline: formatDeadline(129_601) }).form!.deadlineSeconds, 129_601);
});

test('"Changed since" is read as --changed-since reads it; empty is every URL', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(changedSinceProblem('', now), undefined);
  assert.equal(changedSinceProblem('30d', now), undefined);
  assert.equal(changedSinceProblem('2025-05-01', now), undefined);
  assert.match(changedSinceProblem('2027-01-01', now)!, /in the future/);
  assert.match(changedSinceProblem('last week', now)!, /neither a date/);
});

test('sitemapsStatusText says what is under way, what was done and what is a lower bound', () => {
  assert.equal(sitemapsStatusText({ state: 'off' }), '');
  assert.equal(
    sitemapsStatusText({ state: 'loading', origins: 2, files: 1, urls: 1200 }),
    'Reading the sitemaps of 2 origins… 1 file, 1,200 URLs so far.',
  );
  assert.equal(
    sitemapsStatusText({ state: 'error', message: 'Sitemap sizing failed: boom' }),
    'Sitemap sizing failed: boom',
  );
  const host = {
    host: 'a.example',
    urls: 3,
    disallowed: 0,
    otherHostUrls: 0,
    files: 1,
    source: 'fallback' as const,
    intervalSeconds: 1,
    lastmod: { newest: null, oldest: null, last7d: 0, last30d: 0, last365d: 0, undated: 3 },
    changedSince: null,
    pages: 3,
    unknown: null,
    errors: [],
    errorCount: 0,
  };
  const view = {
    userAgent: 'ExampleBot',
    changedSince: '2025-12-02T00:00:00.000Z',
    complete: false,
    requests: 4,
    omittedOrigins: 3,
    hosts: [
      host,
      { ...host, host: 'b.example', pages: null, files: 0, unknown: { code: 'no-sitemap', reason: 'no sitemap' } },
    ],
  };
  assert.equal(
    sitemapsStatusText({ state: 'done', sitemaps: view }),
    "Sized 1 host of 2 from their sitemaps (4 requests, as “ExampleBot”). 1 host's pages are unknown: the plan leaves it out until it has a number. Pages: the URLs changed since 2025-12-02 (a recrawl). A cap on the run was reached: the counts are lower bounds. 3 more origins were not sized (limit per run).",
  );
});

test('sitemapHostItems: the counts, the lastmod summary, the errors (as data) and how many are not listed', () => {
  const items = sitemapHostItems({
    userAgent: 'ExampleBot',
    changedSince: '2025-12-02T00:00:00.000Z',
    complete: true,
    requests: 9,
    omittedOrigins: 0,
    hosts: [
      {
        host: 'a.example',
        urls: 1250,
        disallowed: 50,
        otherHostUrls: 3,
        files: 2,
        source: 'robots.txt',
        intervalSeconds: 2,
        lastmod: {
          newest: '2025-12-30T10:00:00.000Z',
          oldest: '2023-01-02T00:00:00.000Z',
          last7d: 10,
          last30d: 50,
          last365d: 200,
          undated: 4,
        },
        changedSince: 120,
        pages: 120,
        unknown: null,
        errors: [{ code: 'malformed', url: 'https://a.example/<b>.xml', message: 'cut off <i>here</i>' }],
        errorCount: 7,
      },
    ],
  });
  assert.deepEqual(items, [
    {
      host: 'a.example',
      pagesText: 'Pages: 120',
      pagesUnknown: false,
      countsText: '1,250 URLs · 50 disallowed · 3 on other hosts · 2 files (named in robots.txt)',
      lastmodText: 'lastmod 2023-01-02 to 2025-12-30 · 10 in the last 7 days, 50 in 30, 200 in 365 · 4 undated',
      changedText: '120 changed since 2025-12-02',
      errors: [{ code: 'malformed', text: 'cut off <i>here</i>', url: 'https://a.example/<b>.xml' }],
      errorsMore: 'and 6 more errors (in the log)',
    },
  ]);
});

test('hostPagesRows, deadlineOptionLabel and droppedText', () => {
  const rows = hostPagesRows(
    { seedHosts: ['a.example', 'b.example'], seedHostCount: 5 },
    { 'a.example': '1,000', 'gone.example': '3' },
  );
  assert.deepEqual(rows.rows, [
    { host: 'a.example', text: '1,000' },
    { host: 'b.example', text: '' },
  ]);
  assert.match(rows.more, /^and 3 more hosts/);
  const option = { kind: 'cap' as const, text: '', pages: 1, totalSeconds: 1, hosts: ['a.example'], hostCount: 1 };
  assert.deepEqual(
    [
      option,
      { ...option, hostCount: 3 },
      { ...option, kind: 'drop' as const },
      { ...option, kind: 'workers' as const },
      { ...option, kind: 'machines' as const },
      { ...option, kind: 'rate' as const },
    ].map(deadlineOptionLabel),
    ['Cap this host', 'Cap 3 hosts', 'Drop this host', 'Set the workers', 'Set the machines', 'Set the rate'],
  );
  assert.equal(droppedText({ dropped: [], droppedCount: 0 }), undefined);
  assert.deepEqual(droppedText({ dropped: ['a.example'], droppedCount: 2 }), {
    head: '2 hosts left out of the plan (a deadline option):',
    more: 'and 1 more',
  });
});
