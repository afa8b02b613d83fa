/**
 * The sidebar's "Size from sitemaps" over real HTTP: the planner's controller with the net code the CLI's
 * `sitemaps` uses (src/net/sitemaps.ts), given its options by `sitemapSizingOptions` as the extension does,
 * against loopback hosts. Each host's pages are its sitemap URLs that robots.txt allows (an index with a
 * gzip child followed), a host whose sitemap answers 404 keeps its pages and shows the error, hosts sizing
 * cannot read (a sitemap 404, a robots.txt 503, a Retry-After of an hour) without a number in the form are
 * "pages unknown" with why and left out of the total (never 0 pages), "changed since" plans a recrawl, the form's
 * delay spaces the requests to a host, and Cancel stops a run.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { sizeFromSitemaps } from '../../src/net/sitemaps';
import { userAgentHeader } from '../../src/net/userAgent';
import { PlannerController } from '../../src/extension/planner/controller';
import type { PlannerViewDeps } from '../../src/extension/planner/deps';
import { defaultForm } from '../../src/extension/planner/savedState';
import { sitemapSizingOptions } from '../../src/extension/planner/sitemapsResults';
import type { HostToWebview } from '../../src/shared/planner/messages';
import type { PlannerForm } from '../../src/shared/planner/form';
import type { PlannerViewSettings, SitemapsState } from '../../src/shared/planner/viewModel';
import { sitemapHostItems } from '../../src/webview/model/sitemaps';
import { hang, startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';

const T = { timeout: 30_000 };
const DAY = 86_400_000;
const DELAY = 0.2;

const settings: PlannerViewSettings = {
  userAgent: 'PlannerBot',
  defaultDelaySeconds: DELAY,
  delayFrom: 'start',
  maxCrawlDelaySeconds: 30,
  crawlDelayPolicy: 'cap',
  maxPages: 50,
};
const xml = { 'content-type': 'application/xml' };
const urlset = (locs: Array<[string, string | undefined]>) =>
  `<urlset>${locs.map(([l, m]) => `<url><loc>${l}</loc>${m ? `<lastmod>${m}</lastmod>` : ''}</url>`).join('')}</urlset>`;

let a: LoopbackServer;
let b: LoopbackServer;
let slow: LoopbackServer;
/** Hosts sizing cannot read: a sitemap that answers 404, a robots.txt that answers 503, a Retry-After of an hour. */
let gone: LoopbackServer;
let down: LoopbackServer;
let waits: LoopbackServer;

before(async () => {
  const now = Date.now();
  const ago = (d: number) => new Date(now - d * DAY).toISOString();
  a = await startLoopback({ host: '127.0.0.1' });
  b = await startLoopback({ host: '127.0.0.2' });
  slow = await startLoopback({
    host: '127.0.0.3',
    routes: { '/robots.txt': text(200, 'User-agent: *\nDisallow:\n'), '/sitemap.xml': hang() },
  });
  a.route('/robots.txt', text(200, `User-agent: *\nDisallow: /private\nSitemap: ${a.url('/index.xml')}\n`));
  a.route(
    '/index.xml',
    text(
      200,
      `<sitemapindex><sitemap><loc>${a.url('/one.xml.gz')}</loc></sitemap><sitemap><loc>${a.url('/two.xml')}</loc></sitemap></sitemapindex>`,
      xml,
    ),
  );
  a.route(
    '/one.xml.gz',
    text(
      200,
      zlib.gzipSync(
        urlset([
          [a.url('/1'), ago(1)],
          [a.url('/2'), ago(10)],
          [a.url('/private/3'), ago(1)],
        ]),
      ),
      { 'content-type': 'application/gzip' },
    ),
  );
  a.route(
    '/two.xml',
    text(
      200,
      urlset([
        [a.url('/2'), ago(10)],
        [a.url('/4'), ago(100)],
        [a.url('/5'), undefined],
        [`${b.origin}/elsewhere`, ago(1)],
      ]),
      xml,
    ),
  );
  b.route('/robots.txt', text(200, 'User-agent: *\nDisallow:\n'));
  gone = await startLoopback({ host: '127.0.0.4' });
  gone.route('/robots.txt', text(200, `User-agent: *\nSitemap: ${gone.url('/pages.xml')}\n`));
  gone.route('/pages.xml', text(404, 'not found'));
  down = await startLoopback({ host: '127.0.0.5', routes: { '/robots.txt': text(503, 'maintenance') } });
  waits = await startLoopback({ host: '127.0.0.6' });
  waits.route('/robots.txt', text(200, `User-agent: *\nSitemap: ${waits.url('/s.xml')}\n`));
  waits.route('/s.xml', text(429, 'slow down', { 'retry-after': '3600' }));
});

after(async () => {
  await Promise.all([a?.close(), b?.close(), slow?.close(), gone?.close(), down?.close(), waits?.close()]);
});

function planner(seeds: string, form: Partial<PlannerForm> = {}) {
  const posted: HostToWebview[] = [];
  const logs: string[] = [];
  const deps: PlannerViewDeps = {
    getSettings: () => settings,
    isTrusted: () => true,
    inspectRobots: () => Promise.reject(new Error('not in this test')),
    runTestCrawl: () => Promise.resolve(),
    openRobots: () => undefined,
    sizeFromSitemaps: (urls, options) =>
      sizeFromSitemaps(
        urls,
        sitemapSizingOptions(options, {
          userAgentHeader: userAgentHeader(options.userAgent, 'https://example.com/bot'),
          robotsTimeoutSeconds: 5,
        }),
        options.signal,
      ),
    log: (m) => logs.push(m),
    onDidChangeSettings: () => ({ dispose: () => undefined }),
    onDidEndCrawl: () => ({ dispose: () => undefined }),
  };
  const controller = new PlannerController(deps, {
    store: {
      load: () => ({ v: 2, form: { ...defaultForm(settings), ...form }, seedsText: seeds }),
      save: async () => undefined,
    },
    writeClipboard: async () => undefined,
  });
  controller.attach((m) => {
    posted.push(structuredClone(m));
    return Promise.resolve(true);
  });
  controller.receive({ type: 'ready' });
  const last = <K extends HostToWebview['type']>(type: K) =>
    posted.filter((m) => m.type === type).at(-1) as Extract<HostToWebview, { type: K }> | undefined;
  return { controller, posted, logs, last };
}

const hostOf = (srv: LoopbackServer) => new URL(srv.origin).host;
const done = (s: SitemapsState) => {
  assert.equal(s.state, 'done', JSON.stringify(s));
  return (s as Extract<SitemapsState, { state: 'done' }>).sitemaps;
};

describe('the sidebar sizes the seed hosts from their sitemaps', () => {
  it(
    "an index with a gzip child: allowed URLs become the host's pages; a 404 keeps the other host's pages and shows why",
    T,
    async () => {
      const p = planner(`${a.url('/')}\n${a.url('/x')}\n${b.url('/')}`, { pagesMode: 'perHost', pages: 25 });
      const lag = measureServerLag();
      const view = done(await p.controller.sizeFromSitemaps(''));
      const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
      const [ha, hb] = view.hosts;
      assert.deepEqual(
        [ha!.host, ha!.urls, ha!.disallowed, ha!.otherHostUrls, ha!.files, ha!.source, ha!.pages],
        [hostOf(a), 4, 1, 1, 3, 'robots.txt', 4],
      );
      assert.deepEqual(
        [ha!.lastmod.last7d, ha!.lastmod.last30d, ha!.lastmod.last365d, ha!.lastmod.undated],
        [1, 2, 3, 1],
      );
      // b.example has no count: it keeps the 25 pages "per host" gave it (this view said null before: now it says
      // what the form gives it, and why there is no count).
      assert.deepEqual(
        [hb!.host, hb!.files, hb!.pages, hb!.unknown?.code, hb!.errors.map((e) => e.code)],
        [hostOf(b), 0, 25, 'no-sitemap', ['no-sitemap']],
      );
      const set = p.last('formSet')!;
      assert.deepEqual([set.form.pagesMode, set.form.pagesByHost, set.form.pages], ['byHost', { [hostOf(a)]: 4 }, 25]);
      const result = p.last('planResult')!.result;
      assert.match(result.summary!.totalText, /for 29 pages/);
      // Sitemap fetches are requests like any other: robots.txt first, then starts at least the delay apart.
      const arrivals = a.arrivals;
      assert.equal(arrivals[0]!.path, '/robots.txt');
      assert.ok(
        arrivals.every((r) => r.userAgent === userAgentHeader('PlannerBot', 'https://example.com/bot')),
        arrivals[0]!.userAgent,
      );
      assert.deepEqual(
        arrivals.map((r) => r.path),
        ['/robots.txt', '/index.xml', '/one.xml.gz', '/two.xml'],
      );
      for (const g of gaps(arrivals.map((r) => r.at)))
        assert.ok(g + allowanceMs >= DELAY * 1000, `${g} ms between requests, interval ${DELAY * 1000} ms`);
      assert.ok(p.posted.some((m) => m.type === 'sitemapsState' && m.sitemaps.state === 'loading'));
    },
  );

  it(
    'hosts it cannot read (a sitemap 404, a robots.txt 503, a Retry-After of 3600 s): "pages unknown" with why, left out of the total',
    T,
    async () => {
      const p = planner([a.url('/'), gone.url('/'), down.url('/'), waits.url('/')].join('\n'), {
        pagesMode: 'total',
        pages: 1000,
      });
      const t0 = Date.now();
      const view = done(await p.controller.sizeFromSitemaps(''));
      assert.ok(Date.now() - t0 < 20_000, 'an hour is not waited');
      assert.deepEqual(
        view.hosts.map((h) => [h.host, h.pages, h.unknown?.code ?? null]),
        [
          [hostOf(a), 4, null],
          [hostOf(gone), null, 'http-status'],
          [hostOf(down), null, 'robots-unreachable'],
          [hostOf(waits), null, 'http-status'],
        ],
      );
      // The cards: pages unknown, why, and what to do.
      const items = sitemapHostItems(view);
      assert.deepEqual(
        items.map((i) => i.pagesUnknown),
        [false, true, true, true],
      );
      assert.match(
        items[1]!.pagesText,
        /^Pages unknown: 404: the sitemap was not served\. Type its pages under Pages by host/,
      );
      assert.match(items[2]!.pagesText, /^Pages unknown: 503/);
      assert.match(items[3]!.pagesText, /asked to wait 3600 s \(Retry-After: 3600\), above the cap of 300 s/);
      // The plan: the other hosts only, and it says so.
      const summary = p.last('planResult')!.result.summary!;
      assert.match(
        summary.totalText,
        /^at least .* for 4 pages over 1 host; leaves out 3 hosts whose pages are unknown$/,
      );
      assert.ok(summary.warnings.some((w) => w.code === 'pages-unknown'));
      const doc = JSON.parse(p.controller.currentPlanJson()!) as { complete: boolean; unknownHosts: string[] };
      assert.deepEqual([doc.complete, doc.unknownHosts], [false, [hostOf(gone), hostOf(down), hostOf(waits)]]);
      // Nothing more asked of the host that wants an hour.
      assert.deepEqual(
        waits.arrivals.map((r) => r.path),
        ['/robots.txt', '/s.xml'],
      );
    },
  );

  it('"changed since 30d" plans a recrawl: each host\'s pages are its URLs changed since', T, async () => {
    const p = planner(a.url('/'), { pagesMode: 'total', pages: 1000 });
    const view = done(await p.controller.sizeFromSitemaps('30d'));
    assert.ok(view.changedSince !== null);
    assert.deepEqual([view.hosts[0]!.changedSince, view.hosts[0]!.pages], [2, 2]);
    assert.deepEqual(p.last('formSet')!.form.pagesByHost, { [hostOf(a)]: 2 });
    assert.match(p.last('planResult')!.result.summary!.totalText, /for 2 pages/);
  });

  it('Cancel stops a run that hangs: the form stays as it was', T, async () => {
    const p = planner(slow.url('/'), { pagesMode: 'total', pages: 7 });
    const ended = p.controller.sizeFromSitemaps('');
    await slow.waitForArrivals(1, { path: '/sitemap.xml', timeoutMs: 10_000 });
    p.controller.receive({ type: 'cancelSitemaps' });
    assert.deepEqual(await ended, { state: 'off' });
    assert.equal(p.last('formSet'), undefined);
    assert.match(
      p.last('planResult')?.result.summary?.totalText ?? p.last('state')!.result.summary!.totalText,
      /for 7 pages/,
    );
    p.controller.dispose();
  });
});
