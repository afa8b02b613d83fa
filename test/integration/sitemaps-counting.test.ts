/**
 * What sitemap sizing over real loopback servers (src/net/sitemaps.ts) counts across hosts: cross-host entries only
 * where that host accepts the file, robots.txt verdicts per origin (the other scheme's robots.txt too, read an
 * interval after the host's last request), and the lastmod summary and changed-since on the real clock. Never the
 * network (test/helpers/sitemapServers.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { LOOPBACK_SLACK_MS, measureServerLag } from '../helpers/serverLag';
import {
  hostOf,
  hostsAvailable,
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

describe('sitemaps: counting across hosts', () => {
  it('cross-host entries count only where that host accepts the file; robots.txt verdicts per origin', T, async (t) => {
    if (!hostsAvailable()) return t.skip('needs 127.0.0.N loopback addresses');
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
      const host = hostsAvailable() ? '127.0.0.21' : '127.0.0.1';
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
