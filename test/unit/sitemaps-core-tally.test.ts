/**
 * Counting sitemap URLs (src/core/sitemaps): W3C Datetime lastmod and changed-since as the CLI and the sidebar
 * read them, and SitemapTally on an injected clock (hosts, duplicates, other hosts, robots.txt verdicts per
 * origin, the lastmod summary, the cap on distinct URLs) with acceptingHosts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadRobotsFile } from '../../src/core/robots';
import {
  acceptingHosts,
  parseChangedSince,
  parseLastmod,
  SitemapTally,
  type OriginRobots,
} from '../../src/core/sitemaps';

describe('parseLastmod: W3C Datetime', () => {
  const ms = (iso: string) => Date.parse(iso);
  const cases: Array<[string, number | undefined]> = [
    ['2024', ms('2024-01-01T00:00:00Z')],
    ['2024-05', ms('2024-05-01T00:00:00Z')],
    ['2024-05-17', ms('2024-05-17T00:00:00Z')],
    ['2024-05-17T10:20Z', ms('2024-05-17T10:20:00Z')],
    ['2024-05-17T10:20:30+02:00', ms('2024-05-17T08:20:30Z')],
    ['2024-05-17T10:20:30.45-05:30', ms('2024-05-17T15:50:30.450Z')],
    ['2024-05-17T10:20:30+0200', ms('2024-05-17T08:20:30Z')],
    ['2024-05-17T10:20:30', ms('2024-05-17T10:20:30Z')],
    [' 2024-02-29 ', ms('2024-02-29T00:00:00Z')],
    ['0099-01-01', new Date(Date.UTC(2000, 0, 1)).setUTCFullYear(99)],
    ['2023-02-29', undefined],
    ['2024-13-01', undefined],
    ['2024-04-31', undefined],
    ['2024-05-17T24:00Z', undefined],
    ['2024-05-17 10:20:30', undefined],
    ['17/05/2024', undefined],
    ['yesterday', undefined],
    ['', undefined],
    ['2024-05-17T10:20:30+25:00', undefined],
  ];
  for (const [text, want] of cases) {
    it(JSON.stringify(text), () => assert.equal(parseLastmod(text), want));
  }
});

describe('parseChangedSince: a date, or a duration back from now (the CLI and the sidebar read it alike)', () => {
  const now = Date.parse('2024-06-30T00:00:00Z');
  const cases: Array<[string, { ms: number } | { problem: string }]> = [
    ['2024-05-01', { ms: Date.parse('2024-05-01T00:00:00Z') }],
    ['30d', { ms: now - 30 * 86_400_000 }],
    [' 1w ', { ms: now - 7 * 86_400_000 }],
    ['12h', { ms: now - 12 * 3_600_000 }],
    ['2999-01-01', { problem: '2999-01-01 is in the future' }],
    ['2024-02-30', { problem: '"2024-02-30" is neither a date (2024-05-01) nor a duration (30d, 12h, 1w)' }],
    ['30', { problem: '"30" is neither a date (2024-05-01) nor a duration (30d, 12h, 1w)' }],
    ['last week', { problem: '"last week" is neither a date (2024-05-01) nor a duration (30d, 12h, 1w)' }],
    ['0d', { problem: '0d must be longer than 0' }],
    ['400000w', { problem: '400000w is too long' }],
  ];
  for (const [text, want] of cases) {
    it(JSON.stringify(text), () => assert.deepEqual(parseChangedSince(text, now), want));
  }
});

const NOW = Date.parse('2024-06-30T00:00:00Z');
const DAY = 86_400_000;
const iso = (t: number) => new Date(t).toISOString();

function robotsOf(origin: string, text: string): OriginRobots {
  const robotsUrl = `${origin}/robots.txt`;
  return { outcome: 'ok', file: loadRobotsFile(text, { robotsUrl }), robotsUrl };
}

describe('SitemapTally: counting', () => {
  it('per host, duplicates removed (the newest lastmod kept), fragments dropped, invalid entries apart', () => {
    const robots = new Map([['https://a.example', robotsOf('https://a.example', 'User-agent: *\nDisallow:\n')]]);
    const t = new SitemapTally(['a.example'], { productToken: 'Bot', now: NOW, robots: (o) => robots.get(o) });
    const acc = new Set(['a.example']);
    assert.equal(t.add('a.example', acc, 'https://a.example/1', iso(NOW - 40 * DAY)), 'counted');
    assert.equal(t.add('a.example', acc, 'https://A.example/1#top', iso(NOW - 2 * DAY)), 'duplicate');
    assert.equal(t.add('a.example', acc, 'https://a.example/2'), 'counted');
    assert.equal(t.add('a.example', acc, '/relative'), 'invalid');
    assert.equal(t.add('a.example', acc, 'ftp://a.example/x'), 'invalid');
    assert.equal(t.add('a.example', acc, 'https://a.example/1', iso(NOW - 90 * DAY)), 'duplicate');
    const [c] = t.counts();
    assert.equal(c!.urls, 2);
    assert.equal(c!.duplicates, 2);
    assert.equal(c!.invalid, 2);
    assert.equal(c!.lastmod.newest, iso(NOW - 2 * DAY), 'the duplicate brought the newer lastmod');
    assert.equal(c!.lastmod.dated, 1);
    assert.equal(c!.lastmod.undated, 1);
    assert.equal(t.size, 2);
  });

  it('URLs on another host: counted apart unless that host accepts the file', () => {
    const robots = (o: string): OriginRobots => ({ outcome: 'unavailable', robotsUrl: `${o}/robots.txt` });
    const t = new SitemapTally(['a.example', 'b.example'], { productToken: 'Bot', now: NOW, robots });
    const onlyA = new Set(['a.example']);
    assert.equal(t.add('a.example', onlyA, 'https://b.example/x'), 'other-host');
    assert.equal(t.add('a.example', onlyA, 'https://c.example/y'), 'other-host');
    assert.equal(t.add('a.example', onlyA, 'https://c.example/z'), 'other-host');
    assert.equal(t.add('a.example', onlyA, 'https://c.example/z'), 'duplicate');
    // b.example's robots.txt lists the file: its URLs in it count for b.example.
    const both = new Set(['a.example', 'b.example']);
    assert.equal(t.add('a.example', both, 'https://b.example/v'), 'counted');
    // A host that accepts the file but is not being sized is still another host.
    assert.equal(t.add('a.example', new Set(['a.example', 'cdn.example']), 'https://cdn.example/w'), 'other-host');
    const [a, b] = t.counts();
    assert.deepEqual(a!.otherHosts, {
      urls: 4,
      hosts: [
        { host: 'c.example', urls: 2 },
        { host: 'b.example', urls: 1 },
        { host: 'cdn.example', urls: 1 },
      ],
    });
    assert.equal(a!.urls, 0);
    assert.equal(b!.urls, 1);
    assert.equal(a!.duplicates, 1);
  });

  it('robots.txt: disallowed URLs apart, per origin; unreachable disallows all; unavailable allows all', () => {
    const robots = new Map<string, OriginRobots>([
      [
        'https://a.example',
        robotsOf(
          'https://a.example',
          'User-agent: *\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: Bot\nDisallow: /only-bot\n',
        ),
      ],
      ['http://a.example', { outcome: 'unreachable', robotsUrl: 'http://a.example/robots.txt' }],
      ['https://b.example', { outcome: 'unavailable', robotsUrl: 'https://b.example/robots.txt' }],
    ]);
    const t = new SitemapTally(['a.example', 'b.example'], {
      productToken: 'Bot',
      now: NOW,
      robots: (o) => robots.get(o),
    });
    const a = new Set(['a.example']);
    assert.equal(t.add('a.example', a, 'https://a.example/only-bot/1'), 'disallowed');
    assert.equal(t.add('a.example', a, 'https://a.example/private/x'), 'counted', 'the Bot group applies, not *');
    assert.equal(
      t.add('a.example', a, 'http://a.example/public'),
      'disallowed',
      'http has its own robots.txt, unreachable',
    );
    assert.equal(t.add('a.example', a, 'https://a.example/only-bot/1'), 'duplicate');
    assert.equal(t.add('b.example', new Set(['b.example']), 'https://b.example/anything'), 'counted');
    const [ca, cb] = t.counts();
    assert.deepEqual([ca!.urls, ca!.disallowed, ca!.duplicates], [1, 2, 1]);
    assert.deepEqual([cb!.urls, cb!.disallowed], [1, 0]);
  });

  it('a URL whose robots.txt is not known yet waits; counts() decides it once it is', () => {
    const robots = new Map<string, OriginRobots>();
    const t = new SitemapTally(['a.example'], { productToken: 'Bot', now: NOW, robots: (o) => robots.get(o) });
    const a = new Set(['a.example']);
    assert.equal(t.add('a.example', a, 'https://a.example/x/1'), 'pending');
    assert.equal(t.add('a.example', a, 'https://a.example/y/1'), 'pending');
    assert.equal(t.add('a.example', a, 'https://a.example/x/1'), 'duplicate');
    assert.deepEqual(t.pendingOrigins(), ['https://a.example']);
    robots.set('https://a.example', robotsOf('https://a.example', 'User-agent: *\nDisallow: /x\n'));
    const [c] = t.counts();
    assert.deepEqual([c!.urls, c!.disallowed, c!.unchecked], [1, 1, 0]);
    assert.deepEqual(t.pendingOrigins(), []);
  });

  it('a robots.txt never read: its URLs count as allowed and unchecked', () => {
    const t = new SitemapTally(['a.example'], { productToken: 'Bot', now: NOW, robots: () => undefined });
    t.add('a.example', new Set(['a.example']), 'https://a.example/1');
    const [c] = t.counts();
    assert.deepEqual([c!.urls, c!.unchecked], [1, 1]);
  });

  it('the lastmod summary on the injected clock: windows, newest, oldest, invalid, future; changedSince', () => {
    const robots = (o: string): OriginRobots => ({ outcome: 'unavailable', robotsUrl: `${o}/robots.txt` });
    const since = NOW - 10 * DAY;
    const t = new SitemapTally(['a.example'], { productToken: 'Bot', now: NOW, changedSince: since, robots });
    const a = new Set(['a.example']);
    const ages = [-3, 0, 6.99, 7, 10, 29, 31, 364, 366, 2000];
    ages.forEach((d, i) => t.add('a.example', a, `https://a.example/${i}`, iso(NOW - d * DAY)));
    t.add('a.example', a, 'https://a.example/undated');
    t.add('a.example', a, 'https://a.example/bad', 'last tuesday');
    const [c] = t.counts();
    assert.deepEqual(c!.lastmod, {
      newest: iso(NOW + 3 * DAY),
      oldest: iso(NOW - 2000 * DAY),
      last7d: 4, // -3 (future), 0, 6.99, 7
      last30d: 6,
      last365d: 8,
      dated: 10,
      undated: 1,
      invalid: 1,
      future: 1,
    });
    assert.equal(c!.changedSince, 5); // -3, 0, 6.99, 7, 10
    assert.equal(c!.urls, 12);
  });

  it('without changedSince it is null; with no dated URL newest and oldest are null', () => {
    const t = new SitemapTally(['a.example'], {
      productToken: 'Bot',
      now: NOW,
      robots: () => ({ outcome: 'unavailable', robotsUrl: 'https://a.example/robots.txt' }),
    });
    t.add('a.example', new Set(['a.example']), 'https://a.example/1');
    const [c] = t.counts();
    assert.equal(c!.changedSince, null);
    assert.equal(c!.lastmod.newest, null);
    assert.equal(c!.lastmod.oldest, null);
  });

  it('the cap on distinct URLs: past it nothing is held and `full` says so', () => {
    const t = new SitemapTally(['a.example'], {
      productToken: 'Bot',
      now: NOW,
      maxUrls: 3,
      robots: () => ({ outcome: 'unavailable', robotsUrl: 'https://a.example/robots.txt' }),
    });
    const a = new Set(['a.example']);
    for (let i = 0; i < 3; i++) assert.equal(t.add('a.example', a, `https://a.example/${i}`), 'counted');
    assert.equal(t.full, false);
    assert.equal(t.add('a.example', a, 'https://a.example/1'), 'duplicate', 'a repeat still counts as one');
    assert.equal(t.add('a.example', a, 'https://a.example/9'), 'full');
    assert.equal(t.add('a.example', a, 'https://other.example/9'), 'full');
    assert.equal(t.full, true);
    assert.equal(t.counts()[0]!.urls, 3);
  });

  it('a root that is not being sized is a caller bug', () => {
    const t = new SitemapTally(['a.example'], { productToken: 'Bot', now: NOW, robots: () => undefined });
    assert.throws(() => t.add('z.example', new Set(), 'https://z.example/'), RangeError);
  });
});

describe('acceptingHosts', () => {
  it('the file own host, and every host whose robots.txt lists the file or an index above it', () => {
    const listed = new Map([
      ['a.example', new Set(['https://cdn.example/index.xml'])],
      ['b.example', new Set(['https://cdn.example/part-1.xml'])],
      ['c.example', new Set(['https://c.example/sitemap.xml'])],
    ]);
    assert.deepEqual(
      [...acceptingHosts(['https://cdn.example/part-1.xml', 'https://cdn.example/index.xml'], listed)].sort(),
      ['a.example', 'b.example', 'cdn.example'],
    );
    assert.deepEqual(
      [...acceptingHosts(['https://cdn.example/part-2.xml', 'https://cdn.example/index.xml'], listed)].sort(),
      ['a.example', 'cdn.example'],
    );
    assert.deepEqual([...acceptingHosts(['https://d.example:8080/s.xml'], listed)], ['d.example:8080']);
  });
});
