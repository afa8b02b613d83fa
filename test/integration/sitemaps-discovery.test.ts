/**
 * Where sitemap sizing over real loopback servers (src/net/sitemaps.ts) finds the sitemaps: an index named by
 * robots.txt with gzip children, /sitemap.xml when robots.txt names none, a text sitemap, no sitemap at all,
 * robots.txt unreachable or disallowing a sitemap; and its input (a URL that is not http(s), an abort). Never the
 * network (test/helpers/sitemapServers.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { sizeFromSitemaps } from '../../src/net/sitemaps';
import { text } from '../helpers/loopback';
import {
  codes,
  gz,
  hostOf,
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

describe('sitemaps: where they come from', () => {
  it(
    'an index named by robots.txt with gzip children: a .gz file, Content-Encoding gzip, and both at once',
    T,
    async () => {
      const srv = await server('127.0.0.21');
      srv.route('/robots.txt', robots('Disallow: /private', `Sitemap: ${srv.url('/index.xml')}`));
      srv.route('/index.xml', xml(index([srv.url('/a.xml.gz'), srv.url('/b.xml'), srv.url('/c.xml.gz')])));
      srv.route('/a.xml.gz', gz(urlset(pages(srv, '/a', 3))));
      srv.route(
        '/b.xml',
        text(200, zlib.gzipSync(urlset([...pages(srv, '/b', 2), srv.url('/private/x')])), {
          'content-type': 'application/xml',
          'content-encoding': 'gzip',
        }),
      );
      // A .gz file that the server also marks Content-Encoding: gzip (a common misconfiguration): two layers.
      srv.route(
        '/c.xml.gz',
        text(200, zlib.gzipSync(zlib.gzipSync(urlset([...pages(srv, '/c', 2), srv.url('/a0')]))), {
          'content-type': 'application/gzip',
          'content-encoding': 'gzip',
        }),
      );
      const s = await size([srv.url('/')]);
      const h = hostOf(s, srv);
      assert.equal(h.source, 'robots.txt');
      assert.equal(h.urls, 7, 'a0-a2, b0-b1, c0-c1');
      assert.equal(h.disallowed, 1);
      assert.equal(h.duplicates, 1, '/a0 twice');
      assert.equal(h.files, 4);
      assert.deepEqual(h.errors, []);
      assert.deepEqual(
        h.sitemaps.map((f) => [new URL(f.url).pathname, f.via, f.depth, f.format, f.gzip, f.entries]),
        [
          ['/index.xml', 'robots.txt', 0, 'sitemapindex', false, 3],
          ['/a.xml.gz', 'index', 1, 'urlset', true, 3],
          ['/b.xml', 'index', 1, 'urlset', false, 3],
          ['/c.xml.gz', 'index', 1, 'urlset', true, 3],
        ],
      );
      assert.equal(s.requests, 5);
      assert.equal(s.complete, true);
      assert.equal(srv.arrivals[0]!.path, '/robots.txt', 'robots.txt is the first request on the host');
      for (const a of srv.arrivals) assert.equal(a.userAgent, 'SizeBot/1.0');
    },
  );

  it('no Sitemap line: /sitemap.xml; robots.txt 404 counts as no Sitemap line; a text sitemap', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/sitemap.xml', text(200, `${srv.url('/1')}\n${srv.url('/2')}\n`));
    const s = await size([srv.url('/some/page')]);
    const h = hostOf(s, srv);
    assert.equal(h.source, 'fallback');
    assert.equal(h.urls, 2);
    assert.equal(h.sitemaps[0]!.format, 'text');
    assert.deepEqual(
      srv.arrivals.map((a) => a.path),
      ['/robots.txt', '/sitemap.xml'],
    );
  });

  it('no sitemap at all: robots.txt names none and /sitemap.xml answers 404', T, async () => {
    const srv = await server('127.0.0.21', { '/robots.txt': robots('Disallow:') });
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.deepEqual(codes(h), ['no-sitemap']);
    assert.match(h.errors[0]!.message, /robots\.txt names no sitemap, and .*\/sitemap\.xml answered 404/);
    assert.equal(h.urls, 0);
    assert.equal(h.files, 0);
  });

  it('robots.txt unreachable (503): nothing else is fetched from the origin', T, async () => {
    const srv = await server('127.0.0.21', { '/robots.txt': text(503, 'down') });
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.deepEqual(codes(h), ['robots-unreachable']);
    assert.deepEqual(
      srv.arrivals.map((a) => a.path),
      ['/robots.txt'],
    );
  });

  it('a sitemap that robots.txt disallows is not fetched', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route(
      '/robots.txt',
      robots('Disallow: /maps/', `Sitemap: ${srv.url('/maps/s.xml')}`, `Sitemap: ${srv.url('/ok.xml')}`),
    );
    srv.route('/ok.xml', xml(urlset(pages(srv, '/p', 2))));
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.deepEqual(codes(h), ['disallowed']);
    assert.match(h.errors[0]!.message, /line 2: Disallow: \/maps\//);
    assert.equal(srv.arrivalsFor('/maps/s.xml').length, 0);
    assert.equal(h.urls, 2);
  });
});

describe('sitemaps: input', () => {
  it('a URL that is not http(s) is refused before any request', T, async () => {
    await assert.rejects(size(['ftp://x.example/']), { name: 'UnsupportedUrlError' });
  });

  it('an abort stops the run and rejects', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/a.xml')}`, `Sitemap: ${srv.url('/b.xml')}`));
    srv.route('/a.xml', xml(urlset(pages(srv, '/p', 1))));
    srv.route('/b.xml', xml(urlset(pages(srv, '/q', 1))));
    const controller = new AbortController();
    const run = sizeFromSitemaps(
      [srv.url('/')],
      { productToken: 'SizeBot', userAgentHeader: 'SizeBot/1.0', delaySeconds: 5, onFile: () => controller.abort() },
      controller.signal,
    );
    await assert.rejects(run, { name: 'AbortError' });
    assert.equal(srv.arrivalsFor('/b.xml').length, 0);
  });
});
