/**
 * src/net/http.ts against real loopback servers: timeouts, caps, decoding, error kinds.
 * Time is only asserted as an upper bound ("does not hang"), never as a duration.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as zlib from 'node:zlib';
import {
  createHttpClient,
  flattenHeaders,
  httpGet,
  isFetchableUrl,
  UnsupportedUrlError,
  type HttpClient,
  type HttpError,
  type HttpResponse,
  type HttpResult,
} from '../../src/net/http';
import { classifyError } from '../../src/net/httpErrors';
import {
  gzipBomb,
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

const UA = 'CrawlPlannerTest/0.1 (+https://example.invalid/bot)';
const TEST_TIMEOUT = { timeout: 15_000 };

function expectOk(r: HttpResult): HttpResponse {
  if (!r.ok) assert.fail(`expected a response, got ${r.kind}: ${r.message}`);
  return r;
}
function expectError(r: HttpResult, kind: HttpError['kind']): HttpError {
  if (r.ok) assert.fail(`expected ${kind}, got status ${r.status}`);
  assert.equal(r.kind, kind, `expected ${kind}, got ${r.kind}: ${r.message}`);
  assert.ok(r.message.length > 0);
  return r;
}
async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

describe('net/http: createHttpClient().get', () => {
  let srv: LoopbackServer;
  let client: HttpClient;
  let tick = 1_000;
  before(async () => {
    srv = await startLoopback({
      routes: {
        '/hello': (_req, res) => {
          res.setHeader('X-Multi', ['a', 'b']);
          res.setHeader('Content-Type', 'text/plain');
          res.end('hello world');
        },
        '/a/b/moved': redirect(302, '../elsewhere?q=1'),
        '/hang': hang(),
        '/trickle': trickle(50),
        '/stall': (_req, res) => {
          res.writeHead(200, { 'content-length': 100 });
          res.write('only ten b');
        },
        '/endless': endless(),
        '/exact': text(200, Buffer.alloc(1000, 'e')),
        '/exact-plus-one': text(200, Buffer.alloc(1001, 'e')),
        '/reset': resetMidBody('partial', 1000),
        '/short': (_req, res) => {
          res.writeHead(200, { 'content-length': 100 });
          res.write('abc', () => res.socket?.end());
        },
        '/error-page-trickle': (_req, res) => {
          res.writeHead(503, { 'retry-after': '120' });
          const timer = setInterval(() => res.write('.'), 50);
          res.on('close', () => clearInterval(timer));
        },
      },
    });
    client = createHttpClient({
      userAgent: UA,
      now: () => tick++,
      headersTimeoutMs: 5_000,
      bodyTimeoutMs: 5_000,
      totalTimeoutMs: 10_000,
    });
  });
  after(async () => {
    await client.close();
    await srv.close();
  });

  it(
    'returns status, lower-case headers (repeated joined), body, byte counts and ordered timestamps',
    TEST_TIMEOUT,
    async () => {
      const r = expectOk(await client.get(srv.url('/hello#frag')));
      assert.equal(r.status, 200);
      assert.equal(Buffer.from(r.body).toString(), 'hello world');
      assert.equal(r.bytes, 11);
      assert.equal(r.wireBytes, 11);
      assert.equal(r.truncated, false);
      assert.equal(r.bodyRead, true);
      assert.equal(r.headers['x-multi'], 'a, b');
      assert.equal(r.headers['content-type'], 'text/plain');
      assert.equal(r.url, srv.url('/hello'));
      assert.ok(r.startedAt < r.headersAt && r.headersAt < r.endedAt, 'injected clock used in order');
      assert.equal(r.location, undefined);
      const arrival = srv.arrivalsFor('/hello').at(-1);
      assert.equal(arrival?.path, '/hello', 'the fragment is not sent');
      assert.equal(arrival?.userAgent, UA);
      assert.equal(arrival?.headers['accept-encoding'], 'gzip, deflate, br');
    },
  );

  it(
    'onSent is called once, when the request is handed to its connection: after the start, before the server answers',
    TEST_TIMEOUT,
    async () => {
      const seen: string[] = [];
      const before = srv.arrivals.length;
      const pending = client.get(srv.url('/hello'), {
        onSent: () => seen.push(`sent, ${srv.arrivals.length - before} arrived`),
      });
      seen.push('started');
      const r = expectOk(await pending);
      assert.deepEqual(seen, ['started', 'sent, 0 arrived']);
      assert.ok(r.sentAt !== undefined && r.startedAt < r.sentAt && r.sentAt < r.headersAt);
      const refused = await client.get(`http://127.0.0.1:${await closedPort()}/`, { onSent: () => seen.push('never') });
      assert.equal(refused.ok, false);
      assert.equal(seen.length, 2, 'no onSent without a connection');
    },
  );

  it('does not follow a redirect and resolves a relative Location to an absolute URL', TEST_TIMEOUT, async () => {
    const before = srv.arrivals.length;
    const r = expectOk(await client.get(srv.url('/a/b/moved')));
    assert.equal(r.status, 302);
    assert.equal(r.location, srv.url('/a/elsewhere?q=1'));
    assert.equal(srv.arrivals.length, before + 1, 'exactly one request');
  });

  it('rejects non-http URLs with a clear error before any I/O', TEST_TIMEOUT, async () => {
    for (const bad of [
      'ftp://127.0.0.1/robots.txt',
      'file:///etc/passwd',
      'mailto:a@b.c',
      'javascript:alert(1)',
      'robots.txt',
      '',
    ]) {
      await assert.rejects(client.get(bad), (err: unknown) => {
        assert.ok(err instanceof UnsupportedUrlError, String(err));
        assert.match(err.message, /Only absolute http: and https: URLs/);
        return true;
      });
      assert.equal(isFetchableUrl(bad), false);
    }
    await assert.rejects(httpGet('data:text/plain,hi', { userAgent: UA }), UnsupportedUrlError);
    assert.equal(isFetchableUrl('https://example.com/x'), true);
  });

  it('a server that never sends headers ends in headers-timeout within the bound', TEST_TIMEOUT, async () => {
    const { value, ms } = await timed(() => client.get(srv.url('/hang'), { headersTimeoutMs: 500 }));
    expectError(value, 'headers-timeout');
    // undici runs this timer on its ~1 s "fast timers": allow that on top of 3×.
    assert.ok(ms < 500 * 3 + 1_000, `took ${ms} ms`);
  });

  it('a server trickling one byte at a time cannot hold us past the total deadline', TEST_TIMEOUT, async () => {
    const { value, ms } = await timed(() =>
      client.get(srv.url('/trickle'), { totalTimeoutMs: 400, bodyTimeoutMs: 5_000 }),
    );
    const e = expectError(value, 'timeout');
    assert.equal(e.status, 200, 'the status is kept on a body failure');
    assert.ok(ms < 400 * 3 + 1_000, `took ${ms} ms`);
  });

  it('a body that stalls ends in body-timeout', TEST_TIMEOUT, async () => {
    const { value, ms } = await timed(() => client.get(srv.url('/stall'), { bodyTimeoutMs: 300 }));
    expectError(value, 'body-timeout');
    assert.ok(ms < 300 * 3 + 1_000, `took ${ms} ms`);
  });

  it('an endless chunked body stops at maxBytes: truncated success', TEST_TIMEOUT, async () => {
    const r = expectOk(await client.get(srv.url('/endless'), { maxBytes: 100_000 }));
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 100_000);
    assert.equal(r.body.byteLength, 100_000);
  });

  it('onChunk takes the body as it arrives instead of keeping it; maxBytes still applies', TEST_TIMEOUT, async () => {
    const seen: Buffer[] = [];
    const r = expectOk(
      await client.get(srv.url('/exact'), { maxBytes: 600, onChunk: (c) => void seen.push(Buffer.from(c)) }),
    );
    assert.deepEqual(Buffer.concat(seen), Buffer.alloc(600, 'e'));
    assert.equal(r.body.byteLength, 0, 'nothing kept');
    assert.equal(r.bytes, 600);
    assert.equal(r.truncated, true);
    const whole = expectOk(await client.get(srv.url('/hello'), { onChunk: async () => true }));
    assert.equal(whole.bytes, 11);
    assert.equal(whole.truncated, false);
  });

  it('onChunk returning false (or a promise of false) stops an endless body', TEST_TIMEOUT, async () => {
    for (const answer of [false, Promise.resolve(false)]) {
      let got = 0;
      const r = expectOk(
        await client.get(srv.url('/endless'), {
          maxBytes: 1e9,
          onChunk: (c) => {
            got += c.byteLength;
            return got < 200_000 ? true : answer;
          },
        }),
      );
      assert.equal(r.truncated, true);
      assert.equal(r.bytes, got);
      assert.ok(got >= 200_000 && got < 400_000, `read ${got} bytes`);
    }
  });

  it('a body of exactly maxBytes is complete; one byte more is truncated', TEST_TIMEOUT, async () => {
    const exact = expectOk(await client.get(srv.url('/exact'), { maxBytes: 1000 }));
    assert.equal(exact.truncated, false);
    assert.equal(exact.bytes, 1000);
    const over = expectOk(await client.get(srv.url('/exact-plus-one'), { maxBytes: 1000 }));
    assert.equal(over.truncated, true);
    assert.equal(over.bytes, 1000);
  });

  it('a reset mid-body is an error (reset), not a truncated success', TEST_TIMEOUT, async () => {
    const e = expectError(await client.get(srv.url('/reset')), 'reset');
    assert.equal(e.status, 200);
  });

  it('a body shorter than its Content-Length is an error', TEST_TIMEOUT, async () => {
    expectError(await client.get(srv.url('/short')), 'reset');
  });

  it('readBody=false returns the status at once even when the error page trickles', TEST_TIMEOUT, async () => {
    const { value, ms } = await timed(() =>
      client.get(srv.url('/error-page-trickle'), { totalTimeoutMs: 2_000, readBody: (s) => s < 300 }),
    );
    const r = expectOk(value);
    assert.equal(r.status, 503);
    assert.equal(r.bodyRead, false);
    assert.equal(r.bytes, 0);
    assert.equal(r.headers['retry-after'], '120');
    assert.ok(ms < 2_000, `took ${ms} ms`);
  });

  it('a caller abort ends the request as aborted; a pre-aborted signal sends nothing', TEST_TIMEOUT, async () => {
    const ac = new AbortController();
    const hangsBefore = srv.arrivalsFor('/hang').length;
    const pending = client.get(srv.url('/hang'), { signal: ac.signal });
    await srv.waitForArrivals(hangsBefore + 1, { path: '/hang' });
    ac.abort();
    expectError(await pending, 'aborted');

    const count = srv.arrivals.length;
    const pre = new AbortController();
    pre.abort();
    expectError(await client.get(srv.url('/hello'), { signal: pre.signal }), 'aborted');
    assert.equal(srv.arrivals.length, count);
  });

  it('close() is idempotent and later gets reject', TEST_TIMEOUT, async () => {
    const c = createHttpClient({ userAgent: UA });
    expectOk(await c.get(srv.url('/hello')));
    await c.close();
    await c.close();
    await assert.rejects(c.get(srv.url('/hello')), /closed/);
  });
});

describe('net/http: Content-Encoding', () => {
  const plain = 'User-agent: *\r\nDisallow: /private\r\n'.repeat(50);
  let srv: LoopbackServer;
  let client: HttpClient;
  before(async () => {
    srv = await startLoopback({
      routes: {
        '/gzip': text(200, zlib.gzipSync(plain), { 'content-encoding': 'gzip' }),
        '/deflate': text(200, zlib.deflateSync(plain), { 'content-encoding': 'deflate' }),
        '/deflate-raw': text(200, zlib.deflateRawSync(plain), { 'content-encoding': 'deflate' }),
        '/br': text(200, zlib.brotliCompressSync(plain), { 'content-encoding': 'br' }),
        '/gzip-then-br': text(200, zlib.brotliCompressSync(zlib.gzipSync(plain)), { 'content-encoding': 'gzip, br' }),
        '/bad-gzip': text(200, Buffer.from('this is not gzip at all'), { 'content-encoding': 'gzip' }),
        '/zstd': text(200, Buffer.from('whatever'), { 'content-encoding': 'zstd' }),
        // An endless gzip stream of zeros: about 1000:1, it would inflate without end.
        '/bomb': gzipBomb({ 'content-type': 'text/plain' }),
      },
    });
    client = createHttpClient({ userAgent: UA, totalTimeoutMs: 10_000 });
  });
  after(async () => {
    await client.close();
    await srv.close();
  });

  for (const path of ['/gzip', '/deflate', '/deflate-raw', '/br', '/gzip-then-br']) {
    it(`decodes ${path}`, TEST_TIMEOUT, async () => {
      const r = expectOk(await client.get(srv.url(path)));
      assert.equal(Buffer.from(r.body).toString(), plain);
      assert.equal(r.bytes, Buffer.byteLength(plain));
      assert.ok(r.wireBytes < r.bytes, 'wire bytes are the compressed size');
    });
  }

  it('decompress=false returns the raw bytes and asks for identity', TEST_TIMEOUT, async () => {
    const r = expectOk(await client.get(srv.url('/gzip'), { decompress: false }));
    assert.deepEqual(Buffer.from(r.body), zlib.gzipSync(plain));
    assert.equal(srv.arrivals.at(-1)?.headers['accept-encoding'], 'identity');
  });

  it('the cap applies to decoded bytes: a gzip bomb stops at maxBytes', TEST_TIMEOUT, async () => {
    const { value, ms } = await timed(() => client.get(srv.url('/bomb'), { maxBytes: 512_000 }));
    const r = expectOk(value);
    assert.equal(r.truncated, true);
    assert.equal(r.bytes, 512_000);
    assert.ok(r.body.every((b) => b === 0));
    assert.ok(r.wireBytes < 512_000, `read ${r.wireBytes} compressed bytes`);
    assert.ok(ms < 10_000);
  });

  it('undecodable gzip is a bad-response', TEST_TIMEOUT, async () => {
    const e = expectError(await client.get(srv.url('/bad-gzip')), 'bad-response');
    assert.equal(e.status, 200);
  });

  it('an unsupported Content-Encoding is a bad-response', TEST_TIMEOUT, async () => {
    const e = expectError(await client.get(srv.url('/zstd')), 'bad-response');
    assert.match(e.message, /zstd/);
  });
});

describe('net/http: network failures', () => {
  it('connection refused on a closed port is connect', TEST_TIMEOUT, async () => {
    const port = await closedPort();
    const r = await httpGet(`http://127.0.0.1:${port}/`, { userAgent: UA });
    expectError(r, 'connect');
  });

  it('a DNS failure is dns (lookup injected: no real resolver)', TEST_TIMEOUT, async () => {
    let lookups = 0;
    const r = await httpGet('http://robots.invalid/robots.txt', {
      userAgent: UA,
      lookup: (hostname, _opts, cb) => {
        lookups++;
        const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
        (cb as (e: Error) => void)(err);
      },
    });
    expectError(r, 'dns');
    assert.ok(lookups >= 1);
  });

  it('bytes that are not HTTP are a bad-response', TEST_TIMEOUT, async () => {
    const raw = await startRawLoopback((s) => s.end(Buffer.from([0, 1, 2, 0xff, 0xfe, 13, 10, 13, 10])));
    try {
      expectError(await httpGet(raw.url('/'), { userAgent: UA }), 'bad-response');
    } finally {
      await raw.close();
    }
  });

  it('a connection closed before any response is reset', TEST_TIMEOUT, async () => {
    const raw = await startRawLoopback((s) => s.resetAndDestroy());
    try {
      expectError(await httpGet(raw.url('/'), { userAgent: UA }), 'reset');
    } finally {
      await raw.close();
    }
  });

  it('a final status of 600 is returned as is (the caller interprets it)', TEST_TIMEOUT, async () => {
    const raw = await startRawLoopback((s) => s.end('HTTP/1.1 600 Odd\r\nContent-Length: 0\r\n\r\n'));
    try {
      assert.equal(expectOk(await httpGet(raw.url('/'), { userAgent: UA })).status, 600);
    } finally {
      await raw.close();
    }
  });

  describe('TLS', () => {
    let dir: string | undefined;
    let tls: { key: Buffer; cert: Buffer } | undefined;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'crawl-planner-tls-'));
      const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
      args.push('-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1');
      args.push('-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1');
      const ok = await new Promise<boolean>((resolve) =>
        execFile('openssl', args, { timeout: 10_000 }, (err) => resolve(!err)),
      );
      if (ok) tls = { key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) };
    });
    after(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('a self-signed certificate is tls; trusting it via ca works', TEST_TIMEOUT, async (t) => {
      if (!tls) return t.skip('openssl is not available to make a test certificate');
      const srv = await startLoopback({ tls, routes: { '/robots.txt': text(200, 'User-agent: *\n') } });
      try {
        assert.ok(srv.origin.startsWith('https://'));
        expectError(await httpGet(srv.url('/robots.txt'), { userAgent: UA }), 'tls');
        const r = expectOk(await httpGet(srv.url('/robots.txt'), { userAgent: UA, ca: tls.cert }));
        assert.equal(Buffer.from(r.body).toString(), 'User-agent: *\n');
      } finally {
        await srv.close();
      }
    });
  });
});

describe('net/http: classifyError and flattenHeaders', () => {
  const err = (code: string, message = 'x'): Error => Object.assign(new Error(message), { code });
  const cases: Array<[string, unknown, string]> = [
    ['ENOTFOUND', err('ENOTFOUND'), 'dns'],
    ['EAI_AGAIN', err('EAI_AGAIN'), 'dns'],
    ['ECONNREFUSED', err('ECONNREFUSED'), 'connect'],
    ['UND_ERR_CONNECT_TIMEOUT', err('UND_ERR_CONNECT_TIMEOUT'), 'connect-timeout'],
    ['UND_ERR_HEADERS_TIMEOUT', err('UND_ERR_HEADERS_TIMEOUT'), 'headers-timeout'],
    ['UND_ERR_BODY_TIMEOUT', err('UND_ERR_BODY_TIMEOUT'), 'body-timeout'],
    ['UND_ERR_SOCKET other side closed', err('UND_ERR_SOCKET', 'other side closed'), 'reset'],
    ['UND_ERR_SOCKET bad response', err('UND_ERR_SOCKET', 'bad response'), 'bad-response'],
    ['ECONNRESET', err('ECONNRESET'), 'reset'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', err('DEPTH_ZERO_SELF_SIGNED_CERT'), 'tls'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', err('ERR_TLS_CERT_ALTNAME_INVALID'), 'tls'],
    ['HTTPParserError', Object.assign(new Error('x'), { name: 'HTTPParserError' }), 'bad-response'],
    ['UND_ERR_HEADERS_OVERFLOW', err('UND_ERR_HEADERS_OVERFLOW'), 'too-large'],
    ['UND_ERR_ABORTED', err('UND_ERR_ABORTED'), 'aborted'],
    ['AggregateError of ECONNREFUSED', new AggregateError([err('ECONNREFUSED')]), 'connect'],
    ['cause ENOTFOUND', Object.assign(new Error('wrapped'), { cause: err('ENOTFOUND') }), 'dns'],
    ['plain Error', new Error('mystery'), 'other'],
    ['a string', 'not even an error', 'other'],
  ];
  for (const [label, e, kind] of cases) {
    it(`${label} → ${kind}`, () => {
      assert.equal(classifyError(e), kind);
    });
  }
  it('flattens headers', () => {
    assert.deepEqual(flattenHeaders({ A: 'x', 'set-cookie': ['a=1', 'b=2'], gone: undefined }), {
      a: 'x',
      'set-cookie': 'a=1, b=2',
    });
  });
});
