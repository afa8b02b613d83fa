/**
 * Sitemap sizing's politeness (src/net/sitemaps.ts), judged from the loopback servers' own arrival logs with
 * robots.txt counted: the interval per host, Crawl-delay, hosts in parallel, a 503 raising the interval,
 * Retry-After pausing the host (or, above the cap, leaving it), and 429 and 5xx waited out and retried through the
 * host queue like pages, one host's pause leaving the others going. Never the network
 * (test/helpers/sitemapServers.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CRAWL_DEFAULTS } from '../../src/core/crawl/engineOptions';
import { redirect, text, type LoopbackHandler } from '../helpers/loopback';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';
import {
  codes,
  gz,
  hostOf,
  hostsAvailable,
  index,
  pages,
  robots,
  server,
  size,
  T,
  urlset,
  useSitemapServers,
  xml,
} from '../helpers/sitemapServers';

useSitemapServers();

describe("sitemaps: politeness (the servers' arrival logs)", () => {
  it(
    'requests to one host keep the interval, robots.txt counted; a Crawl-delay raises it; hosts run in parallel',
    T,
    async (t) => {
      if (!hostsAvailable()) return t.skip('needs 127.0.0.N loopback addresses');
      const DELAY = 0.25;
      const CRAWL_DELAY = 0.5;
      const plain = await server('127.0.0.25');
      const slow = await server('127.0.0.26');
      plain.route('/robots.txt', robots(`Sitemap: ${plain.url('/i.xml')}`));
      plain.route('/i.xml', xml(index([plain.url('/a.xml'), plain.url('/b.xml.gz'), plain.url('/old.xml')])));
      plain.route('/a.xml', xml(urlset(pages(plain, '/a', 3))));
      plain.route('/b.xml.gz', gz(urlset(pages(plain, '/b', 3))));
      plain.route('/old.xml', redirect(301, '/new.xml'));
      plain.route('/new.xml', xml(urlset(pages(plain, '/n', 3))));
      slow.route(
        '/robots.txt',
        robots(`Crawl-delay: ${CRAWL_DELAY}`, `Sitemap: ${slow.url('/s1.xml')}`, `Sitemap: ${slow.url('/s2.xml')}`),
      );
      slow.route('/s1.xml', xml(urlset(pages(slow, '/p', 2))));
      slow.route('/s2.xml', xml(urlset(pages(slow, '/q', 2))));
      const lag = measureServerLag();
      const t0 = Date.now();
      const s = await size([plain.url('/'), slow.url('/')], { delaySeconds: DELAY });
      const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
      assert.deepEqual(
        plain.arrivals.map((a) => a.path),
        ['/robots.txt', '/i.xml', '/a.xml', '/b.xml.gz', '/old.xml', '/new.xml'],
      );
      assert.deepEqual(
        slow.arrivals.map((a) => a.path),
        ['/robots.txt', '/s1.xml', '/s2.xml'],
      );
      for (const g of gaps(plain.arrivals.map((a) => a.at)))
        assert.ok(g + allowanceMs >= DELAY * 1000, `plain: ${g} ms between requests, interval ${DELAY * 1000} ms`);
      for (const g of gaps(slow.arrivals.map((a) => a.at)))
        assert.ok(
          g + allowanceMs >= CRAWL_DELAY * 1000,
          `crawl-delay: ${g} ms between requests, Crawl-delay ${CRAWL_DELAY * 1000} ms`,
        );
      assert.equal(hostOf(s, slow).intervalSeconds, CRAWL_DELAY);
      assert.equal(hostOf(s, plain).intervalSeconds, DELAY);
      // In parallel: the slow host's three requests did not wait behind the other host's six.
      assert.ok(slow.arrivals[0]!.at - t0 < 5 * DELAY * 1000, 'the second host started at once');
      assert.equal(s.requests, 9);
      assert.equal(hostOf(s, plain).urls, 9);
    },
  );

  it('a 503 raises the host interval at once (to at least 1 s from a 50 ms delay)', T, async () => {
    const DELAY = 0.05;
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/busy.xml')}`, `Sitemap: ${srv.url('/next.xml')}`));
    srv.route('/busy.xml', text(503, 'busy'));
    srv.route('/next.xml', xml(urlset(pages(srv, '/p', 1))));
    const lag = measureServerLag();
    const h = hostOf(await size([srv.url('/')], { delaySeconds: DELAY }), srv);
    const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
    const [robotsTxt, busy, next] = srv.arrivals;
    assert.deepEqual([robotsTxt!.path, busy!.path, next!.path], ['/robots.txt', '/busy.xml', '/next.xml']);
    assert.ok(busy!.at - robotsTxt!.at + allowanceMs >= DELAY * 1000);
    assert.ok(next!.at - busy!.at + allowanceMs >= 1000, `${next!.at - busy!.at} ms after the 503`);
    assert.equal(h.intervalSeconds, DELAY, 'the planned interval is unchanged; the raise is live');
  });

  it('a Retry-After on 503 pauses the host that long; one above the cap leaves the host', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/busy.xml')}`, `Sitemap: ${srv.url('/next.xml')}`));
    srv.route('/busy.xml', text(503, 'busy', { 'retry-after': '2' }));
    srv.route('/next.xml', xml(urlset(pages(srv, '/p', 1))));
    const lag = measureServerLag();
    await size([srv.url('/')], { delaySeconds: 0.05 });
    const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
    const [, busy, next] = srv.arrivals;
    assert.equal(next!.path, '/next.xml');
    assert.ok(next!.at - busy!.at + allowanceMs >= 2000, `${next!.at - busy!.at} ms after the 503 with Retry-After: 2`);

    const far = await server('127.0.0.21');
    far.route('/robots.txt', robots(`Sitemap: ${far.url('/busy.xml')}`, `Sitemap: ${far.url('/next.xml')}`));
    far.route('/busy.xml', text(429, 'slow down', { 'retry-after': '3600' }));
    const h = hostOf(await size([far.url('/')], { delaySeconds: 0.05 }), far);
    assert.deepEqual(codes(h), ['http-status', 'retry-after']);
    assert.match(h.errors[1]!.message, /asked to wait 3600 s \(Retry-After: 3600\), above the cap of 300 s/);
    assert.equal(far.arrivalsFor('/next.xml').length, 0);
  });
});

/** Answers `first` to the first `times` requests, then `then`. */
function answers(first: LoopbackHandler, then: LoopbackHandler, times = 1): LoopbackHandler {
  let n = 0;
  return (req, res, arrival) => (n++ < times ? first : then)(req, res, arrival);
}

describe('sitemaps: 429 and 5xx are waited out and retried through the host queue, like pages', () => {
  it(
    "a 429 with Retry-After: 1 (a rate limiter's text/plain answer) is asked again after the pause, and its URLs count",
    T,
    async () => {
      const srv = await server('127.0.0.21');
      srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/s.xml')}`));
      srv.route(
        '/s.xml',
        answers(
          text(429, '<html><body>429 Too Many Requests</body></html>', {
            'content-type': 'text/plain',
            'retry-after': '1',
          }),
          xml(urlset(pages(srv, '/p', 4))),
        ),
      );
      const lag = measureServerLag();
      const s = await size([srv.url('/')], { delaySeconds: 0.05 });
      const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
      assert.deepEqual(
        srv.arrivals.map((a) => a.path),
        ['/robots.txt', '/s.xml', '/s.xml'],
      );
      const [, limited, again] = srv.arrivals;
      assert.ok(
        again!.at - limited!.at + allowanceMs >= 1000,
        `asked again ${again!.at - limited!.at} ms after the 429`,
      );
      const h = hostOf(s, srv);
      assert.deepEqual([h.urls, h.files, h.errors], [4, 1, []]);
      assert.deepEqual([h.sitemaps[0]!.status, h.sitemaps[0]!.error], [200, null]);
      assert.equal(s.requests, 3, 'robots.txt, the 429, the retry');
      assert.equal(s.complete, true);
    },
  );

  it('a 503 without Retry-After is retried with backoff; the gaps after it keep the raised interval', T, async () => {
    const DELAY = 0.05;
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/busy.xml')}`, `Sitemap: ${srv.url('/next.xml')}`));
    srv.route('/busy.xml', answers(text(503, 'busy'), xml(urlset(pages(srv, '/b', 2)))));
    srv.route('/next.xml', xml(urlset(pages(srv, '/n', 3))));
    const lag = measureServerLag();
    const s = await size([srv.url('/')], { delaySeconds: DELAY });
    const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
    const arrivals = srv.arrivals.map((a) => a.path);
    assert.equal(arrivals[0], '/robots.txt');
    assert.equal(srv.arrivalsFor('/busy.xml').length, 2, 'the 503 and its retry');
    assert.equal(srv.arrivalsFor('/next.xml').length, 1);
    // After the 503 the host is kept to at least 1 s (from 50 ms), and a success brings it down by 0.9 only.
    const i = srv.arrivals.findIndex((a) => a.path === '/busy.xml');
    const after503 = gaps(srv.arrivals.slice(i).map((a) => a.at));
    assert.ok(after503[0]! + allowanceMs >= 1000, `${after503[0]} ms after the 503`);
    assert.ok(after503[1]! + allowanceMs >= 900, `${after503[1]} ms after the next success, raised 1 s × 0.9`);
    for (const g of gaps(srv.arrivals.map((a) => a.at))) assert.ok(g + allowanceMs >= DELAY * 1000);
    const h = hostOf(s, srv);
    assert.deepEqual([h.urls, h.files, codes(h)], [5, 2, []]);
    assert.equal(h.intervalSeconds, DELAY, 'the planned interval; the raise is live');
  });

  it("a Retry-After given as an HTTP-date is waited out, measured against the server's Date", T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/s.xml')}`));
    srv.route(
      '/s.xml',
      answers(
        (req, res, arrival) => {
          const now = Date.now();
          return text(429, 'slow down', {
            date: new Date(now).toUTCString(),
            'retry-after': new Date(now + 3000).toUTCString(),
          })(req, res, arrival);
        },
        xml(urlset(pages(srv, '/p', 2))),
      ),
    );
    const lag = measureServerLag();
    const s = await size([srv.url('/')], { delaySeconds: 0.05 });
    const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
    const [limited, again] = srv.arrivalsFor('/s.xml');
    assert.ok(again, 'asked again');
    assert.ok(again.at - limited!.at + allowanceMs >= 3000, `asked again ${again.at - limited!.at} ms after the 429`);
    assert.deepEqual([hostOf(s, srv).urls, codes(hostOf(s, srv))], [2, []]);
  });

  it("retries give up after the crawl's retry limit: http-status with the status", T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/down.xml')}`));
    srv.route('/down.xml', text(503, 'down'));
    const lag = measureServerLag();
    const s = await size([srv.url('/')], { delaySeconds: 0.05 });
    const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
    const attempts = CRAWL_DEFAULTS.maxRetries + 1;
    assert.equal(srv.arrivalsFor('/down.xml').length, attempts);
    for (const g of gaps(srv.arrivalsFor('/down.xml').map((a) => a.at)))
      assert.ok(g + allowanceMs >= 1000, `${g} ms between two tries of a 503`);
    const h = hostOf(s, srv);
    assert.deepEqual(codes(h), ['http-status']);
    assert.equal(h.errors[0]!.url, srv.url('/down.xml'));
    assert.match(h.errors[0]!.message, new RegExp(`^503: the sitemap was not served; ${attempts} attempts$`));
    assert.deepEqual([h.sitemaps[0]!.status, h.sitemaps[0]!.error, h.files], [503, 'http-status', 0]);
    assert.equal(s.requests, 1 + attempts);
  });

  it("one host's 429 pauses that host only: the other's requests go on meanwhile", T, async () => {
    const DELAY = 0.2;
    const busy = await server('127.0.0.21');
    const free = await server('127.0.0.21');
    busy.route('/robots.txt', robots(`Sitemap: ${busy.url('/a.xml')}`, `Sitemap: ${busy.url('/b.xml')}`));
    busy.route('/a.xml', answers(text(429, 'slow down', { 'retry-after': '2' }), xml(urlset(pages(busy, '/a', 2)))));
    busy.route('/b.xml', xml(urlset(pages(busy, '/b', 2))));
    free.route('/robots.txt', robots(...[1, 2, 3, 4, 5].map((n) => `Sitemap: ${free.url(`/f${n}.xml`)}`)));
    for (const n of [1, 2, 3, 4, 5]) free.route(`/f${n}.xml`, xml(urlset(pages(free, `/f${n}-`, 1))));
    const lag = measureServerLag();
    const s = await size([busy.url('/'), free.url('/')], { delaySeconds: DELAY });
    const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
    const limited = busy.arrivalsFor('/a.xml')[0]!;
    const pauseEnd = limited.at + 2000;
    const later = busy.arrivals.filter((a) => a.seq > limited.seq);
    assert.deepEqual(
      later.map((a) => a.path),
      ['/b.xml', '/a.xml'],
      'the other file first, then the retry',
    );
    for (const a of later) assert.ok(a.at + allowanceMs >= pauseEnd, `${a.path} ${pauseEnd - a.at} ms into the pause`);
    const during = free.arrivals.filter((a) => a.at > limited.at && a.at < pauseEnd);
    assert.ok(during.length >= 3, `the other host went on during the pause (${during.length} requests)`);
    for (const g of gaps(free.arrivals.map((a) => a.at))) assert.ok(g + allowanceMs >= DELAY * 1000);
    assert.deepEqual(
      [hostOf(s, busy).urls, hostOf(s, free).urls, codes(hostOf(s, busy)), codes(hostOf(s, free))],
      [4, 5, [], []],
    );
  });
});
