/**
 * Resolution (src/net/resolve.ts) and `--resolve` in the HTTP layer (src/net/http.ts), on loopback only:
 * a name mapped onto 127.0.0.x is fetched there with its own Host header and TLS SNI; 10,000 hosts resolve
 * with a bounded number of lookups at once, through a local lookup (never the network); failures stay per host.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createHttpClient } from '../../src/net/http';
import { createResolver, RESOLVE_DEFAULTS, type LookupAll } from '../../src/net/resolve';
import { AddressOverrides, parseAddressOverride, type AddressOverride } from '../../src/core/servers';
import { startLoopback, text } from '../helpers/loopback';

const UA = 'CrawlPlannerTest/0.1 (+https://example.invalid/bot)';
const TEST_TIMEOUT = { timeout: 30_000 };

function overrides(...texts: string[]): AddressOverrides {
  return new AddressOverrides(texts.map((t) => parseAddressOverride(t) as AddressOverride));
}

describe('--resolve in the HTTP layer', () => {
  it('names mapped onto 127.0.0.5 are fetched there, each with its own Host header', TEST_TIMEOUT, async () => {
    const srv = await startLoopback({ host: '127.0.0.5', handler: text(200, 'ok') });
    const client = createHttpClient({
      userAgent: UA,
      resolve: overrides('shop.test=127.0.0.5', `blog.test:${srv.port}:127.0.0.5`),
    });
    try {
      for (const name of ['shop.test', 'blog.test']) {
        const r = await client.get(`http://${name}:${srv.port}/page`);
        assert.ok(r.ok, r.ok ? '' : r.message);
        assert.equal(r.status, 200);
      }
      assert.deepEqual(
        srv.arrivals.map((a) => a.headers.host),
        [`shop.test:${srv.port}`, `blog.test:${srv.port}`],
      );
      // A port-specific entry holds for its port only: another port of blog.test goes to DNS (.test: none).
      const other = await client.get(`http://blog.test:${srv.port === 65535 ? 1 : srv.port + 1}/`);
      assert.equal(other.ok, false);
      assert.equal(srv.arrivals.length, 2);
    } finally {
      await client.close();
      await srv.close();
    }
  });

  describe('https', () => {
    let dir: string | undefined;
    let tls: { key: Buffer; cert: Buffer } | undefined;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'crawl-planner-resolve-tls-'));
      const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
      args.push('-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1');
      args.push('-subj', '/CN=shop.test', '-addext', 'subjectAltName=DNS:shop.test');
      const ok = await new Promise<boolean>((resolve) =>
        execFile('openssl', args, { timeout: 10_000 }, (err) => resolve(!err)),
      );
      if (ok) tls = { key: await readFile(join(dir, 'key.pem')), cert: await readFile(join(dir, 'cert.pem')) };
    });
    after(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('the TLS servername stays the host name (its certificate checks out)', TEST_TIMEOUT, async (t) => {
      if (!tls) return t.skip('openssl is not available to make a test certificate');
      let servername: string | false | undefined;
      const srv = await startLoopback({
        host: '127.0.0.6',
        tls,
        handler: (req, res) => {
          servername = (req.socket as TLSSocket & { servername?: string | false }).servername;
          res.end('ok');
        },
      });
      const client = createHttpClient({ userAgent: UA, ca: tls.cert, resolve: overrides('shop.test=127.0.0.6') });
      try {
        const r = await client.get(`https://shop.test:${srv.port}/`);
        assert.ok(r.ok, r.ok ? '' : r.message);
        assert.equal(servername, 'shop.test');
        assert.equal(srv.arrivals[0]!.headers.host, `shop.test:${srv.port}`);
      } finally {
        await client.close();
        await srv.close();
      }
    });
  });
});

describe('net/resolve', () => {
  it('overrides and IP literals need no lookup; a name is looked up once per run', async () => {
    const asked: string[] = [];
    const lookup: LookupAll = async (name) => {
      asked.push(name);
      return ['10.0.0.1', '::ffff:10.0.0.1', 'fd00::1'];
    };
    const resolver = createResolver({ lookup, overrides: overrides('shop.test=127.0.0.5,127.0.0.6') });
    const got = await resolver.resolveAll(['shop.test', '127.0.0.9:8080', '[::1]', 'a.test', 'a.test:8080', 'A.test']);
    assert.deepEqual(got, [
      { host: 'shop.test', addresses: ['127.0.0.5', '127.0.0.6'], source: 'override' },
      { host: '127.0.0.9:8080', addresses: ['127.0.0.9'], source: 'literal' },
      { host: '[::1]', addresses: ['::1'], source: 'literal' },
      { host: 'a.test', addresses: ['10.0.0.1', 'fd00::1'], source: 'dns' },
      { host: 'a.test:8080', addresses: ['10.0.0.1', 'fd00::1'], source: 'dns' },
      { host: 'A.test', addresses: ['10.0.0.1', 'fd00::1'], source: 'dns' },
    ]);
    assert.deepEqual(asked, ['a.test']);
    assert.equal(resolver.lookups, 1);
  });

  it('failures are per host: no such host, no address, a lookup past its bound', TEST_TIMEOUT, async () => {
    const lookup: LookupAll = (name) => {
      if (name === 'gone.test')
        return Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
      if (name === 'empty.test') return Promise.resolve([]);
      if (name === 'slow.test') return new Promise(() => {}); // never answers
      return Promise.resolve(['10.0.0.2']);
    };
    const resolver = createResolver({ lookup, timeoutMs: 50 });
    const got = await resolver.resolveAll(['gone.test', 'empty.test', 'slow.test', 'ok.test']);
    assert.deepEqual(got, [
      { host: 'gone.test', error: 'no such host', code: 'ENOTFOUND' },
      { host: 'empty.test', error: 'no A or AAAA address', code: 'ENODATA' },
      { host: 'slow.test', error: 'no answer within 50 ms', code: 'ETIMEOUT' },
      { host: 'ok.test', addresses: ['10.0.0.2'], source: 'dns' },
    ]);
  });

  it('10,000 hosts: at most the bound in flight at once, every host answered', TEST_TIMEOUT, async (t) => {
    let inFlight = 0;
    let most = 0;
    const lookup: LookupAll = async (name) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 1));
      inFlight--;
      const n = Number(name.slice(1, name.indexOf('.')));
      if (n % 1000 === 7) throw Object.assign(new Error('no such host'), { code: 'ENOTFOUND' });
      return [`10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`];
    };
    const hosts = Array.from({ length: 10_000 }, (_, i) => `h${i}.test`);
    const resolver = createResolver({ lookup });
    const started = performance.now();
    const got = await resolver.resolveAll(hosts);
    const ms = performance.now() - started;
    t.diagnostic(`10,000 hosts resolved in ${ms.toFixed(0)} ms, at most ${most} lookups at once`);
    assert.equal(most, RESOLVE_DEFAULTS.concurrency);
    assert.equal(resolver.lookups, 10_000);
    assert.equal(got.length, 10_000);
    assert.equal(got.filter((r) => 'error' in r).length, 10);
    assert.deepEqual(got[258], { host: 'h258.test', addresses: ['10.0.1.2'], source: 'dns' });
  });

  it('the system lookup answers localhost from this machine (no network)', TEST_TIMEOUT, async () => {
    const got = await createResolver().resolve('localhost');
    assert.ok('addresses' in got, JSON.stringify(got));
    assert.ok(
      got.addresses.some((a) => a === '127.0.0.1' || a === '::1'),
      got.addresses.join(', '),
    );
  });
});
