/**
 * What the sidebar shows of the seeds, robots.txt and the last crawl (src/webview/model/): seed errors and
 * notes, the seed count and file, the robots.txt cards (outcome, Crawl-delay and its line, the plan interval,
 * verdicts with the deciding line, stale origins), the status line, the chosen origin, and crawlResultModel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlResultView, RobotsCoverageView, RobotsView } from '../../src/shared/planner/viewModel';
import {
  crawlResultModel,
  chosenOrigin,
  decidingLineLabel,
  outcomeLabel,
  robotsCards,
  robotsStatusText,
  seedErrorItems,
  seedFileSummary,
  seedNoteItems,
  seedsCountText,
} from '../../src/webview/model';

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
