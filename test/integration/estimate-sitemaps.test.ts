/**
 * `estimate --sitemaps` end to end (the built CLI, loopback servers): each host's pages from its sitemaps,
 * a typed --pages-for overriding one host, --pages-per-host for a host without sitemaps, --changed-since
 * planning a recrawl, one robots.txt fetch serving --robots and --sitemaps, and bad input.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateDocument } from '../../src/core/plan';
import type { EstimateSitemapsSection } from '../../src/cli/estimateSitemaps';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { buildCli, runCli } from '../helpers/cli';

const T = { timeout: 30_000 };
const DAY = 86_400_000;
let a: LoopbackServer;
let b: LoopbackServer;
let bare: LoopbackServer;
/** Hosts sizing cannot read: a sitemap that answers 404, a robots.txt that answers 503, a Retry-After of an hour. */
let gone: LoopbackServer;
let down: LoopbackServer;
let slow: LoopbackServer;

type Doc = EstimateDocument & { sitemaps: EstimateSitemapsSection | null; robots: unknown };

const urlset = (locs: Array<[string, string | undefined]>) =>
  `<urlset>${locs.map(([l, m]) => `<url><loc>${l}</loc>${m ? `<lastmod>${m}</lastmod>` : ''}</url>`).join('')}</urlset>`;

before(async () => {
  buildCli();
  const now = Date.now();
  const ago = (d: number) => new Date(now - d * DAY).toISOString();
  a = await startLoopback();
  b = await startLoopback();
  bare = await startLoopback({ routes: { '/robots.txt': text(200, 'User-agent: *\nDisallow:\n') } });
  a.route('/robots.txt', text(200, `User-agent: *\nDisallow: /private\nCrawl-delay: 2\nSitemap: ${a.url('/s.xml')}\n`));
  a.route(
    '/s.xml',
    text(
      200,
      urlset([
        [a.url('/1'), ago(1)],
        [a.url('/2'), ago(10)],
        [a.url('/3'), ago(100)],
        [a.url('/4'), undefined],
        [a.url('/private/5'), ago(1)],
      ]),
      { 'content-type': 'application/xml' },
    ),
  );
  gone = await startLoopback();
  gone.route('/robots.txt', text(200, `User-agent: *\nSitemap: ${gone.url('/pages.xml')}\n`));
  gone.route('/pages.xml', text(404, 'not found'));
  down = await startLoopback({ routes: { '/robots.txt': text(503, 'down for maintenance') } });
  slow = await startLoopback();
  slow.route('/robots.txt', text(200, `User-agent: *\nSitemap: ${slow.url('/s.xml')}\n`));
  slow.route('/s.xml', text(429, 'slow down', { 'retry-after': '3600' }));
  b.route(
    '/sitemap.xml',
    text(200, urlset(Array.from({ length: 12 }, (_, i) => [b.url(`/p${i}`), ago(i < 3 ? 5 : 400)])), {
      'content-type': 'application/xml',
    }),
  );
});

after(async () => {
  await Promise.all([a?.close(), b?.close(), bare?.close(), gone?.close(), down?.close(), slow?.close()]);
});

const estimate = (...args: string[]) => runCli(['estimate', '--delay', '0.01', ...args]);
const host = (srv: LoopbackServer) => new URL(srv.origin).host;

async function json(...args: string[]): Promise<Doc> {
  const r = await estimate(...args, '--json');
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Doc;
}

describe('estimate --sitemaps', () => {
  it(
    "each host's pages are its sitemap URLs that robots.txt allows; the JSON says where each count came from",
    T,
    async () => {
      const doc = await json('--sitemaps', a.url('/'), b.url('/x'));
      assert.deepEqual(
        doc.hosts.map((h) => [h.host, h.pages]),
        [
          [host(a), 4],
          [host(b), 12],
        ],
      );
      assert.deepEqual(doc.sitemaps!.pages, [
        { host: host(a), pages: 4, from: 'sitemaps' },
        { host: host(b), pages: 12, from: 'sitemaps' },
      ]);
      assert.equal(doc.sitemaps!.changedSince, null);
      assert.equal(doc.sitemaps!.sizing.hosts[0]!.disallowed, 1);
      assert.deepEqual(doc.settings.pages, { byHost: { [host(a)]: 4, [host(b)]: 12 }, otherwise: 0 });
      assert.equal(doc.totalPages, 16);
      assert.equal(doc.robots, null, 'without --robots, no Crawl-delay is planned');
    },
  );

  it('text: the sitemaps section, then the plan; it says where the pages came from', T, async () => {
    const r = await estimate('--sitemaps', a.url('/'), b.url('/'));
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^Sitemaps for CrawlPlanner \(User-Agent: CrawlPlanner\/\S+\)$/m);
    assert.match(r.stdout, new RegExp(`^ {2}${esc(host(b))}\\s+12\\s+0\\s+0\\s+1\\s`, 'm'));
    assert.match(r.stdout, /^ {2}Pages: each host's sitemap URLs that robots\.txt allows\.$/m);
    assert.match(r.stdout, /for 16 pages on 2 hosts/);
    assert.ok(r.stdout.indexOf('Sitemaps for') < r.stdout.indexOf('for 16 pages'));
  });

  it(
    '--pages-for overrides one host; --pages-per-host is the number for a host whose sitemaps could not be read',
    T,
    async () => {
      const doc = await json(
        '--sitemaps',
        '--pages-for',
        `${host(a)}=1000`,
        '--pages-per-host',
        '7',
        a.url('/'),
        b.url('/'),
        bare.url('/'),
      );
      assert.deepEqual(
        doc.sitemaps!.pages.map((p) => [p.pages, p.from]),
        [
          [1000, 'pages-for'],
          [12, 'sitemaps'],
          [7, 'pages-per-host'],
        ],
      );
      assert.deepEqual(
        doc.hosts.map((h) => h.pages),
        [1000, 12, 7],
      );
    },
  );

  it(
    'a host without sitemaps and without --pages-per-host: its pages are unknown (never 0), and the text names the flag',
    T,
    async () => {
      // This used to plan the host at 0 pages ("1 of 2 hosts gets no pages"); issue 24 asks for "pages unknown".
      const r = await estimate('--sitemaps', b.url('/'), bare.url('/'));
      assert.equal(r.status, 0, r.stderr);
      const h = esc(host(bare));
      assert.match(
        r.stdout,
        new RegExp(
          `^ {2}${h}: pages unknown \\(robots\\.txt names no sitemap, and ${esc(bare.url('/sitemap.xml'))} answered 404\\); set them with --pages-for ${h}=N or --pages-per-host N$`,
          'm',
        ),
      );
      assert.doesNotMatch(r.stdout, /gets no pages/);
      assert.match(r.stdout, new RegExp(`^${h}\\s+unknown\\s`, 'm'), 'the table: unknown, not 0');
      assert.match(r.stdout, /^Total: .* for 12 pages on 1 host; a lower bound: 1 host's pages unknown \(below\)$/m);
      assert.match(
        r.stdout,
        /^Pages unknown: 1 host's pages unknown; the total covers the other hosts only \(1 host\):$/m,
      );
      assert.match(
        r.stdout,
        new RegExp(
          `^ {2}Set them with --pages-for ${h}=N, or --pages-per-host N for every host without a count\\.$`,
          'm',
        ),
      );
      assert.match(r.stdout, /^ {2}pages-unknown: 1 host's pages are unknown: /m);
    },
  );

  it(
    'hosts sizing cannot read (a sitemap 404, a robots.txt 503, a Retry-After of 3600 s): pages null with why, the plan not complete',
    T,
    async () => {
      const t0 = Date.now();
      const doc = await json('--sitemaps', b.url('/'), gone.url('/'), down.url('/'), slow.url('/'));
      assert.ok(Date.now() - t0 < 20_000, 'a Retry-After of an hour is not waited');
      assert.deepEqual(
        doc.hosts.map((h) => [h.host, h.pages, h.pagesUnknown?.code ?? null]),
        [
          [host(b), 12, null],
          [host(gone), null, 'http-status'],
          [host(down), null, 'robots-unreachable'],
          [host(slow), null, 'http-status'],
        ],
      );
      const why = Object.fromEntries(doc.hosts.map((h) => [h.host, h.pagesUnknown?.reason]));
      assert.match(why[host(gone)]!, /^404: the sitemap was not served/);
      assert.match(why[host(down)]!, /503/);
      assert.match(why[host(slow)]!, /asked to wait 3600 s \(Retry-After: 3600\), above the cap of 300 s/);
      assert.equal(doc.complete, false);
      assert.deepEqual(doc.unknownHosts, [host(gone), host(down), host(slow)]);
      assert.equal(doc.totalPages, 12, 'the total covers b only');
      assert.deepEqual(
        doc.sitemaps!.pages.map((p) => [p.pages, p.from]),
        [
          [12, 'sitemaps'],
          [null, 'none'],
          [null, 'none'],
          [null, 'none'],
        ],
      );
      assert.deepEqual(Object.keys(doc.settings.pages), ['byHost', 'otherwise', 'unknown']);
      const codes = doc.warnings.map((w) => w.code);
      assert.ok(codes.includes('pages-unknown'), codes.join());
      assert.ok(!codes.includes('hosts-without-pages'), codes.join());
      // Nothing fetched from the host that asked for an hour after its refusal; robots.txt first everywhere.
      assert.deepEqual(
        slow.arrivals.map((a) => a.path),
        ['/robots.txt', '/s.xml'],
      );
      assert.deepEqual(
        down.arrivals.map((a) => a.path),
        ['/robots.txt'],
      );
    },
  );

  it(
    '--pages-for keeps an unsized host planned at its number, --pages-per-host every such host: complete again',
    T,
    async () => {
      const doc = await json('--sitemaps', '--pages-for', `${host(gone)}=30`, b.url('/'), gone.url('/'), down.url('/'));
      assert.deepEqual(
        doc.hosts.map((h) => [h.pages, h.pagesUnknown?.code ?? null]),
        [
          [12, null],
          [30, null],
          [null, 'robots-unreachable'],
        ],
      );
      assert.deepEqual(doc.unknownHosts, [host(down)]);
      const all = await json('--sitemaps', '--pages-per-host', '7', b.url('/'), gone.url('/'), down.url('/'));
      assert.deepEqual(
        all.hosts.map((h) => h.pages),
        [12, 7, 7],
      );
      assert.deepEqual([all.complete, all.unknownHosts], [true, []]);
    },
  );

  it('--changed-since plans a recrawl: only the URLs whose lastmod is on or after D', T, async () => {
    const doc = await json('--sitemaps', '--changed-since', '30d', a.url('/'), b.url('/'));
    assert.deepEqual(
      doc.sitemaps!.pages.map((p) => [p.pages, p.from]),
      [
        [2, 'changed-since'],
        [3, 'changed-since'],
      ],
    );
    assert.ok(Math.abs(Date.parse(doc.sitemaps!.changedSince!) - (Date.now() - 30 * DAY)) < 60_000);
    const r = await estimate('--sitemaps', '--changed-since', '30d', a.url('/'), b.url('/'));
    assert.match(
      r.stdout,
      /Pages: each host's URLs changed since \d{4}-\d\d-\d\d by their lastmod \(a recrawl\); URLs without lastmod are not counted\./,
    );
    assert.match(r.stdout, /for 5 pages on 2 hosts/);
  });

  it('with --robots: one robots.txt fetch per origin serves both, and its Crawl-delay is planned', T, async () => {
    const before = a.arrivalsFor('/robots.txt').length;
    const doc = await json('--robots', '--sitemaps', a.url('/'));
    assert.equal(a.arrivalsFor('/robots.txt').length - before, 1);
    const h = doc.hosts[0]!;
    assert.deepEqual([h.pages, h.crawlDelaySeconds, h.intervalSeconds], [4, 2, 2]);
  });

  const bad: Array<[string, string[], string]> = [
    [
      '--changed-since without --sitemaps',
      ['--pages', '10', '--changed-since', '30d'],
      '--changed-since: only with --sitemaps (it reads the lastmod of each sitemap URL)',
    ],
    [
      '--pages with --sitemaps',
      ['--sitemaps', '--pages', '10'],
      "--pages: not with --sitemaps (the sitemaps give each host's pages; type one host's with --pages-for HOST=N)",
    ],
    [
      '--pages-for without a number for the others',
      ['--pages-for', 'a.example=3'],
      '--pages-for: needs --sitemaps or --pages-per-host for the other hosts',
    ],
    ['--pages-for without =N', ['--sitemaps', '--pages-for', 'a.example'], '--pages-for: "a.example" must be HOST=N'],
    [
      '--pages-for with a fraction',
      ['--sitemaps', '--pages-for', 'a.example=2.5'],
      '--pages-for a.example: "2.5" must be a whole number',
    ],
    [
      '--changed-since garbage',
      ['--sitemaps', '--changed-since', 'soon'],
      '--changed-since: "soon" is neither a date (2024-05-01) nor a duration (30d, 12h, 1w)',
    ],
  ];
  for (const [name, args, message] of bad) {
    it(`bad input: ${name} → exit 2, one line, nothing fetched`, T, async () => {
      const r = await runCli(['estimate', ...args, 'http://127.0.0.1:9/']);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `crawl-planner estimate: ${message}\n`);
    });
  }

  it('without --sitemaps the document has sitemaps: null', T, async () => {
    const doc = await json('--pages', '10', a.url('/'));
    assert.equal(doc.sitemaps, null);
  });
});

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
