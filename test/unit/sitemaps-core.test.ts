/**
 * The pure half of sitemap sizing: the streaming reader (formats, limits, repairs), W3C Datetime lastmod,
 * and the counting (hosts, duplicates, other hosts, robots.txt verdicts, the lastmod summary) on an
 * injected clock.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadRobotsFile } from '../../src/core/robots';
import {
  acceptingHosts,
  capReached,
  hostRoots,
  indexChildren,
  newFileReport,
  readErrors,
  redirectStep,
  statusError,
  parseChangedSince,
  parseLastmod,
  SitemapReader,
  SitemapTally,
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_URLS_PER_FILE,
  type OriginRobots,
  type SitemapReadResult,
} from '../../src/core/sitemaps';

interface Read {
  urls: Array<[string, string | undefined]>;
  sitemaps: Array<[string, string | undefined]>;
  result: SitemapReadResult;
  /** How many write() calls were accepted before one returned false (all of them when none did). */
  accepted: number;
}

/** Reads `body` in chunks of `size` bytes (1 byte: every boundary a token can be split at). */
function read(body: string | Uint8Array, size = 7, options: ConstructorParameters<typeof SitemapReader>[1] = {}): Read {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const urls: Read['urls'] = [];
  const sitemaps: Read['sitemaps'] = [];
  const reader = new SitemapReader(
    { url: (l, m) => urls.push([l, m]), sitemap: (l, m) => sitemaps.push([l, m]) },
    options,
  );
  let accepted = 0;
  for (let i = 0; i < bytes.length; i += size) {
    if (!reader.write(bytes.subarray(i, i + size))) break;
    accepted++;
  }
  return { urls, sitemaps, result: reader.end(), accepted };
}

const urlset = (inner: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${inner}</urlset>\n`;
const url = (loc: string, lastmod?: string) =>
  `<url><loc>${loc}</loc>${lastmod ? `<lastmod>${lastmod}</lastmod>` : ''}</url>`;

describe('SitemapReader: formats', () => {
  it('a urlset: loc and lastmod per url, trimmed, entities and CDATA decoded, at any chunk size', () => {
    const body = urlset(
      url(' https://a.example/1 ', '2024-05-01') +
        '<url>\n  <loc>https://a.example/s?a=1&amp;b=2</loc>\n  <changefreq>daily</changefreq>\n</url>' +
        '<url><loc><![CDATA[https://a.example/c?x=1&y=2]]></loc></url>' +
        '<url><loc>https://a.example/caf&#xE9;</loc></url>',
    );
    for (const size of [1, 3, 64, 1 << 20]) {
      const r = read(body, size);
      assert.deepEqual(
        r.urls,
        [
          ['https://a.example/1', '2024-05-01'],
          ['https://a.example/s?a=1&b=2', undefined],
          ['https://a.example/c?x=1&y=2', undefined],
          ['https://a.example/café', undefined],
        ],
        `chunks of ${size}`,
      );
      assert.equal(r.result.format, 'urlset');
      assert.equal(r.result.entries, 4);
      assert.equal(r.result.bytes, Buffer.byteLength(body));
      assert.equal(r.result.malformed, undefined);
    }
  });

  it('a sitemap index: children with their lastmod; a prefixed namespace works too', () => {
    const r = read(
      '<sitemapindex><sitemap><loc>https://a.example/s1.xml.gz</loc><lastmod>2024-01-02</lastmod></sitemap><sitemap><loc>https://a.example/s2.xml</loc></sitemap></sitemapindex>',
    );
    assert.equal(r.result.format, 'sitemapindex');
    assert.deepEqual(r.sitemaps, [
      ['https://a.example/s1.xml.gz', '2024-01-02'],
      ['https://a.example/s2.xml', undefined],
    ]);
    assert.deepEqual(r.urls, []);
    const p = read(
      '<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9"><s:url><s:loc>https://a.example/p</s:loc></s:url></s:urlset>',
    );
    assert.deepEqual(p.urls, [['https://a.example/p', undefined]]);
  });

  it('extension elements never count: image:loc, xhtml:link, news', () => {
    const r = read(
      urlset(
        '<url><loc>https://a.example/page</loc><image:image><image:loc>https://cdn.example/i.jpg</image:loc></image:image>' +
          '<xhtml:link rel="alternate" hreflang="de" href="https://a.example/de/page"/><news:news><news:title>t</news:title></news:news></url>',
      ),
    );
    assert.deepEqual(r.urls, [['https://a.example/page', undefined]]);
  });

  it('a BOM, comments and a DOCTYPE are skipped; entities it defines are not expanded', () => {
    const r = read(
      '\uFEFF<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "AAAA"><!ENTITY b "&a;&a;&a;">]><!-- ' +
        url('https://a.example/hidden') +
        ' -->' +
        urlset(url('https://a.example/&b;')),
    );
    assert.deepEqual(r.urls, [['https://a.example/&b;', undefined]]);
  });

  it('a plain text sitemap: one URL per line, blank lines skipped, CRLF too', () => {
    const r = read('https://a.example/1\r\n\r\n  https://a.example/2  \nhttps://a.example/3', 2);
    assert.equal(r.result.format, 'text');
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/1', 'https://a.example/2', 'https://a.example/3'],
    );
  });

  it('feeds and other roots are recognised and not read; reading stops', () => {
    const feed = read(
      '<?xml version="1.0"?><rss version="2.0"><channel><item><link>https://a.example/x</link></item></channel></rss>' +
        ' '.repeat(5000),
      100,
    );
    assert.equal(feed.result.format, 'feed');
    assert.equal(feed.result.root, 'rss');
    assert.ok(feed.accepted < 10, 'stops at the root element');
    const atom = read(
      '<feed xmlns="http://www.w3.org/2005/Atom"><entry><link href="https://a.example/y"/></entry></feed>',
    );
    assert.equal(atom.result.format, 'feed');
    const html = read('<!DOCTYPE html><html><head><title>Not found</title></head><body><p>Oops<br></body></html>');
    assert.equal(html.result.format, 'other');
    assert.equal(html.result.root, 'html');
    assert.deepEqual(html.urls, []);
    assert.equal(html.result.malformed, undefined, 'what is not a sitemap is not called malformed');
    const upper = read('<URLSET><URL><LOC>https://a.example/U</LOC></URL></URLSET>');
    assert.equal(upper.result.format, 'other', 'XML names are case-sensitive');
  });

  it('an empty body, and one with only white space or an XML declaration, is empty', () => {
    for (const body of ['', '   \n', '<?xml version="1.0"?>'])
      assert.equal(read(body).result.format, 'empty', JSON.stringify(body));
  });
});

describe('SitemapReader: malformed XML', () => {
  it('an unescaped & reads on (counted), as real sitemaps need', () => {
    const r = read(urlset(url('https://a.example/?a=1&b=2') + url('https://a.example/2')));
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/?a=1&b=2', 'https://a.example/2'],
    );
  });

  it('a mismatched close tag is repaired and reported', () => {
    const r = read(urlset('<url><loc>https://a.example/1</lox></url>' + url('https://a.example/2')));
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/1', 'https://a.example/2'],
    );
    assert.equal(r.result.malformed?.first, '<loc> was not closed');
  });

  it('a document cut off: the entry it cuts is not counted, and it is reported', () => {
    const r = read('<urlset>' + url('https://a.example/1') + '<url><loc>https://a.exa');
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/1'],
    );
    assert.match(r.result.malformed?.first ?? '', /^the document ends inside <loc>$/);
    assert.equal(r.result.malformed?.count, 3);
    const afterLoc = read('<urlset>' + '<url><loc>https://a.example/1</loc>');
    assert.deepEqual(afterLoc.urls, [], 'a <url> without its close tag at the end is not counted');
  });

  it('a <url> without <loc> is reported, not counted', () => {
    const r = read(urlset('<url><lastmod>2024-01-01</lastmod></url>' + url('https://a.example/ok')));
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/ok'],
    );
    assert.equal(r.result.malformed?.first, 'a <url> without <loc>');
  });

  it('a <loc> longer than a URL may be is not handed out, and its text is not held', () => {
    const long = 'https://a.example/' + 'x'.repeat(3000);
    const r = read(urlset(url(long) + url('https://a.example/short')), 512);
    assert.deepEqual(
      r.urls.map(([l]) => l),
      ['https://a.example/short'],
    );
    assert.equal(r.result.tooLong, 1);
  });
});

describe('SitemapReader: the sitemaps.org limits', () => {
  it(`${SITEMAP_MAX_URLS_PER_FILE.toLocaleString('en-US')} entries are read; one more stops the file`, () => {
    const entries = (n: number) => Array.from({ length: n }, (_, i) => url(`https://a.example/p${i}`)).join('');
    const at = read(urlset(entries(SITEMAP_MAX_URLS_PER_FILE)), 65_536);
    assert.equal(at.urls.length, SITEMAP_MAX_URLS_PER_FILE);
    assert.equal(at.result.stopped, undefined);
    const over = read(urlset(entries(SITEMAP_MAX_URLS_PER_FILE + 1000)), 65_536);
    assert.equal(over.urls.length, SITEMAP_MAX_URLS_PER_FILE);
    assert.equal(over.result.stopped, 'max-entries');
    assert.equal(over.result.malformed, undefined, 'stopping is not a malformation');
  });

  it('a smaller entry limit applies to indexes and text as well', () => {
    const idx = read(
      '<sitemapindex>' + '<sitemap><loc>https://a.example/s.xml</loc></sitemap>'.repeat(5) + '</sitemapindex>',
      7,
      { maxEntries: 3 },
    );
    assert.equal(idx.sitemaps.length, 3);
    assert.equal(idx.result.stopped, 'max-entries');
    const txt = read('https://a.example/1\nhttps://a.example/2\nhttps://a.example/3\n', 7, { maxEntries: 2 });
    assert.equal(txt.urls.length, 2);
    assert.equal(txt.result.stopped, 'max-entries');
  });

  it(`bytes past ${SITEMAP_MAX_BYTES_PER_FILE.toLocaleString('en-US')} are not read; what came before counts`, () => {
    const entry = url('https://a.example/page-with-a-fairly-long-path/0123456789', '2024-01-01');
    const n = Math.ceil((SITEMAP_MAX_BYTES_PER_FILE + 5 * 1024 * 1024) / entry.length);
    const body = Buffer.from(urlset(entry.repeat(n)));
    // Chunks that do not divide 50 MiB: the limit falls inside one, whose entries before it still count.
    for (const size of [1_000_000, 65_536]) {
      const r = read(body, size, { maxEntries: Number.MAX_SAFE_INTEGER });
      assert.equal(r.result.stopped, 'max-bytes');
      assert.equal(r.result.bytes, SITEMAP_MAX_BYTES_PER_FILE);
      const whole = Math.floor((SITEMAP_MAX_BYTES_PER_FILE - urlset('').indexOf('</urlset>')) / entry.length);
      assert.equal(r.urls.length, whole, `chunks of ${size}`);
    }
  });
});

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

describe('what a file outcome means (fileErrors.ts)', () => {
  const hops = new Set(['https://a.example/s.xml', 'https://a.example/t.xml']);
  const step = (o: Partial<Parameters<typeof redirectStep>[0]>) =>
    redirectStep({
      status: 301,
      from: 'https://a.example/t.xml',
      location: 'https://a.example/u.xml#top',
      raw: '/u.xml#top',
      followed: true,
      hops,
      redirects: 1,
      ...o,
    });

  it('a redirect is followed (fragment dropped) unless it loops, goes past five, or has no usable target', () => {
    assert.deepEqual(step({}), { follow: 'https://a.example/u.xml' });
    const message = (o: Partial<Parameters<typeof redirectStep>[0]>) => {
      const r = step(o);
      assert.ok('error' in r);
      assert.equal(r.error.code, 'redirect');
      return r.error.message;
    };
    assert.equal(message({ location: undefined, raw: undefined }), '301 with no Location header');
    assert.equal(message({ location: undefined, raw: 'http://[x' }), '301 with an unusable Location "http://[x"');
    assert.equal(message({ location: 'ftp://a.example/x' }), '301 to ftp://a.example/x, which is not http(s)');
    assert.equal(
      message({ location: 'https://a.example/s.xml', status: 302 }),
      'redirect loop: 302 from https://a.example/t.xml back to https://a.example/s.xml',
    );
    assert.equal(
      message({ redirects: 5, status: 307 }),
      'more than 5 redirects (the next was 307 to https://a.example/u.xml)',
    );
    assert.match(
      message({ status: 300, followed: false }),
      /^300 to https:\/\/a\.example\/u\.xml: a status that is not followed/,
    );
  });

  it('a final status: no-sitemap for the /sitemap.xml fallback answering 4xx, else http-status with redirects and attempts', () => {
    const listed = { ...newFileReport('https://a.example/s.xml', 'robots.txt', 0) };
    const fallback = { ...newFileReport('https://a.example/sitemap.xml', 'fallback', 0) };
    assert.deepEqual(statusError(fallback, 404, 1), {
      code: 'no-sitemap',
      message: 'robots.txt names no sitemap, and https://a.example/sitemap.xml answered 404',
    });
    assert.equal(statusError(fallback, 429, 3).code, 'http-status', 'a 429 is not "no sitemap"');
    assert.equal(statusError(listed, 404, 1).message, '404: the sitemap was not served');
    assert.equal(statusError(listed, 503, 3).message, '503: the sitemap was not served; 3 attempts');
    const moved = { ...listed, redirects: [{ status: 301, to: 'https://a.example/t.xml' }] };
    assert.equal(statusError(moved, 500, 1).message, '500: the sitemap was not served (after 1 redirect)');
  });

  it("an index's children: in order, once, the loop and the too deep apart, not-URLs counted", () => {
    const r = indexChildren(
      [
        'https://a.example/1.xml',
        'https://a.example/1.xml#x',
        'https://a.example/top.xml',
        'not a url',
        'https://a.example/2.xml',
      ],
      { chain: ['https://a.example/mid.xml', 'https://a.example/top.xml'], depth: 1 },
    );
    assert.deepEqual(r.follow, ['https://a.example/1.xml', 'https://a.example/2.xml']);
    assert.deepEqual(
      r.errors.map((e) => e.code),
      ['loop', 'malformed'],
    );
    const deep = indexChildren(['https://a.example/1.xml', 'https://a.example/2.xml'], { chain: ['x'], depth: 2 });
    assert.deepEqual(deep.follow, []);
    assert.match(deep.errors[0]!.message, /^2 child sitemaps not followed: sitemaps are followed at most 2 levels/);
  });

  it('a body read: its errors, and whether a cap on the run was reached in it', () => {
    const totals = { bytes: 1000, urls: 10 };
    const base = { format: 'urlset' as const, entries: 3, bytes: 100, tooLong: 0 };
    assert.deepEqual(readErrors(base, { gzipError: undefined, tallyFull: false, totals }), {
      errors: [],
      capped: false,
    });
    const full = readErrors(base, { gzipError: undefined, tallyFull: true, totals });
    assert.equal(full.capped, true);
    assert.match(full.errors[0]!.message, /^the cap of 10 URLs per run was reached in this file/);
    const bytes = readErrors({ ...base, stopped: 'max-bytes' }, { gzipError: undefined, tallyFull: false, totals });
    assert.deepEqual([bytes.capped, bytes.errors[0]!.code], [true, 'limit']);
    const html = readErrors(
      { ...base, format: 'other', root: 'html' },
      { gzipError: 'incorrect header check', tallyFull: false, totals },
    );
    assert.deepEqual(
      html.errors.map((e) => e.code),
      ['bad-gzip', 'not-a-sitemap'],
    );
  });
});

describe('the report (report.ts)', () => {
  const robots = (origin: string, outcome: 'ok' | 'unavailable' | 'unreachable', sitemaps: string[] = []) => ({
    origin,
    outcome,
    status: null,
    sitemaps,
    crawlDelaySeconds: null,
  });

  it("a host's roots: its robots.txt Sitemap lines, else /sitemap.xml of each reachable origin, else none", () => {
    assert.deepEqual(
      hostRoots([robots('https://a.example', 'ok', ['https://cdn.example/s.xml']), robots('http://a.example', 'ok')]),
      { source: 'robots.txt', files: [{ url: 'https://cdn.example/s.xml', via: 'robots.txt' }] },
    );
    assert.deepEqual(
      hostRoots([robots('https://a.example', 'unavailable'), robots('http://a.example', 'unreachable')]),
      {
        source: 'fallback',
        files: [{ url: 'https://a.example/sitemap.xml', via: 'fallback' }],
      },
    );
    assert.deepEqual(hostRoots([robots('https://a.example', 'unreachable', ['https://a.example/s.xml'])]), {
      source: 'none',
      files: [],
    });
  });

  it('the caps on the run, in the order they are checked', () => {
    const totals = { files: 2, urls: 10, bytes: 100 };
    assert.equal(capReached({ filesStarted: 1, bytesRead: 0, tallyFull: false }, totals), undefined);
    assert.equal(capReached({ filesStarted: 2, bytesRead: 0, tallyFull: false }, totals), 'the cap of 2 files per run');
    assert.equal(
      capReached({ filesStarted: 2, bytesRead: 100, tallyFull: false }, totals),
      'the cap of 100 bytes per run',
    );
    assert.equal(
      capReached({ filesStarted: 2, bytesRead: 100, tallyFull: true }, totals),
      'the cap of 10 URLs per run',
    );
  });
});
