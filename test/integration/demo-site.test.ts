/**
 * The demo hosts' content model without sockets: link graphs, the default set, latency sampling and the
 * `--serve` listing. (Pure, but kept with the other demo tests.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  defaultDemoConfig,
  formatDemoHosts,
  retryAfterValue,
  type DemoHostConfig,
  type DemoHostInfo,
} from '../../src/demo';
import { latencySampler, mulberry32 } from '../../src/demo/random';
import {
  buildSite,
  pageIndexOf,
  pagePath,
  renderPage,
  renderRobotsTxt,
  renderSitemap,
  type SiteModel,
} from '../../src/demo/site';
import { extractLinks } from '../../src/core/html/links';

const ORIGIN = 'http://127.0.0.11:8470';
const ctx = { origin: ORIGIN, baseUrlOf: (name: string) => `http://${name}.demo.test/` };

/** Breadth-first over the rendered HTML, through extractLinks, as a crawler would see it. */
function reachable(site: SiteModel, from: string[] = ['/']): { pages: Set<number>; other: Set<string> } {
  const pages = new Set<number>();
  const other = new Set<string>();
  const queue = from.map((p) => new URL(p, ORIGIN).href);
  const seen = new Set(queue);
  while (queue.length > 0) {
    const url = new URL(queue.shift() as string);
    const index = url.origin === ORIGIN ? pageIndexOf(url.pathname, site.pageCount) : undefined;
    if (index === undefined) {
      other.add(url.href);
      continue;
    }
    pages.add(index);
    for (const link of extractLinks(renderPage(site, index, ctx), url.href)) {
      if (!seen.has(link)) {
        seen.add(link);
        queue.push(link);
      }
    }
  }
  return { pages, other };
}

describe('demo site model', () => {
  for (const kind of ['tree', 'ring'] as const) {
    for (const pages of [1, 2, 3, 10, 40]) {
      for (const fanOut of [1, 2, 4]) {
        it(`${kind} graph, ${pages} pages, fan-out ${fanOut}: every page is reachable from the home page`, () => {
          const site = buildSite({ name: 'x', description: '', pages, graph: { kind, fanOut }, seed: 7 });
          assert.equal(reachable(site).pages.size, pages);
          for (const [i, links] of site.links.entries()) {
            for (const l of links) if (l.kind === 'page') assert.notEqual(l.to, i, 'no self links');
          }
        });
      }
    }
  }

  it('ring pages link to the next page and to fan-out − 1 others', () => {
    const site = buildSite({ name: 'x', description: '', pages: 20, graph: { kind: 'ring', fanOut: 3 }, seed: 1 });
    for (const [i, links] of site.links.entries()) {
      const targets = links.filter((l) => l.kind === 'page').map((l) => (l.kind === 'page' ? l.to : -1));
      assert.equal(targets[0], (i + 1) % 20);
      assert.equal(targets.length, 3);
      assert.equal(new Set(targets).size, 3);
    }
  });

  it('is deterministic from the seed', () => {
    const cfg: DemoHostConfig = {
      name: 'x',
      description: '',
      pages: 25,
      graph: { kind: 'ring', fanOut: 4 },
      seed: 42,
      crossHostLinks: 3,
      brokenLinks: 2,
    };
    assert.deepEqual(buildSite(cfg, ['a', 'b']), buildSite(cfg, ['a', 'b']));
    assert.notDeepEqual(buildSite({ ...cfg, seed: 43 }, ['a', 'b']).links, buildSite(cfg, ['a', 'b']).links);
  });

  it('places cross-host, private, broken and special links', () => {
    const site = buildSite(
      {
        name: 'x',
        description: '',
        pages: 10,
        seed: 3,
        crossHostLinks: 4,
        privateLinks: 2,
        brokenLinks: 3,
        redirectChain: ['/old', '/older', '/page/2'],
        hangPaths: ['/hang'],
        bigPage: { path: '/endless', bytes: Infinity },
      },
      ['a', 'b'],
      1,
    );
    const all = site.links.flat();
    // Round-robin over the other hosts, starting after this host's own position.
    assert.deepEqual(
      all
        .filter((l) => l.kind === 'cross-host')
        .map((l) => (l.kind === 'cross-host' ? l.host : ''))
        .sort(),
      ['a', 'a', 'b', 'b'],
    );
    assert.equal(all.filter((l) => l.kind === 'private').length, 2);
    assert.equal(all.filter((l) => l.kind === 'broken').length, 3);
    const home = site.links[0]?.filter((l) => l.kind === 'special').map((l) => (l.kind === 'special' ? l.path : ''));
    assert.deepEqual(home, ['/old', '/hang', '/endless']);
    const { other } = reachable(site);
    for (const u of [
      'http://a.demo.test/',
      'http://b.demo.test/',
      `${ORIGIN}/private/1`,
      `${ORIGIN}/missing/3`,
      `${ORIGIN}/old`,
      `${ORIGIN}/hang`,
    ]) {
      assert.ok(other.has(u), u);
    }
  });

  it('writes page links as absolute paths, relative paths and absolute URLs', () => {
    const site = buildSite({ name: 'x', description: '', pages: 12, graph: { kind: 'tree', fanOut: 3 }, seed: 1 });
    const hrefs = site.links.flatMap((_, i) =>
      [...renderPage(site, i, ctx).matchAll(/href="([^"]*)"/g)].map((m) => m[1]),
    );
    assert.ok(hrefs.some((h) => h?.startsWith('/page/')));
    assert.ok(hrefs.some((h) => h !== undefined && /^(\d+|\.\.\/)$/.test(h)));
    assert.ok(hrefs.some((h) => h?.startsWith(ORIGIN)));
  });

  it('escapes names and descriptions in HTML', () => {
    const site = buildSite({ name: '<x>', description: 'a & "b"', pages: 1 });
    const html = renderPage(site, 0, ctx);
    assert.ok(html.includes('&#60;x&#62;'));
    assert.ok(html.includes('a &#38; &#34;b&#34;'));
  });

  it('page paths round-trip and reject look-alikes', () => {
    for (let i = 0; i < 30; i++) assert.equal(pageIndexOf(pagePath(i), 30), i);
    for (const p of ['/page/0', '/page/01', '/page/30', '/page/', '/page/1/', '/page/-1', '/index.html', '']) {
      assert.equal(pageIndexOf(p, 30), undefined, p);
    }
  });

  it('renders robots.txt from rules, text or a status', () => {
    const rules = renderRobotsTxt(
      {
        name: 'p',
        description: '',
        pages: 1,
        sitemap: true,
        robotsTxt: { kind: 'rules', crawlDelay: 2, disallow: ['/private'], extraGroups: 'User-agent: X\nDisallow: /' },
      },
      ORIGIN,
    );
    assert.equal(rules.status, 200);
    assert.equal(
      rules.body,
      `# p: a Crawl Planner demo host\nUser-agent: *\nCrawl-delay: 2\nDisallow: /private\n\nUser-agent: X\nDisallow: /\n\nSitemap: ${ORIGIN}/sitemap.xml\n`,
    );
    assert.match(
      renderRobotsTxt({ name: 'a', description: '', pages: 1 }, ORIGIN).body,
      /^User-agent: \*\nDisallow:\n$/m,
    );
    assert.deepEqual(
      renderRobotsTxt(
        { name: 't', description: '', pages: 1, robotsTxt: { kind: 'text', text: 'Sitemap: {origin}/s.xml\n' } },
        ORIGIN,
      ),
      {
        status: 200,
        body: `Sitemap: ${ORIGIN}/s.xml\n`,
      },
    );
    assert.equal(
      renderRobotsTxt({ name: 's', description: '', pages: 1, robotsTxt: { kind: 'status', status: 500 } }, ORIGIN)
        .status,
      500,
    );
  });

  it('lists every page in the sitemap', () => {
    const xml = renderSitemap(buildSite({ name: 'x', description: '', pages: 3 }), ORIGIN);
    assert.deepEqual(
      [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]),
      [`${ORIGIN}/`, `${ORIGIN}/page/1`, `${ORIGIN}/page/2`],
    );
  });
});

describe('default demo set', () => {
  const config = defaultDemoConfig();
  const hosts = config.hosts ?? [];

  it('has five hosts of 10–40 pages with distinct names and seeds', () => {
    assert.deepEqual(
      hosts.map((h) => h.name),
      ['fast', 'slow', 'polite', 'limited', 'flaky'],
    );
    for (const h of hosts) {
      assert.ok(h.pages >= 10 && h.pages <= 40, `${h.name}: ${h.pages}`);
      assert.ok(h.description.length > 0);
    }
    assert.equal(new Set(hosts.map((h) => h.seed)).size, hosts.length);
  });

  it('each host exercises its feature', () => {
    const byName = new Map(hosts.map((h) => [h.name, h]));
    assert.deepEqual(byName.get('polite')?.robotsTxt, { kind: 'rules', crawlDelay: 2, disallow: ['/private'] });
    assert.ok((byName.get('polite')?.privateLinks ?? 0) > 0);
    assert.ok(byName.get('limited')?.tooManyRequests?.minIntervalMs);
    assert.equal(byName.get('limited')?.tooManyRequests?.retryAfterForm, 'alternate');
    assert.ok(byName.get('flaky')?.unavailable);
    assert.equal(byName.get('slow')?.latency?.kind, 'long-tail');
    assert.deepEqual(byName.get('slow')?.hangPaths, ['/hang']);
    assert.ok((byName.get('fast')?.redirectChain ?? []).length >= 3);
  });

  it('every page of every host is reachable from its seeds', () => {
    for (const [i, h] of hosts.entries()) {
      const site = buildSite(
        h,
        hosts.filter((o) => o.name !== h.name).map((o) => o.name),
        i,
      );
      assert.equal(reachable(site, h.seeds ?? ['/']).pages.size, h.pages, h.name);
    }
  });

  it('returns a fresh object each time', () => {
    const a = defaultDemoConfig();
    a.hosts?.pop();
    assert.equal(defaultDemoConfig().hosts?.length, 5);
  });
});

describe('latency sampling', () => {
  it('fixed, none and uniform stay in bounds', () => {
    const r = mulberry32(1);
    assert.equal(latencySampler({ kind: 'fixed', ms: 25 }, r)(), 25);
    assert.equal(latencySampler({ kind: 'none' }, r)(), 0);
    assert.equal(latencySampler(undefined, r)(), 0);
    const u = latencySampler({ kind: 'uniform', minMs: 10, maxMs: 20 }, r);
    for (let i = 0; i < 1000; i++) {
      const v = u();
      assert.ok(v >= 10 && v <= 20, String(v));
    }
  });

  it('long-tail has the configured median and respects the cap', () => {
    const s = latencySampler({ kind: 'long-tail', medianMs: 400, p99Ms: 2500, maxMs: 3000 }, mulberry32(9));
    const xs = Array.from({ length: 4001 }, () => s()).sort((a, b) => a - b);
    const median = xs[2000] as number;
    assert.ok(median > 340 && median < 460, `median ${median}`);
    assert.ok((xs[xs.length - 1] as number) <= 3000);
    assert.ok((xs[3960] as number) > 1500, 'a real tail');
  });

  it('is deterministic from the seed', () => {
    const a = latencySampler({ kind: 'uniform', minMs: 0, maxMs: 100 }, mulberry32(5));
    const b = latencySampler({ kind: 'uniform', minMs: 0, maxMs: 100 }, mulberry32(5));
    for (let i = 0; i < 10; i++) assert.equal(a(), b());
  });
});

describe('Retry-After values', () => {
  const at = Date.parse('2030-01-01T00:00:00.400Z');
  it('seconds are rounded up and at least 1', () => {
    assert.equal(retryAfterValue('seconds', at, 2000), '2');
    assert.equal(retryAfterValue('seconds', at, 2001), '3');
    assert.equal(retryAfterValue('seconds', at, 0), '1');
  });
  it('an HTTP-date is the rounded-up second, in IMF-fixdate form', () => {
    assert.equal(retryAfterValue('http-date', at, 2000), 'Tue, 01 Jan 2030 00:00:03 GMT');
  });
});

describe('formatDemoHosts', () => {
  const info = (name: string, port: number, seeds = ['/']): DemoHostInfo => ({
    name,
    origin: `http://127.0.0.1:${port}`,
    baseUrl: `http://127.0.0.1:${port}/`,
    seeds: seeds.map((s) => `http://127.0.0.1:${port}${s}`),
    description: `${name} things`,
    address: '127.0.0.1',
    port,
    pageCount: name.length,
    pageUrls: [],
    robotsTxt: null,
  });

  it('lists name, URL, pages, description and the seeds, aligned', () => {
    const text = formatDemoHosts([info('fast', 8470), info('polite', 8471, ['/', '/private/'])]);
    assert.equal(
      text,
      [
        'Demo hosts (2):',
        '',
        '  fast    http://127.0.0.1:8470/  4 pages  fast things',
        '  polite  http://127.0.0.1:8471/  6 pages  polite things',
        '',
        'Seeds:',
        '  http://127.0.0.1:8470/',
        '  http://127.0.0.1:8471/',
        '  http://127.0.0.1:8471/private/',
        '',
      ].join('\n'),
    );
  });
});
