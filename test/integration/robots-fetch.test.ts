/**
 * fetchRobots (RFC 9309 §2.3, §2.5) against real loopback servers: status → outcome, redirects, limits,
 * hostile servers, raw bytes. Time is only asserted as an upper bound ("does not hang").
 */
import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import * as zlib from 'node:zlib';
import { createHttpClient, UnsupportedUrlError, type HttpClient } from '../../src/net/http';
import { fetchRobots, outcomeForStatus, robotsLocation, type RobotsFetchResult } from '../../src/net/robotsFetch';
import {
  gzipBomb,
  canListenOn,
  closedPort,
  endless,
  hang,
  redirect,
  resetMidBody,
  startLoopback,
  startRawLoopback,
  text,
  trickle,
  type LoopbackServer,
} from '../helpers/loopback';

const TOKEN = 'CrawlPlannerTest';
const UA = `${TOKEN}/0.1 (+https://example.invalid/bot; polite crawl planning)`;
const T = { timeout: 15_000 };
const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

function text8(r: RobotsFetchResult): string {
  assert.ok(r.body, `no body (${r.outcome}: ${r.reason})`);
  return Buffer.from(r.body).toString('utf8');
}

describe('robots fetch: status → outcome (RFC 9309 §2.3.1)', () => {
  let a: LoopbackServer;
  let client: HttpClient;
  before(async () => {
    a = await startLoopback();
    client = createHttpClient({ userAgent: UA, connectTimeoutMs: 2_000 });
  });
  after(async () => {
    await client.close();
    await a.close();
  });

  it('200 → ok with the raw body; GET is for exactly /robots.txt with our User-Agent', T, async () => {
    a.route('/robots.txt', text(200, 'User-agent: *\nDisallow: /private\n'));
    const r = await fetchRobots(a.url('/some/page?x=1'), { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.status, 200);
    assert.equal(text8(r), 'User-agent: *\nDisallow: /private\n');
    assert.equal(r.bytes, 33);
    assert.equal(r.truncated, false);
    assert.equal(r.origin, a.origin);
    assert.equal(r.robotsUrl, `${a.origin}/robots.txt`);
    assert.equal(r.finalUrl, r.robotsUrl);
    assert.deepEqual(r.redirects, []);
    assert.equal(r.error, undefined);
    const last = a.arrivals.at(-1);
    assert.equal(last?.path, '/robots.txt');
    assert.equal(last?.method, 'GET');
    assert.ok(last?.userAgent?.includes(TOKEN), `User-Agent was ${last?.userAgent}`);
  });

  it('204 and an HTML "soft 404" are still ok (the content type is not checked)', T, async () => {
    a.route('/robots.txt', (_req, res) => void res.writeHead(204).end());
    const empty = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(empty.outcome, 'ok');
    assert.equal(empty.bytes, 0);
    a.route('/robots.txt', text(200, '<html><body>Not here</body></html>', { 'content-type': 'text/html' }));
    assert.equal((await fetchRobots(a.origin, { userAgent: UA, client })).outcome, 'ok');
  });

  for (const status of [400, 401, 403, 404, 410, 451]) {
    it(`${status} → unavailable (allow all); the body saying Disallow: / is ignored`, T, async () => {
      a.route('/robots.txt', text(status, DISALLOW_ALL));
      const r = await fetchRobots(a.origin, { userAgent: UA, client });
      assert.equal(r.outcome, 'unavailable');
      assert.equal(r.status, status);
      assert.equal(r.body, undefined);
      assert.equal(r.bytes, 0);
      assert.match(r.reason, /allowed/);
    });
  }

  for (const status of [429, 500, 502, 503, 504]) {
    it(`${status} → unreachable (disallow all), Retry-After kept`, T, async () => {
      a.route('/robots.txt', text(status, DISALLOW_ALL, { 'retry-after': '120' }));
      const r = await fetchRobots(a.origin, { userAgent: UA, client });
      assert.equal(r.outcome, 'unreachable');
      assert.equal(r.status, status);
      assert.equal(r.retryAfter, '120');
      assert.equal(r.body, undefined);
      assert.match(r.reason, /disallowed/);
      if (status === 429) assert.match(r.reason, /like 5xx/);
    });
  }

  it('a final 600 status → unreachable', T, async () => {
    const raw = await startRawLoopback((s) => s.end('HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n'));
    try {
      const r = await fetchRobots(raw.origin, { userAgent: UA, client });
      assert.equal(r.outcome, 'unreachable');
      assert.equal(r.status, 600);
    } finally {
      await raw.close();
    }
  });

  it('outcomeForStatus covers the classes', () => {
    const table: Array<[number, string]> = [
      [100, 'unreachable'],
      [200, 'ok'],
      [206, 'ok'],
      [299, 'ok'],
      [304, 'unreachable'],
      [400, 'unavailable'],
      [418, 'unavailable'],
      [429, 'unreachable'],
      [499, 'unavailable'],
      [500, 'unreachable'],
      [599, 'unreachable'],
      [600, 'unreachable'],
      [999, 'unreachable'],
    ];
    for (const [status, outcome] of table) assert.equal(outcomeForStatus(status), outcome, String(status));
  });
});

describe('robots fetch: redirects (RFC 9309 §2.3.1.2)', () => {
  let a: LoopbackServer;
  let b: LoopbackServer;
  let client: HttpClient;
  before(async () => {
    a = await startLoopback();
    // A different authority: 127.0.0.2 where the OS allows it (Linux), else another port on 127.0.0.1.
    b = await startLoopback({ host: (await canListenOn('127.0.0.2')) ? '127.0.0.2' : '127.0.0.1' });
    client = createHttpClient({ userAgent: UA });
  });
  after(async () => {
    await client.close();
    await a.close();
    await b.close();
  });
  let aBefore = 0;
  let bBefore = 0;
  beforeEach(() => {
    aBefore = a.arrivals.length;
    bBefore = b.arrivals.length;
  });

  it('1 redirect → ok', T, async () => {
    a.route('/robots.txt', redirect(301, '/real-robots.txt'));
    a.route('/real-robots.txt', text(200, DISALLOW_ALL));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(text8(r), DISALLOW_ALL);
    assert.deepEqual(r.redirects, [{ from: a.url('/robots.txt'), to: a.url('/real-robots.txt'), status: 301 }]);
    assert.equal(r.finalUrl, a.url('/real-robots.txt'));
    assert.equal(r.robotsUrl, a.url('/robots.txt'));
  });

  it(
    '5 redirects (301, 302, 303, 307, 308), the last to another authority → ok, applying to the original origin',
    T,
    async () => {
      a.route('/robots.txt', redirect(301, '/h1'));
      a.route('/h1', redirect(302, a.url('/h2')));
      a.route('/h2', redirect(303, '/h3'));
      a.route('/h3', redirect(307, 'h4')); // relative to /h3
      a.route('/h4', redirect(308, b.url('/robots.txt')));
      b.route('/robots.txt', text(200, DISALLOW_ALL));
      const r = await fetchRobots(a.origin, { userAgent: UA, client });
      assert.equal(r.outcome, 'ok', r.reason);
      assert.equal(text8(r), DISALLOW_ALL);
      assert.equal(r.origin, a.origin);
      assert.equal(r.robotsUrl, a.url('/robots.txt'));
      assert.equal(r.finalUrl, b.url('/robots.txt'));
      assert.deepEqual(
        r.redirects.map((x) => x.status),
        [301, 302, 303, 307, 308],
      );
      assert.equal(a.arrivals.length - aBefore, 5);
      assert.equal(b.arrivals.length - bBefore, 1);
      assert.ok(b.arrivals.at(-1)?.userAgent?.includes(TOKEN));
    },
  );

  it('6 redirects → unavailable (allow all), the 6th target never requested', T, async () => {
    a.route('/robots.txt', redirect(301, '/s1'));
    for (let i = 1; i <= 5; i++) a.route(`/s${i}`, redirect(302, `/s${i + 1}`));
    a.route('/s6', text(200, DISALLOW_ALL));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unavailable');
    assert.match(r.reason, /more than 5 redirects/);
    assert.equal(r.redirects.length, 5);
    assert.equal(a.arrivals.length - aBefore, 6);
    assert.equal(a.arrivalsFor('/s6').length, 0);
  });

  it('maxRedirects is configurable', T, async () => {
    a.route('/robots.txt', redirect(301, '/real-robots.txt'));
    a.route('/real-robots.txt', text(200, DISALLOW_ALL));
    assert.equal((await fetchRobots(a.origin, { userAgent: UA, client, maxRedirects: 0 })).outcome, 'unavailable');
  });

  it('a redirect loop ends quickly as unavailable', T, async () => {
    a.route('/robots.txt', redirect(302, '/loop-a'));
    a.route('/loop-a', redirect(302, '/loop-b'));
    a.route('/loop-b', redirect(302, '/loop-a'));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unavailable');
    assert.match(r.reason, /loop/);
    assert.equal(a.arrivals.length - aBefore, 3);

    a.route('/robots.txt', redirect(301, '/robots.txt'));
    const self = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(self.outcome, 'unavailable');
    assert.match(self.reason, /loop/);
  });

  it('a redirect to a 404 → unavailable; to a 503 → unreachable', T, async () => {
    a.route('/robots.txt', redirect(301, b.url('/gone')));
    b.route('/gone', text(404, DISALLOW_ALL));
    assert.equal((await fetchRobots(a.origin, { userAgent: UA, client })).outcome, 'unavailable');
    b.route('/gone', text(503, ''));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.origin, a.origin);
  });

  it('a 3xx without Location → unreachable', T, async () => {
    a.route('/robots.txt', redirect(302, undefined));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unreachable');
    assert.match(r.reason, /no Location/);
  });

  it('a redirect to a non-http scheme → unreachable', T, async () => {
    a.route('/robots.txt', redirect(302, 'ftp://127.0.0.1/robots.txt'));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unreachable');
    assert.match(r.reason, /not http/);
  });

  it('a 3xx with a positive Retry-After is not followed yet → unreachable', T, async () => {
    a.route('/robots.txt', redirect(302, '/later', { 'retry-after': '60' }));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.retryAfter, '60');
    assert.equal(a.arrivalsFor('/later').length, 0);
  });
});

describe('robots fetch: limits and hostile servers (RFC 9309 §2.5, §3)', () => {
  let a: LoopbackServer;
  let client: HttpClient;
  before(async () => {
    a = await startLoopback();
    client = createHttpClient({ userAgent: UA });
  });
  after(async () => {
    await client.close();
    await a.close();
  });

  it('a server that never sends headers → unreachable within the timeout bound', T, async () => {
    a.route('/robots.txt', hang());
    const t0 = performance.now();
    const r = await fetchRobots(a.origin, { userAgent: UA, client, timeouts: { headersMs: 500 } });
    const ms = performance.now() - t0;
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.error?.kind, 'headers-timeout');
    assert.ok(ms < 500 * 3 + 1_000, `took ${ms} ms`);
  });

  it('a server trickling bytes forever → unreachable at the total deadline', T, async () => {
    a.route('/robots.txt', trickle(50, '#'));
    const t0 = performance.now();
    const r = await fetchRobots(a.origin, { userAgent: UA, client, timeouts: { totalMs: 500, bodyMs: 10_000 } });
    const ms = performance.now() - t0;
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.error?.kind, 'timeout');
    assert.equal(r.status, 200);
    assert.equal(r.body, undefined, 'a partial body is never handed out');
    assert.ok(ms < 500 * 3 + 500, `took ${ms} ms`);
  });

  it('cancelling via signal ends the fetch at once as unreachable/aborted', T, async () => {
    a.route('/robots.txt', hang());
    const ac = new AbortController();
    const before = a.arrivalsFor('/robots.txt').length;
    const pending = fetchRobots(a.origin, {
      userAgent: UA,
      client,
      signal: ac.signal,
      timeouts: { headersMs: 10_000 },
    });
    await a.waitForArrivals(before + 1, { path: '/robots.txt' });
    ac.abort();
    const r = await pending;
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.error?.kind, 'aborted');
  });

  it('an endless chunked body → ok, truncated at 512,000 bytes', T, async () => {
    a.route('/robots.txt', endless(Buffer.from('Disallow: /x\n'.repeat(1000))));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 512_000);
    assert.equal(r.body?.byteLength, 512_000);
    assert.match(r.reason, /512000-byte limit/);
  });

  it('a 600 KiB file → truncated at exactly 512,000 bytes, the prefix intact', T, async () => {
    const file = Buffer.alloc(600 * 1024);
    for (let i = 0; i < file.length; i++) file[i] = 0x61 + (i % 26);
    a.route('/robots.txt', text(200, file));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 512_000);
    assert.ok(Buffer.from(r.body ?? []).equals(file.subarray(0, 512_000)));
  });

  it('a 511,000-byte file is read whole', T, async () => {
    const tail = 'User-agent: *\nDisallow: /deep\n';
    const file = Buffer.concat([Buffer.from(`#${'p'.repeat(511_000 - tail.length - 2)}\n`), Buffer.from(tail)]);
    assert.equal(file.length, 511_000);
    a.route('/robots.txt', text(200, file));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.truncated, false);
    assert.ok(text8(r).endsWith(tail));
  });

  it('bytes are returned raw: BOM kept, CRLF kept, binary junk kept', T, async () => {
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(DISALLOW_ALL)]);
    a.route('/robots.txt', text(200, bom));
    assert.ok(Buffer.from((await fetchRobots(a.origin, { userAgent: UA, client })).body ?? []).equals(bom));

    const crlf = Buffer.from('User-agent: *\r\nDisallow: /a\r\n\r\nUser-agent: b\rDisallow: /\r\n');
    a.route('/robots.txt', text(200, crlf));
    assert.ok(Buffer.from((await fetchRobots(a.origin, { userAgent: UA, client })).body ?? []).equals(crlf));

    const junk = Buffer.concat([
      Buffer.from([0, 1, 2, 0xff, 0xfe, 0x80, 0]),
      Buffer.from('<html>:::::\nUser-agent: *\nDisallow: /x\n'),
      Buffer.from([0xc3, 0x28]),
    ]);
    a.route('/robots.txt', text(200, junk, { 'content-type': 'application/octet-stream' }));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.ok(Buffer.from(r.body ?? []).equals(junk));
  });

  it('Content-Encoding: gzip is decoded', T, async () => {
    a.route('/robots.txt', text(200, zlib.gzipSync(DISALLOW_ALL), { 'content-encoding': 'gzip' }));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(text8(r), DISALLOW_ALL);
  });

  it('a gzip bomb stops at 512,000 decoded bytes', T, async () => {
    a.route('/robots.txt', gzipBomb());
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'ok');
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 512_000);
  });

  it('a reset mid-body → unreachable, and the partial body is not handed out', T, async () => {
    a.route('/robots.txt', resetMidBody('User-agent: *\nAllow: /\n', 10_000));
    const r = await fetchRobots(a.origin, { userAgent: UA, client });
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.error?.kind, 'reset');
    assert.equal(r.body, undefined);
  });

  it('a body shorter than its Content-Length → unreachable', T, async () => {
    const raw = await startRawLoopback((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\nUser-agent: *\n'));
    try {
      const r = await fetchRobots(raw.origin, { userAgent: UA, client });
      assert.equal(r.outcome, 'unreachable');
      assert.equal(r.body, undefined);
    } finally {
      await raw.close();
    }
  });

  it('garbage instead of HTTP → unreachable (bad-response)', T, async () => {
    const raw = await startRawLoopback((s) => s.end(Buffer.from('\x00\x01garbage\xff\r\n\r\n', 'latin1')));
    try {
      const r = await fetchRobots(raw.origin, { userAgent: UA, client });
      assert.equal(r.outcome, 'unreachable');
      assert.equal(r.error?.kind, 'bad-response');
    } finally {
      await raw.close();
    }
  });

  it('connection refused (closed port) → unreachable, with a client fetchRobots owns', T, async () => {
    const port = await closedPort();
    const r = await fetchRobots(`http://127.0.0.1:${port}`, { userAgent: UA, timeouts: { connectMs: 2_000 } });
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.error?.kind, 'connect');
    assert.equal(r.status, undefined);
  });

  it('a DNS failure → unreachable', T, async () => {
    const r = await fetchRobots('http://robots.invalid/', {
      userAgent: UA,
      http: {
        lookup: (host, _o, cb) =>
          (cb as (e: Error) => void)(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })),
      },
    });
    assert.equal(r.outcome, 'unreachable');
    assert.equal(r.error?.kind, 'dns');
  });

  it('the injected clock stamps startedAt/fetchedAt', T, async () => {
    a.route('/robots.txt', text(200, ''));
    let t = 5_000_000;
    const r = await fetchRobots(a.origin, { userAgent: UA, client, now: () => (t += 10) });
    assert.ok(r.startedAt >= 5_000_010 && r.fetchedAt > r.startedAt && r.fetchedAt < 5_001_000);
  });

  it('a non-http origin is a clear error before any I/O', T, async () => {
    for (const bad of ['ftp://127.0.0.1/', 'example.com', 'file:///robots.txt']) {
      await assert.rejects(fetchRobots(bad, { userAgent: UA, client }), UnsupportedUrlError);
    }
  });

  it('robotsLocation normalises the origin', () => {
    assert.deepEqual(robotsLocation('HTTPS://Example.COM:443/a/b?c#d'), {
      origin: 'https://example.com',
      robotsUrl: 'https://example.com/robots.txt',
    });
    assert.deepEqual(robotsLocation('http://example.com:8080'), {
      origin: 'http://example.com:8080',
      robotsUrl: 'http://example.com:8080/robots.txt',
    });
    assert.deepEqual(robotsLocation('http://[::1]:81/x'), {
      origin: 'http://[::1]:81',
      robotsUrl: 'http://[::1]:81/robots.txt',
    });
  });
});
