/**
 * Sitemap sizing over real loopback servers (src/net/sitemaps.ts) when files fail or are too big: 404 and 5xx,
 * redirects and their limits, malformed XML, HTML and feeds, loops and too-deep indexes, the sitemaps.org limits
 * (entries per file, a 60 MB body read to 50 MiB, a gzip bomb), and the caps on a run (--max-files, --max-urls).
 * Never the network (test/helpers/sitemapServers.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SITEMAP_MAX_BYTES_PER_FILE, SITEMAP_MAX_URLS_PER_FILE } from '../../src/core/sitemaps';
import { gzipBomb, redirect, text } from '../helpers/loopback';
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

describe('sitemaps: failures', () => {
  it('404 and 5xx answers are errors; the rest still counts', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route(
      '/robots.txt',
      robots(
        `Sitemap: ${srv.url('/gone.xml')}`,
        `Sitemap: ${srv.url('/broken.xml')}`,
        `Sitemap: ${srv.url('/ok.xml')}`,
      ),
    );
    srv.route('/broken.xml', text(500, 'oops'));
    srv.route('/ok.xml', xml(urlset(pages(srv, '/p', 3))));
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.deepEqual(codes(h), ['http-status', 'http-status']);
    assert.match(h.errors[0]!.message, /^404/);
    assert.match(h.errors[1]!.message, /^500/);
    assert.deepEqual(
      h.sitemaps.map((f) => f.status),
      [404, 500, 200],
    );
    assert.equal(h.urls, 3);
    assert.equal(h.files, 1, 'only files that were read count');
  });

  it('a redirect is followed, each hop a request of its own; too many redirects and loops are errors', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route(
      '/robots.txt',
      robots(`Sitemap: ${srv.url('/old.xml')}`, `Sitemap: ${srv.url('/loop-a.xml')}`, `Sitemap: ${srv.url('/r0.xml')}`),
    );
    srv.route('/old.xml', redirect(301, '/new.xml'));
    srv.route('/new.xml', xml(urlset(pages(srv, '/p', 2))));
    srv.route('/loop-a.xml', redirect(302, '/loop-b.xml'));
    srv.route('/loop-b.xml', redirect(302, '/loop-a.xml'));
    for (let i = 0; i < 7; i++) srv.route(`/r${i}.xml`, redirect(307, `/r${i + 1}.xml`));
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.equal(h.urls, 2);
    const old = h.sitemaps.find((f) => f.url.endsWith('/old.xml'))!;
    assert.deepEqual(old.redirects, [{ status: 301, to: srv.url('/new.xml') }]);
    assert.equal(old.error, null);
    assert.deepEqual(codes(h), ['redirect', 'redirect']);
    assert.match(h.errors[0]!.message, /redirect loop/);
    assert.match(h.errors[1]!.message, /more than 5 redirects/);
    assert.equal(srv.arrivalsFor('/r5.xml').length, 1);
    assert.equal(srv.arrivalsFor('/r6.xml').length, 0);
  });

  it(
    'malformed XML: repaired, reported, and counted as far as it reads; HTML and feeds are not sitemaps',
    T,
    async () => {
      const srv = await server('127.0.0.21');
      srv.route(
        '/robots.txt',
        robots(
          `Sitemap: ${srv.url('/bad.xml')}`,
          `Sitemap: ${srv.url('/cut.xml')}`,
          `Sitemap: ${srv.url('/page.xml')}`,
          `Sitemap: ${srv.url('/feed.xml')}`,
        ),
      );
      srv.route(
        '/bad.xml',
        xml(`<urlset><url><loc>${srv.url('/1')}</lox></url><url><loc>${srv.url('/2?a=1&b=2')}</loc></url></urlset>`),
      );
      srv.route('/cut.xml', xml(`<urlset><url><loc>${srv.url('/3')}</loc></url><url><loc>${srv.url('/4')}`));
      srv.route(
        '/page.xml',
        text(200, '<!DOCTYPE html><html><body>Not found</body></html>', { 'content-type': 'text/html' }),
      );
      srv.route(
        '/feed.xml',
        xml(`<rss version="2.0"><channel><item><link>${srv.url('/5')}</link></item></channel></rss>`),
      );
      const s = await size([srv.url('/')]);
      const h = hostOf(s, srv);
      assert.equal(h.urls, 3, '/1, /2?a=1&b=2 and /3; /4 was cut off');
      assert.deepEqual(codes(h), ['malformed', 'malformed', 'not-a-sitemap', 'feed']);
      assert.match(h.errors[0]!.message, /<loc> was not closed/);
      assert.match(h.errors[1]!.message, /the document ends inside <loc>/);
      assert.match(h.errors[2]!.message, /root element is <html>/);
    },
  );

  it('a loop of indexes: each file fetched once, the loop reported', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/a.xml')}`));
    srv.route('/a.xml', xml(index([srv.url('/b.xml'), srv.url('/leaf.xml')])));
    srv.route('/b.xml', xml(index([srv.url('/a.xml'), srv.url('/leaf.xml')])));
    srv.route('/leaf.xml', xml(urlset(pages(srv, '/p', 2))));
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.deepEqual(codes(h), ['loop']);
    assert.match(h.errors[0]!.message, /a\.xml, which leads back to itself/);
    for (const p of ['/a.xml', '/b.xml', '/leaf.xml']) assert.equal(srv.arrivalsFor(p).length, 1, p);
    assert.equal(h.urls, 2);
  });

  it('indexes nested deeper than two levels are not followed', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/i0.xml')}`));
    srv.route('/i0.xml', xml(index([srv.url('/i1.xml')])));
    srv.route('/i1.xml', xml(index([srv.url('/i2.xml')])));
    srv.route('/i2.xml', xml(index([srv.url('/leaf.xml')])));
    srv.route('/leaf.xml', xml(urlset(pages(srv, '/p', 1))));
    const h = hostOf(await size([srv.url('/')]), srv);
    assert.deepEqual(codes(h), ['too-deep']);
    assert.equal(srv.arrivalsFor('/leaf.xml').length, 0);
  });
});

describe('sitemaps: the sitemaps.org limits', () => {
  it(
    `${SITEMAP_MAX_URLS_PER_FILE.toLocaleString('en-US')} URLs in one file are read; one more stops the file`,
    T,
    async () => {
      const srv = await server('127.0.0.21');
      srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/full.xml')}`, `Sitemap: ${srv.url('/over.xml.gz')}`));
      srv.route('/full.xml', xml(urlset(pages(srv, '/f', SITEMAP_MAX_URLS_PER_FILE))));
      srv.route('/over.xml.gz', gz(urlset(pages(srv, '/o', SITEMAP_MAX_URLS_PER_FILE + 1))));
      const h = hostOf(await size([srv.url('/')]), srv);
      assert.equal(h.urls, 2 * SITEMAP_MAX_URLS_PER_FILE);
      assert.deepEqual(codes(h), ['too-many-urls']);
      assert.equal(h.errors[0]!.url, srv.url('/over.xml.gz'));
      assert.deepEqual(
        h.sitemaps.map((f) => f.entries),
        [SITEMAP_MAX_URLS_PER_FILE, SITEMAP_MAX_URLS_PER_FILE],
      );
    },
  );

  it('a 60 MB body is read to 50 MiB, what came before counts; a gzip bomb stops there too', T, async () => {
    const srv = await server('127.0.0.21');
    // Entries of about 1.2 KB (an image caption each, as image sitemaps have): 50 MiB holds fewer than 50,000.
    const caption = 'x'.repeat(1150);
    const entry = (i: number) =>
      `<url><loc>${srv.url(`/big/${String(i).padStart(7, '0')}`)}</loc><image:image><image:caption>${caption}</image:caption></image:image></url>\n`;
    const per = Buffer.byteLength(entry(0));
    const head = '<?xml version="1.0"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
    // 60 MB of entries streamed as fast as the client reads, announced by Content-Length.
    const total = 60_000_000;
    const count = Math.floor((total - head.length) / per);
    srv.route(
      '/robots.txt',
      robots(
        `Sitemap: ${srv.url('/big.xml')}`,
        `Sitemap: ${srv.url('/bomb.xml.gz')}`,
        `Sitemap: ${srv.url('/ce-bomb.xml')}`,
      ),
    );
    srv.route('/big.xml', (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/xml',
        'content-length': Buffer.byteLength(head) + count * per,
      });
      let i = 0;
      res.write(head);
      const pump = () => {
        while (i < count) {
          let chunk = '';
          for (let k = 0; k < 1000 && i < count; k++) chunk += entry(i++);
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (i = count));
      pump();
    });
    // A .gz file: a urlset opened, then 60 MiB of spaces (about 60 KB compressed).
    srv.route(
      '/bomb.xml.gz',
      gz(`<urlset><url><loc>${srv.url('/before-bomb')}</loc></url>` + ' '.repeat(60 * 1024 * 1024)),
    );
    srv.route('/ce-bomb.xml', gzipBomb({ 'content-type': 'application/xml' }));
    const t0 = performance.now();
    const s = await size([srv.url('/')], { delaySeconds: 0, totals: { urls: 2_000_000 } });
    const h = hostOf(s, srv);
    const [big, bomb, ceBomb] = h.sitemaps;
    assert.equal(big!.error, 'too-large');
    assert.equal(big!.bytes, SITEMAP_MAX_BYTES_PER_FILE);
    const whole = Math.floor((SITEMAP_MAX_BYTES_PER_FILE - head.length) / per);
    assert.ok(big!.entries === whole, `${big!.entries} entries read, ${whole} whole ones in 50 MiB`);
    assert.equal(bomb!.gzip, true);
    assert.equal(bomb!.error, 'too-large');
    assert.equal(bomb!.bytes, SITEMAP_MAX_BYTES_PER_FILE);
    assert.equal(ceBomb!.error, 'too-large');
    assert.equal(ceBomb!.bytes, SITEMAP_MAX_BYTES_PER_FILE);
    assert.equal(h.urls, whole + 1, 'the 50 MiB of entries and the one before the bomb');
    assert.deepEqual(codes(h), ['too-large', 'too-large', 'too-large']);
    assert.match(h.errors[0]!.message, /larger than 52,428,800 bytes uncompressed/);
    assert.ok(performance.now() - t0 < 50_000);
  });
});

describe('sitemaps: caps on the run', () => {
  it('--max-files: files past the cap are not fetched, and the counts say they are lower bounds', T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots(`Sitemap: ${srv.url('/i.xml')}`));
    srv.route('/i.xml', xml(index([srv.url('/s1.xml'), srv.url('/s2.xml'), srv.url('/s3.xml')])));
    for (const n of [1, 2, 3]) srv.route(`/s${n}.xml`, xml(urlset(pages(srv, `/s${n}-`, 2))));
    const s = await size([srv.url('/')], { totals: { files: 2 } });
    const h = hostOf(s, srv);
    assert.equal(s.complete, false);
    assert.equal(h.urls, 2);
    assert.deepEqual(codes(h), ['limit']);
    assert.match(h.errors[0]!.message, /^2 sitemap files not read: the cap of 2 files per run was reached/);
    assert.equal(srv.arrivalsFor('/s2.xml').length + srv.arrivalsFor('/s3.xml').length, 0);
  });

  it('--max-urls: counting stops at the cap', T, async () => {
    const srv = await server('127.0.0.21', {});
    srv.route('/sitemap.xml', xml(urlset(pages(srv, '/p', 50))));
    const s = await size([srv.url('/')], { totals: { urls: 10 } });
    const h = hostOf(s, srv);
    assert.equal(s.complete, false);
    assert.equal(h.urls, 10);
    assert.deepEqual(codes(h), ['limit']);
  });
});
