/**
 * Sitemap sizing against a rate limiter nobody here wrote: Debian's nginx (test/helpers/nginx.ts) serving a
 * documentation site of 312 pages as four hosts, each with its robots.txt and its sitemaps (an index with
 * children on two of them), three behind `limit_req`: two refusing with 429 and `Retry-After: 1`, one with
 * nginx's own 503 and no Retry-After. `estimate --sitemaps` (the built CLI) must size every host with its true
 * count, and nginx's access log must show the politeness: robots.txt first on each host, every refused
 * request asked again (after the Retry-After when there is one, the host paused meanwhile), and no two starts
 * on a host closer than the interval. A host whose limiter asks for an hour is not planned as 0 pages: its
 * pages are unknown, and the plan says so. Fails, never skips, without nginx.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateDocument } from '../../src/core/plan';
import type { EstimateSitemapsSection } from '../../src/cli/estimateSitemaps';
import { buildCli, runCli } from '../helpers/cli';
import {
  freePort,
  startNginx,
  type NginxArrival,
  type NginxServer,
  type NginxSite,
  type NginxSiteOptions,
} from '../helpers/nginx';
import { LOOPBACK_SLACK_MS } from '../helpers/serverLag';

const T = { timeout: 40_000 };
/** The sizing's delay: faster than every limiter here allows, so each one refuses. */
const DELAY = 0.25;
/**
 * nginx stamps in whole milliseconds from its cached time: a request's start (`$msec − $request_time`) and
 * an answer's end can each be 1 ms off, so two stamps compared are within LOOPBACK_SLACK_MS (2 ms).
 */
const ALLOWANCE_MS = LOOPBACK_SLACK_MS;

type Doc = EstimateDocument & { sitemaps: EstimateSitemapsSection | null };

const urlset = (locs: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((l, i) => `  <url><loc>${l}</loc><lastmod>2025-0${1 + (i % 9)}-1${i % 10}</lastmod></url>`)
    .join('\n')}\n</urlset>\n`;
const sitemapIndex = (locs: readonly string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
    .map((l) => `  <sitemap><loc>${l}</loc></sitemap>`)
    .join('\n')}\n</sitemapindex>\n`;
const page = (title: string, links: readonly string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><ul>${links
    .map((l) => `<li><a href="${l}">${l}</a></li>`)
    .join('')}</ul></body></html>\n`;

/** One host of the site: its pages under `section`, its sitemaps split into `children` files (0: one urlset). */
interface HostSpec {
  address: string;
  section: string;
  pages: number;
  /** Sitemap files under an index; 0 for a single `/sitemap.xml` named by robots.txt. */
  children: number;
  /** Pages listed in the sitemaps under /drafts/, which robots.txt disallows (not counted). */
  drafts: number;
  limit?: NginxSiteOptions['limit'];
}

const HOSTS: readonly HostSpec[] = [
  // 120 documentation pages in an index of 8 children: enough files for the host's raised interval to recover
  // below the limiter's 500 ms and be refused again.
  {
    address: '127.0.0.81',
    section: 'docs',
    pages: 120,
    children: 8,
    drafts: 6,
    limit: { rate: '2r/s', status: 429, retryAfter: '1' },
  },
  { address: '127.0.0.82', section: 'api', pages: 64, children: 0, drafts: 0, limit: { rate: '2r/s', status: 503 } },
  { address: '127.0.0.83', section: 'blog', pages: 80, children: 2, drafts: 4 },
  {
    address: '127.0.0.84',
    section: 'guide',
    pages: 48,
    children: 0,
    drafts: 2,
    limit: { rate: '1r/s', status: 429, retryAfter: '1' },
  },
];

/** The site's files on one host: robots.txt, the pages, the drafts, the sitemaps (origin filled in later). */
function siteFiles(spec: HostSpec, origin: string): Record<string, string> {
  const files: Record<string, string> = {};
  const paths = Array.from({ length: spec.pages }, (_, i) => `/${spec.section}/${String(i + 1).padStart(3, '0')}.html`);
  const drafts = Array.from({ length: spec.drafts }, (_, i) => `/drafts/${spec.section}-${i + 1}.html`);
  paths.forEach((p, i) => (files[p] = page(`${spec.section} ${i + 1}`, [paths[(i + 1) % paths.length]!, '/'])));
  for (const d of drafts) files[d] = page('draft', []);
  files['/'] = page(spec.section, paths.slice(0, 10));
  const listed = [...paths, ...drafts].map((p) => `${origin}${p}`);
  let named: string;
  if (spec.children === 0) {
    files['/sitemap.xml'] = urlset(listed);
    named = '/sitemap.xml';
  } else {
    const per = Math.ceil(listed.length / spec.children);
    const children: string[] = [];
    for (let c = 0; c < spec.children; c++) {
      const file = `/sitemaps/${spec.section}-${c + 1}.xml`;
      files[file] = urlset(listed.slice(c * per, (c + 1) * per));
      children.push(`${origin}${file}`);
    }
    files['/sitemap_index.xml'] = sitemapIndex(children);
    named = '/sitemap_index.xml';
  }
  files['/robots.txt'] = `User-agent: *\nDisallow: /drafts/\n\nSitemap: ${origin}${named}\n`;
  return files;
}

/** Starts nginx for `specs`, each host on a port chosen first (its files name its origin). */
async function serve(specs: readonly HostSpec[]): Promise<NginxServer> {
  const ports = await Promise.all(specs.map((s) => freePort(s.address)));
  const nginx = await startNginx(
    specs.map((s, i) => ({
      host: s.address,
      files: siteFiles(s, `http://${s.address}:${ports[i]}`),
      ...(s.limit ? { limit: s.limit } : {}),
      port: ports[i]!,
    })),
  );
  servers.push(nginx);
  return nginx;
}

const servers: NginxServer[] = [];
before(() => buildCli());
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const hostOf = (site: NginxSite) => `${site.host}:${site.port}`;
const refused = (a: NginxArrival) => a.status === 429 || a.status === 503;

async function estimate(sites: readonly NginxSite[], ...extra: string[]): Promise<Doc> {
  const r = await runCli(
    ['estimate', '--sitemaps', '--delay', String(DELAY), '--json', ...extra, ...sites.map((s) => s.url('/'))],
    { timeoutMs: 35_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Doc;
}

describe('sitemap sizing against nginx limit_req', () => {
  it(
    'every host is sized with its true count; each refusal is asked again after its Retry-After; robots.txt first; no gap below the interval',
    T,
    async (t) => {
      const nginx = await serve(HOSTS);
      const doc = await estimate(nginx.sites);

      // The plan: every host with the pages its sitemaps list that robots.txt allows, and the total of them all.
      const truth = HOSTS.map((s, i) => [hostOf(nginx.sites[i]!), s.pages] as const);
      assert.deepEqual(
        doc.hosts.map((h) => [h.host, h.pages]),
        truth,
      );
      assert.deepEqual(
        doc.sitemaps!.pages.map((p) => [p.host, p.pages, p.from]),
        truth.map(([h, n]) => [h, n, 'sitemaps']),
      );
      assert.equal(doc.totalPages, 312);
      assert.deepEqual([doc.complete, doc.unknownHosts], [true, []]);
      for (const h of doc.sitemaps!.sizing.hosts) {
        assert.deepEqual(h.errors, [], `${h.host}: ${JSON.stringify(h.errors)}`);
        assert.equal(h.disallowed, HOSTS[doc.sitemaps!.sizing.hosts.indexOf(h)]!.drafts, `${h.host}: drafts`);
      }

      const report: string[] = [];
      HOSTS.forEach((spec, i) => {
        const site = nginx.sites[i]!;
        const log = nginx.arrivalsOf(site);
        const name = `${spec.section} (${hostOf(site)})`;
        assert.ok(log.length > 0, `${name}: no request logged`);
        assert.equal(log[0]!.path, '/robots.txt', `${name}: robots.txt is the first request`);
        assert.equal(log.filter((a) => a.path === '/robots.txt').length, 1, `${name}: robots.txt once`);

        // No two starts on the host closer than the interval (the delay; a refusal only raises it).
        const gaps = log.slice(1).map((a, k) => a.at - log[k]!.at);
        const shortest = Math.min(...gaps);
        assert.ok(
          shortest + ALLOWANCE_MS >= DELAY * 1000,
          `${name}: a gap of ${shortest} ms, below ${DELAY * 1000} ms`,
        );

        // Every refused request is asked again, and every file ends served.
        const refusals = log.filter(refused);
        if (spec.limit) assert.ok(refusals.length > 0, `${name}: the limiter refused nothing at ${DELAY} s`);
        else assert.equal(refusals.length, 0, `${name}: refused without a limiter`);
        const waits: number[] = [];
        for (const r of refusals) {
          const retry = log.find((a) => a.at > r.at && a.path === r.path);
          assert.ok(retry, `${name}: ${r.path} refused at ${r.at} and never asked again`);
          assert.ok(refused(retry) || retry.status === 200);
          if (spec.limit?.retryAfter !== undefined) {
            // Retry-After counts from the answer: nothing at all goes to the host before it has passed.
            const until = r.endedAt + Number(spec.limit.retryAfter) * 1000;
            const early = log.filter((a) => a.at > r.at && a.at + ALLOWANCE_MS < until);
            assert.deepEqual(early, [], `${name}: requests within the Retry-After after ${r.path} at ${r.endedAt}`);
            assert.ok(
              retry.at + ALLOWANCE_MS >= until,
              `${name}: ${r.path} asked again ${retry.at - r.endedAt} ms after`,
            );
            waits.push(retry.at - r.endedAt);
          } else {
            // No Retry-After: the retry waits its backoff, at the host's interval raised to at least 1 s.
            assert.ok(
              retry.at - r.at + ALLOWANCE_MS >= 1000,
              `${name}: ${r.path} asked again ${retry.at - r.at} ms after`,
            );
            waits.push(retry.at - r.endedAt);
          }
        }
        const lastOf = new Map<string, number>();
        for (const a of log) lastOf.set(a.path, a.status);
        for (const [p, status] of lastOf) assert.equal(status, 200, `${name}: ${p} ended ${status}`);
        const retries = log.length - new Set(log.map((a) => a.path)).size;
        report.push(
          `${name}: ${log.length} requests, ${refusals.length} refused (${[...new Set(refusals.map((a) => a.status))].join('/') || '-'}), ${retries} retries (asked again ${waits.join(', ') || '-'} ms after the refusal's answer), shortest gap ${shortest} ms`,
        );
      });
      // What nginx saw, for the record.
      for (const line of report) t.diagnostic(line);
    },
  );

  it('a host whose limiter asks to wait an hour is not planned as 0 pages: its pages are unknown', T, async () => {
    const spec: HostSpec = {
      address: '127.0.0.85',
      section: 'status',
      pages: 30,
      children: 0,
      drafts: 0,
      limit: { rate: '1r/s', status: 429, retryAfter: '3600' },
    };
    const nginx = await serve([spec, HOSTS[2]!]);
    const [limited, open] = nginx.sites;
    const doc = await estimate([limited!, open!]);
    const h = doc.hosts[0]!;
    assert.equal(h.host, hostOf(limited!));
    assert.equal(h.pages, null);
    // The one sitemap it has was refused with a Retry-After above the 300 s cap: the host was left at once.
    assert.equal(h.pagesUnknown?.code, 'http-status');
    assert.match(
      h.pagesUnknown!.reason,
      /^429: the sitemap was not served; it asked to wait 3600 s \(Retry-After: 3600\), above the cap of 300 s/,
    );
    assert.ok(doc.warnings.some((w) => w.code === 'pages-unknown'));
    assert.equal(doc.hosts[1]!.pages, 80);
    assert.equal(doc.totalPages, 80);
    assert.equal(doc.complete, false);
    assert.deepEqual(doc.unknownHosts, [hostOf(limited!)]);
    // The host was left at once: robots.txt, the refused sitemap, and nothing after it.
    assert.deepEqual(
      nginx.arrivalsOf(limited!).map((a) => [a.path, a.status]),
      [
        ['/robots.txt', 200],
        ['/sitemap.xml', 429],
      ],
    );
  });
});
