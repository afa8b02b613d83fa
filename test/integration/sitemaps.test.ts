/**
 * Sitemap sizing over real loopback servers (src/net/sitemaps.ts): indexes with gzip children, the
 * sitemaps.org limits and a 60 MB body, gzip bombs, malformed XML, loops, cross-host entries, 404 / 5xx /
 * redirects, robots.txt deciding what is fetched and counted, the caps on a run, and politeness judged from
 * the servers' own arrival logs (robots.txt counted). Never the network.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import * as zlib from 'node:zlib';
import { CRAWL_DEFAULTS } from '../../src/core/crawl/engineOptions';
import { sizeFromSitemaps, type SitemapSizingOptions } from '../../src/net/sitemaps';
import {
  SITEMAP_MAX_BYTES_PER_FILE,
  SITEMAP_MAX_URLS_PER_FILE,
  type SitemapHostReport,
  type SitemapSizing,
} from '../../src/core/sitemaps';
import {
  canListenOn,
  gzipBomb,
  redirect,
  startLoopback,
  text,
  type LoopbackHandler,
  type LoopbackServer,
} from '../helpers/loopback';
import { gaps, LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';

const T = { timeout: 60_000 };
const FAST: Partial<SitemapSizingOptions> = { delaySeconds: 0.01 };

/** 127.0.0.N when this machine routes it (Linux), else 127.0.0.1 for all (each server its own port). */
let hostsAvailable = false;
before(async () => {
  hostsAvailable = await canListenOn('127.0.0.22');
});

const servers: LoopbackServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

async function server(host = '127.0.0.1', routes: Record<string, LoopbackHandler> = {}): Promise<LoopbackServer> {
  const srv = await startLoopback({ host: hostsAvailable ? host : '127.0.0.1', routes });
  servers.push(srv);
  return srv;
}

const xml = (body: string, headers: Record<string, string> = {}): LoopbackHandler =>
  text(200, body, { 'content-type': 'application/xml', ...headers });
const gz = (body: string, headers: Record<string, string> = {}): LoopbackHandler =>
  text(200, zlib.gzipSync(body), { 'content-type': 'application/gzip', ...headers });
const urlset = (locs: readonly string[], lastmod?: (i: number) => string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((l, i) => `<url><loc>${l}</loc>${lastmod ? `<lastmod>${lastmod(i)}</lastmod>` : ''}</url>`)
    .join('\n')}\n</urlset>\n`;
const index = (locs: readonly string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const robots = (...lines: string[]) => text(200, ['User-agent: *', ...lines, ''].join('\n'));

function size(inputs: string[], options: Partial<SitemapSizingOptions> = {}): Promise<SitemapSizing> {
  return sizeFromSitemaps(inputs, { productToken: 'SizeBot', userAgentHeader: 'SizeBot/1.0', ...FAST, ...options });
}

function hostOf(s: SitemapSizing, srv: LoopbackServer): SitemapHostReport {
  const h = s.hosts.find((x) => x.host === new URL(srv.origin).host);
  assert.ok(h, `no report for ${srv.origin}`);
  return h;
}

const codes = (h: SitemapHostReport) => h.errors.map((e) => e.code);
const pages = (srv: LoopbackServer, prefix: string, n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => srv.url(`${prefix}${from + i}`));

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

describe('sitemaps: counting across hosts', () => {
  it('cross-host entries count only where that host accepts the file; robots.txt verdicts per origin', T, async (t) => {
    if (!hostsAvailable) return t.skip('needs 127.0.0.N loopback addresses');
    const a = await server('127.0.0.22');
    const cdn = await server('127.0.0.23');
    const b = await server('127.0.0.24');
    const far = 'http://127.0.0.99:1';
    // a names a sitemap kept on cdn; b names the same file; the file lists URLs of a, b, cdn and a host not sized.
    a.route(
      '/robots.txt',
      robots('Disallow: /secret', `Sitemap: ${cdn.url('/shared.xml')}`, `Sitemap: ${a.url('/own.xml')}`),
    );
    b.route('/robots.txt', robots(`Sitemap: ${cdn.url('/shared.xml')}`));
    cdn.route('/robots.txt', robots('Disallow:'));
    cdn.route('/shared.xml', xml(urlset([a.url('/1'), a.url('/secret/2'), b.url('/3'), cdn.url('/4'), `${far}/5`])));
    // a's own file lists b's URLs too: b's robots.txt does not name it, so they are other hosts' URLs.
    a.route('/own.xml', xml(urlset([a.url('/6'), b.url('/7'), b.url('/8')])));
    const s = await size([a.url('/'), b.url('/')]);
    const ha = hostOf(s, a);
    const hb = hostOf(s, b);
    assert.deepEqual([ha.urls, ha.disallowed], [2, 1], 'a: /1 and /6; /secret/2 disallowed');
    assert.deepEqual([hb.urls, hb.disallowed], [1, 0], 'b: /3, from the file its robots.txt names');
    const other = Object.fromEntries(ha.otherHosts.hosts.map((o) => [o.host, o.urls]));
    assert.deepEqual(other, { [new URL(b.origin).host]: 2, [new URL(cdn.origin).host]: 1, '127.0.0.99:1': 1 });
    assert.equal(ha.otherHosts.urls, 4);
    assert.equal(hb.files, 0, 'the shared file was read once, for a');
    assert.equal(cdn.arrivalsFor('/shared.xml').length, 1);
    assert.deepEqual(
      cdn.arrivals.map((x) => x.path),
      ['/robots.txt', '/shared.xml'],
      'robots.txt first on the cdn host too',
    );
  });

  it("URLs of the other scheme of a host get that origin's own robots.txt", T, async () => {
    const srv = await server('127.0.0.21');
    srv.route('/robots.txt', robots('Disallow: /x'));
    srv.route('/sitemap.xml', xml(urlset([srv.url('/x/1'), srv.url('/y/1'), srv.url('/y/2')])));
    const s = await size([srv.url('/')]);
    const h = hostOf(s, srv);
    assert.deepEqual([h.urls, h.disallowed, h.unchecked], [2, 1, 0]);
  });

  it(
    "the other scheme's robots.txt is read after the files, an interval after the host's last request",
    T,
    async () => {
      // One port for both schemes: plain HTTP is served; a TLS hello (https://same-host:port) is noted and cut,
      // so that origin's robots.txt is unreachable and its URLs are disallowed.
      const DELAY = 0.3;
      const host = hostsAvailable ? '127.0.0.21' : '127.0.0.1';
      const arrivals: Array<{ at: number; path: string }> = [];
      const tlsAt: number[] = [];
      let origin = '';
      const web = http.createServer((req, res) => {
        arrivals.push({ at: Date.now(), path: req.url ?? '' });
        const body =
          req.url === '/robots.txt'
            ? `User-agent: *\nDisallow:\nSitemap: ${origin}/s.xml\n`
            : req.url === '/s.xml'
              ? urlset([`${origin}/a`, `${origin}/b`, `${origin.replace('http:', 'https:')}/c`])
              : undefined;
        res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/plain' }).end(body ?? 'not found');
      });
      const sockets = new Set<net.Socket>();
      const front = net.createServer((socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
        socket.once('data', (d) => {
          if (d[0] === 0x16) {
            tlsAt.push(Date.now());
            socket.destroy();
            return;
          }
          socket.unshift(d);
          web.emit('connection', socket);
        });
      });
      await new Promise<void>((resolve) => front.listen(0, host, resolve));
      origin = `http://${host}:${(front.address() as net.AddressInfo).port}`;
      try {
        const lag = measureServerLag();
        const s = await size([`${origin}/`], { delaySeconds: DELAY });
        const allowanceMs = LOOPBACK_SLACK_MS + lag.stop();
        assert.deepEqual(
          arrivals.map((a) => a.path),
          ['/robots.txt', '/s.xml'],
        );
        assert.equal(tlsAt.length, 1, "the https origin's robots.txt was asked once");
        const gap = tlsAt[0]! - arrivals[1]!.at;
        assert.ok(gap + allowanceMs >= DELAY * 1000, `${gap} ms after the host's last request`);
        const h = s.hosts[0]!;
        assert.deepEqual([h.urls, h.disallowed, h.unchecked], [2, 1, 0], 'https://…/c: its robots.txt is unreachable');
        assert.equal(s.requests, 3);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => front.close(() => resolve()));
      }
    },
  );

  it('lastmod summary and changed-since on the real clock', T, async () => {
    const srv = await server('127.0.0.21');
    const now = Date.now();
    const ago = (d: number) => new Date(now - d * 86_400_000).toISOString();
    srv.route(
      '/sitemap.xml',
      xml(urlset(pages(srv, '/p', 5), (i) => [ago(1), ago(20), ago(100), ago(400), 'not a date'][i]!)),
    );
    const s = await size([srv.url('/')], { changedSince: now - 50 * 86_400_000 });
    const h = hostOf(s, srv);
    assert.deepEqual(
      { ...h.lastmod, newest: h.lastmod.newest?.slice(0, 10), oldest: h.lastmod.oldest?.slice(0, 10) },
      {
        newest: ago(1).slice(0, 10),
        oldest: ago(400).slice(0, 10),
        last7d: 1,
        last30d: 2,
        last365d: 3,
        dated: 4,
        undated: 0,
        invalid: 1,
        future: 0,
      },
    );
    assert.equal(h.changedSince, 2);
    assert.equal(s.changedSince, new Date(now - 50 * 86_400_000).toISOString());
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

describe("sitemaps: politeness (the servers' arrival logs)", () => {
  it(
    'requests to one host keep the interval, robots.txt counted; a Crawl-delay raises it; hosts run in parallel',
    T,
    async (t) => {
      if (!hostsAvailable) return t.skip('needs 127.0.0.N loopback addresses');
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
