/**
 * The sidebar's per-host views (src/webview/model/): the host table's order (sortRows, nextSort, ariaSort),
 * sitemap sizing (the status text, each host's counts, lastmod summary and errors), the pages-by-host rows,
 * the deadline options' labels and the dropped-host text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SummaryRow } from '../../src/shared/planner/viewModel';
import {
  deadlineOptionLabel,
  droppedText,
  hostPagesRows,
  sitemapHostItems,
  sitemapsStatusText,
  ariaSort,
  nextSort,
  sortRows,
} from '../../src/webview/model';

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
// model.ts: sitemap sizing, pages by host, the deadline

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
