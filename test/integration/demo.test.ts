/**
 * The demo hosts as real loopback servers: start/close, addressing, what they serve, latency, hanging
 * paths, and the server-side politeness record (arrivals, in-flight maximum). Real sockets, plain fetch.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  defaultDemoConfig,
  startDemoHosts,
  type DemoConfig,
  type DemoHostConfig,
  type DemoHosts,
} from '../../src/demo';
import { extractLinks } from '../../src/core/html/links';

interface Got {
  status: number;
  headers: Headers;
  body: string;
}

async function get(url: string, init: RequestInit = {}): Promise<Got> {
  const r = await fetch(url, { redirect: 'manual', ...init });
  return { status: r.status, headers: r.headers, body: await r.text() };
}

/** Polls (no fixed sleeps) until `check` holds, or fails after `ms`. */
async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** The default set with no latency and no injected failures: for content checks that must be quick. */
function calmDefaults(): DemoConfig {
  const config = defaultDemoConfig();
  return {
    ...config,
    hosts: (config.hosts ?? []).map(
      ({ latency: _l, tooManyRequests: _t, unavailable: _u, hangPaths: _h, bigPage: _b, ...rest }): DemoHostConfig =>
        rest,
    ),
  };
}

async function withHosts(config: DemoConfig, fn: (demo: DemoHosts) => Promise<void>): Promise<void> {
  const demo = await startDemoHosts(config);
  try {
    await fn(demo);
  } finally {
    await demo.close();
  }
}

function host(demo: DemoHosts, name: string) {
  const h = demo.hosts.find((x) => x.name === name);
  assert.ok(h, name);
  return h;
}

describe('demo hosts: start and close', () => {
  it('starts the default set on ephemeral ports and closes it', async () => {
    const demo = await startDemoHosts();
    assert.equal(demo.hosts.length, 5);
    if (process.platform === 'linux') assert.equal(demo.addressing, 'distinct');
    assert.equal(new Set(demo.hosts.map((h) => h.origin)).size, 5);
    for (const [i, h] of demo.hosts.entries()) {
      assert.match(h.origin, /^http:\/\/127\.0\.0\.\d{1,3}:\d+$/);
      assert.equal(h.baseUrl, `${h.origin}/`);
      assert.ok(h.port > 0);
      assert.equal(h.pageUrls.length, h.pageCount);
      assert.equal(h.seeds[0], h.baseUrl);
      if (demo.addressing === 'distinct') assert.equal(h.address, `127.0.0.${11 + i}`);
    }
    assert.deepEqual(host(demo, 'polite').seeds, [
      host(demo, 'polite').baseUrl,
      `${host(demo, 'polite').origin}/private/`,
    ]);
    await demo.close();
    await demo.close(); // idempotent
    await assert.rejects(fetch(demo.hosts[0]?.baseUrl ?? ''));
  });

  it(
    'puts every host on one fixed port in distinct mode',
    { skip: process.platform !== 'linux' && 'needs 127.0.0.0/8' },
    async () => {
      // An ephemeral port number that is free on 127.0.0.1 is almost surely free on 127.0.0.21–23 too.
      const probe = http.createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((r) => probe.close(() => r()));
      const hosts = (calmDefaults().hosts ?? []).slice(0, 3);
      await withHosts({ hosts, addressing: 'distinct', basePort: port, firstAddress: 21 }, async (demo) => {
        assert.deepEqual(
          demo.hosts.map((h) => h.origin),
          [21, 22, 23].map((x) => `http://127.0.0.${x}:${port}`),
        );
        for (const h of demo.hosts) assert.equal((await get(h.baseUrl)).status, 200);
      });
    },
  );

  it('puts every host on 127.0.0.1 with its own port in single mode', async () => {
    await withHosts({ ...calmDefaults(), addressing: 'single' }, async (demo) => {
      assert.equal(demo.addressing, 'single');
      assert.ok(demo.hosts.every((h) => h.address === '127.0.0.1'));
      assert.equal(new Set(demo.hosts.map((h) => h.port)).size, demo.hosts.length);
      const titles = await Promise.all(
        demo.hosts.map(async (h) => /<title>([^<]*)<\/title>/.exec((await get(h.baseUrl)).body)?.[1]),
      );
      assert.deepEqual(
        titles,
        demo.hosts.map((h) => `${h.name} · home`),
      );
    });
  });

  it('rejects and cleans up when a port is taken', async () => {
    const blocker = http.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const hosts: DemoHostConfig[] = [{ name: 'a', description: '', pages: 1 }];
      await assert.rejects(startDemoHosts({ hosts, addressing: 'single', basePort: port }), { code: 'EADDRINUSE' });
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it('rejects duplicate names and bad ports', async () => {
    const a: DemoHostConfig = { name: 'a', description: '', pages: 1 };
    await assert.rejects(startDemoHosts({ hosts: [a, a] }), /used twice/);
    await assert.rejects(startDemoHosts({ hosts: [a], basePort: 70000 }), RangeError);
    await assert.rejects(startDemoHosts({ hosts: [{ ...a, hostname: 'a.localhost/evil' }] }), /is not a host name/);
  });

  it('uses a host name, when given, in the origin, the seeds and the links', async () => {
    const demo = await startDemoHosts({ hosts: [{ name: 'a', hostname: 'a.localhost', description: '', pages: 4 }] });
    try {
      const [host] = demo.hosts;
      assert.ok(host);
      assert.match(host.origin, /^http:\/\/a\.localhost:\d+$/);
      assert.deepEqual(host.seeds, [`${host.origin}/`]);
      assert.notEqual(host.address, 'a.localhost', 'still bound to its loopback address');
      // The page is fetched by address; its absolute links name the host.
      const page = await (await fetch(`http://${host.address}:${host.port}/`)).text();
      assert.ok(page.includes(`href="${host.origin}/page/`), page);
      assert.ok(!page.includes(host.address), page);
    } finally {
      await demo.close();
    }
  });
});

describe('demo hosts: content', () => {
  it('serves robots.txt per host: Crawl-delay, Disallow, other groups, Sitemap, or none', async () => {
    await withHosts(calmDefaults(), async (demo) => {
      const polite = host(demo, 'polite');
      const r = await get(`${polite.origin}/robots.txt`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.match(r.body, /^User-agent: \*$/m);
      assert.match(r.body, /^Crawl-delay: 2$/m);
      assert.match(r.body, /^Disallow: \/private$/m);
      assert.match(r.body, new RegExp(`^Sitemap: ${polite.origin}/sitemap\\.xml$`, 'm'));
      assert.equal(r.body, polite.robotsTxt);

      const fast = await get(`${host(demo, 'fast').origin}/robots.txt`);
      assert.match(fast.body, /^User-agent: BadBot\nDisallow: \/$/m);
      assert.match(fast.body, /^User-agent: \*\nAllow: \/$/m);

      assert.equal((await get(`${host(demo, 'flaky').origin}/robots.txt`)).status, 404);
      assert.equal(host(demo, 'flaky').robotsTxt, null);
    });
  });

  it('sets Date on every response and the HTML content type on pages', async () => {
    await withHosts(calmDefaults(), async (demo) => {
      const fast = host(demo, 'fast');
      for (const path of ['/', '/page/3', '/robots.txt', '/sitemap.xml', '/missing/1', '/nope', '/old', '/private/x']) {
        const r = await get(fast.origin + path);
        const date = r.headers.get('date');
        assert.ok(date && Number.isFinite(Date.parse(date)), `${path}: Date ${date}`);
        if (!path.endsWith('.txt') && !path.endsWith('.xml')) {
          assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8', path);
        }
      }
    });
  });

  it('every page of every host is reachable over HTTP from the seeds', async () => {
    await withHosts(calmDefaults(), async (demo) => {
      const origins = new Set(demo.hosts.map((h) => h.origin));
      const queue = demo.hosts.flatMap((h) => h.seeds);
      const seen = new Set(queue);
      const pages = new Set<string>();
      const statuses = new Map<string, number>();
      while (queue.length > 0) {
        const batch = queue.splice(0, 8);
        await Promise.all(
          batch.map(async (url) => {
            const r = await get(url);
            statuses.set(url, r.status);
            const next: string[] = [];
            if (r.status === 200) {
              if (!new URL(url).pathname.startsWith('/private')) pages.add(url);
              next.push(...extractLinks(r.body, url));
            } else if (r.status >= 300 && r.status < 400) {
              next.push(new URL(r.headers.get('location') ?? '', url).href);
            }
            for (const l of next) {
              if (origins.has(new URL(l).origin) && !seen.has(l)) {
                seen.add(l);
                queue.push(l);
              }
            }
          }),
        );
      }
      const expected = demo.hosts.flatMap((h) => h.pageUrls);
      assert.deepEqual([...pages].sort(), [...expected].sort());
      const fast = host(demo, 'fast').origin;
      assert.equal(statuses.get(`${fast}/missing/1`), 404);
      assert.equal(statuses.get(`${fast}/old`), 301);
      assert.equal(statuses.get(`${host(demo, 'polite').origin}/private/1`), 200);
      // Links to other demo hosts exist, so a crawl from one seed would find the others.
      const crossLinked = [...seen].filter((u) => demo.hosts.some((h) => h.baseUrl === u));
      assert.equal(crossLinked.length, demo.hosts.length);
    });
  });

  it('follows a redirect chain: 301, 302, 307, 308, absolute and relative Location', async () => {
    const hosts: DemoHostConfig[] = [
      { name: 'r', description: '', pages: 5, redirectChain: ['/a', '/b', '/c', '/d', '/page/4'] },
    ];
    await withHosts({ hosts }, async (demo) => {
      const { origin } = host(demo, 'r');
      const hops: [string, number, string][] = [];
      let url = `${origin}/a`;
      for (let i = 0; i < 10; i++) {
        const r = await get(url);
        if (r.status === 200) break;
        const location = r.headers.get('location') ?? '';
        hops.push([new URL(url).pathname, r.status, location]);
        url = new URL(location, url).href;
      }
      assert.deepEqual(hops, [
        ['/a', 301, `${origin}/b`],
        ['/b', 302, '/c'],
        ['/c', 307, `${origin}/d`],
        ['/d', 308, '/page/4'],
      ]);
      assert.equal(url, `${origin}/page/4`);
    });
  });

  it('answers 404, 405 with Allow, and HEAD without a body', async () => {
    await withHosts({ hosts: [{ name: 'h', description: '', pages: 3 }] }, async (demo) => {
      const { origin } = host(demo, 'h');
      assert.equal((await get(`${origin}/page/3`)).status, 404);
      assert.equal((await get(`${origin}/missing/9`)).status, 404);
      const post = await get(`${origin}/`, { method: 'POST', body: 'x' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.get('allow'), 'GET, HEAD');
      const full = await get(`${origin}/page/1`);
      const head = await get(`${origin}/page/1`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.body, '');
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(full.body)));
      assert.deepEqual(
        demo.arrivals('h').map((a) => a.method),
        ['GET', 'GET', 'POST', 'GET', 'HEAD'],
      );
    });
  });

  it('serves a sitemap listing every page', async () => {
    await withHosts(calmDefaults(), async (demo) => {
      const polite = host(demo, 'polite');
      const r = await get(`${polite.origin}/sitemap.xml`);
      assert.equal(r.headers.get('content-type'), 'application/xml; charset=utf-8');
      assert.deepEqual(
        [...r.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]),
        polite.pageUrls,
      );
      assert.equal((await get(`${host(demo, 'slow').origin}/sitemap.xml`)).status, 404);
    });
  });

  it('streams a big page with an exact Content-Length', async () => {
    const bytes = 300_000;
    await withHosts(
      {
        hosts: [
          {
            name: 'b',
            description: '',
            pages: 1,
            bigPage: { path: '/big', bytes, chunkBytes: 50_000, chunkIntervalMs: 0 },
          },
        ],
      },
      async (demo) => {
        const r = await fetch(`${host(demo, 'b').origin}/big`);
        assert.equal(r.headers.get('content-length'), String(bytes));
        const body = Buffer.from(await r.arrayBuffer());
        assert.equal(body.length, bytes);
        assert.ok(body.toString('utf8').endsWith('</html>\n'));
        assert.equal(demo.arrivals('b')[0]?.status, 200);
        assert.equal(demo.arrivals('b')[0]?.aborted, undefined);
      },
    );
  });

  it('an endless page streams until the client gives up', async () => {
    await withHosts(
      {
        hosts: [
          { name: 'e', description: '', pages: 1, bigPage: { path: '/endless', bytes: Infinity, chunkIntervalMs: 1 } },
        ],
      },
      async (demo) => {
        const r = await fetch(`${host(demo, 'e').origin}/endless`);
        assert.equal(r.headers.get('content-length'), null);
        const reader = (r.body as ReadableStream<Uint8Array>).getReader();
        let n = 0;
        while (n < 1_000_000) {
          const { done, value } = await reader.read();
          assert.equal(done, false);
          n += value?.length ?? 0;
        }
        await reader.cancel();
        await until(() => demo.arrivals('e')[0]?.endedAt !== undefined, 'the server to see the client go');
        assert.equal(demo.arrivals('e')[0]?.aborted, true);
      },
    );
  });
});

describe('demo hosts: latency, hanging, politeness record', () => {
  it('applies fixed and uniform latency (lower bounds only)', async () => {
    const hosts: DemoHostConfig[] = [
      { name: 'fixed', description: '', pages: 3, latency: { kind: 'fixed', ms: 150 } },
      { name: 'uniform', description: '', pages: 3, latency: { kind: 'uniform', minMs: 100, maxMs: 130 } },
    ];
    await withHosts({ hosts }, async (demo) => {
      for (const [name, min] of [
        ['fixed', 150],
        ['uniform', 100],
      ] as const) {
        for (const path of ['/robots.txt', '/', '/page/1']) {
          const start = performance.now();
          await get(host(demo, name).origin + path);
          const elapsed = performance.now() - start;
          assert.ok(elapsed >= min - 1, `${name} ${path}: ${elapsed.toFixed(1)} ms`);
        }
        for (const a of demo.arrivals(name)) assert.ok((a.endedAt ?? 0) - a.at >= min - 1, `${name}: server side`);
      }
    });
  });

  it('a hanging path never answers, counts as in flight, and does not block close()', { timeout: 15_000 }, async () => {
    const demo = await startDemoHosts({ hosts: [{ name: 'h', description: '', pages: 2, hangPaths: ['/hang'] }] });
    const { origin } = host(demo, 'h');
    const pending = [1, 2, 3].map(() =>
      fetch(`${origin}/hang`).then(
        () => 'answered',
        () => 'failed',
      ),
    );
    await until(() => demo.arrivals('h').length === 3, 'three hanging arrivals');
    assert.equal(demo.inFlightMax('h'), 3);
    // The hanging requests do not block other pages, and are still counted while those run.
    assert.equal((await get(`${origin}/page/1`)).status, 200);
    assert.equal(demo.inFlightMax('h'), 4);
    await demo.close();
    assert.deepEqual(await Promise.all(pending), ['failed', 'failed', 'failed']);
    const hung = demo.arrivals('h').filter((a) => a.path === '/hang');
    for (const a of hung) {
      assert.equal(a.status, 0);
      assert.equal(a.aborted, true);
      assert.ok(a.endedAt !== undefined && a.endedAt >= a.at);
    }
  });

  it(
    'close() also ends requests waiting out their latency and open keep-alive sockets',
    { timeout: 15_000 },
    async () => {
      const demo = await startDemoHosts({
        hosts: [{ name: 's', description: '', pages: 2, latency: { kind: 'fixed', ms: 60_000 } }],
      });
      const pending = fetch(host(demo, 's').baseUrl).then(
        () => 'answered',
        () => 'failed',
      );
      await until(() => demo.arrivals('s').length === 1, 'the request to arrive');
      await demo.close();
      assert.equal(await pending, 'failed');
      assert.equal(demo.arrivals('s')[0]?.aborted, true);
    },
  );

  it('counts exactly the requests open at once (hanging requests, aborted by the client)', async () => {
    await withHosts(
      {
        hosts: [
          { name: 'h', description: '', pages: 2, hangPaths: ['/hang'] },
          { name: 'other', description: '', pages: 2 },
        ],
      },
      async (demo) => {
        const { origin } = host(demo, 'h');
        const controllers = Array.from({ length: 5 }, () => new AbortController());
        const pending = controllers.map((c, i) =>
          fetch(`${origin}/hang?n=${i}`, { signal: c.signal }).catch(() => 'aborted'),
        );
        await until(() => demo.arrivals('h').length === 5, 'five arrivals');
        assert.equal(demo.inFlightMax('h'), 5);
        for (const c of controllers) c.abort();
        await Promise.all(pending);
        await until(() => demo.arrivals('h').every((a) => a.endedAt !== undefined), 'the server to see the aborts');
        assert.ok(demo.arrivals('h').every((a) => a.aborted === true));
        // Once they are gone, one more request is alone in flight; the maximum stays.
        assert.equal((await get(`${origin}/page/1`)).status, 200);
        assert.equal(demo.inFlightMax('h'), 5);
        assert.equal(demo.inFlightMax('other'), 0);
        assert.deepEqual(
          demo
            .arrivals('h')
            .slice(0, 5)
            .map((a) => a.path)
            .sort(),
          [0, 1, 2, 3, 4].map((i) => `/hang?n=${i}`),
        );
      },
    );
  });

  it('records arrivals in order with method, path, user agent, times and status; concurrency is per host', async () => {
    const hosts: DemoHostConfig[] = [
      { name: 'seq', description: '', pages: 5, latency: { kind: 'fixed', ms: 5 } },
      { name: 'par', description: '', pages: 5, latency: { kind: 'fixed', ms: 250 } },
    ];
    await withHosts({ hosts }, async (demo) => {
      const seq = host(demo, 'seq');
      const par = host(demo, 'par');
      const headers = { 'user-agent': 'demo-test/1.0' };
      const parallel = Promise.all([0, 1, 2, 3].map((i) => get(`${par.origin}/page/${i}`, { headers })));
      for (const path of ['/robots.txt', '/', '/page/1', '/nope?x=1']) await get(seq.origin + path, { headers });
      await parallel;

      const log = demo.arrivals('seq');
      assert.deepEqual(
        log.map((a) => [a.host, a.method, a.path, a.userAgent, a.status]),
        [
          ['seq', 'GET', '/robots.txt', 'demo-test/1.0', 200],
          ['seq', 'GET', '/', 'demo-test/1.0', 200],
          ['seq', 'GET', '/page/1', 'demo-test/1.0', 200],
          ['seq', 'GET', '/nope?x=1', 'demo-test/1.0', 404],
        ],
      );
      for (const [i, a] of log.entries()) {
        assert.ok(a.endedAt !== undefined && a.endedAt >= a.at + 4);
        if (i > 0)
          assert.ok(a.at >= (log[i - 1]?.endedAt ?? Infinity), 'sequential: each starts after the previous ended');
      }
      assert.equal(demo.inFlightMax('seq'), 1);
      assert.equal(demo.inFlightMax(par.origin), 4, 'four concurrent requests held for 250 ms each');
      assert.equal(demo.arrivals(par.baseUrl).length, 4);

      const all = demo.arrivals();
      assert.equal(all.length, 8);
      assert.ok(
        all.every((a, i) => i === 0 || a.at >= (all[i - 1]?.at ?? 0)),
        'all hosts, in arrival order',
      );
      assert.throws(() => demo.arrivals('nobody'), /no host named "nobody"/);
    });
  });

  it('arrivals() returns snapshots', async () => {
    await withHosts({ hosts: [{ name: 'x', description: '', pages: 1 }] }, async (demo) => {
      await get(host(demo, 'x').baseUrl);
      const [a] = demo.arrivals('x');
      assert.ok(a);
      a.status = 999;
      assert.equal(demo.arrivals('x')[0]?.status, 200);
    });
  });
});
