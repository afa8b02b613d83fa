/**
 * The engine learns a rate limiter's limit (docs/crawl-engine.md#the-learned-limit), against one nobody here
 * wrote: Debian's nginx (test/helpers/nginx.ts) with `limit_req` at a fixed rate (4 r/s, no burst: every
 * request closer than 250 ms to the last one served is refused with 429 and `Retry-After: 1`), one host, and
 * the built CLI's `crawl` at an interval far below the limit (0.05 s). The first refusal is the price of
 * not knowing the limit; after it, nginx's access log must show at most 2% of the host's requests refused,
 * and, once the limit is learned (after the last refusal), the host served at no less than 1 ÷ 1.10 of the
 * limiter's rate: the crawler neither hammers the limiter (the old sawtooth: back below the limit after every
 * recovery) nor crawls far slower than it allows. Both are bounds measured by the server. The whole crawl's
 * makespan against the limiter's minimum (pages ÷ rate) is printed for the record: it includes the search
 * for the limit (one Retry-After pause and the slow way down from the first raise). Fails, never skips,
 * without nginx.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildCli, runCli } from '../helpers/cli';
import { freePort, startNginx, type NginxArrival, type NginxServer } from '../helpers/nginx';

const T = { timeout: 55_000 };
const HOST = '127.0.0.91';
/** The limiter: requests per second, no burst. */
const RATE = 4;
/** Pages linked from the index (the index is a page too). */
const PAGES = 100;
/** The crawl's configured interval: far below the limiter's 250 ms. */
const DELAY = 0.05;

const servers: NginxServer[] = [];
before(() => buildCli());
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const refused = (a: NginxArrival) => a.status === 429;
const seconds = (ms: number) => (ms / 1000).toFixed(2);

function siteFiles(): Record<string, string> {
  const paths = Array.from({ length: PAGES }, (_, i) => `/p/${String(i + 1).padStart(3, '0')}.html`);
  const files: Record<string, string> = { '/robots.txt': 'User-agent: *\nAllow: /\n' };
  files['/'] = `<!doctype html><title>index</title>${paths.map((p) => `<a href="${p}">${p}</a>`).join('\n')}\n`;
  for (const p of paths) files[p] = `<!doctype html><title>${p}</title><p>${p}</p>\n`;
  return files;
}

describe('the learned limit against nginx limit_req', () => {
  it(
    `at ${RATE} r/s with a ${DELAY} s interval: after the first refusal at most 2% refused, then the limiter's pace within 10%`,
    T,
    async (t) => {
      const port = await freePort(HOST);
      const nginx = await startNginx([
        { host: HOST, port, files: siteFiles(), limit: { rate: `${RATE}r/s`, status: 429, retryAfter: '1' } },
      ]);
      servers.push(nginx);
      const site = nginx.sites[0]!;
      const r = await runCli(
        [
          'crawl',
          site.url('/'),
          '--delay',
          String(DELAY),
          '--max-pages',
          String(PAGES + 1),
          '--max-depth',
          '1',
          '--json',
        ],
        { timeoutMs: 50_000 },
      );
      assert.equal(r.status, 0, r.stderr);

      const log = nginx.arrivalsOf(site);
      const served = log.filter((a) => a.status === 200);
      // Every page served once, robots.txt too: nothing lost to the limiter.
      assert.equal(served.length, PAGES + 2, `served ${served.length} of ${PAGES + 2}`);
      const refusals = log.filter(refused);
      assert.ok(refusals.length >= 1, 'the limiter refused nothing: the interval was not below its limit');
      const afterFirst = refusals.length - 1;
      const when = refusals.map((a) => {
        const i = log.indexOf(a);
        return `${seconds(a.at - log[0]!.at)} s (gap ${i > 0 ? a.at - log[i - 1]!.at : 0} ms)`;
      });
      assert.ok(
        afterFirst <= 0.02 * log.length,
        `${afterFirst} refusals after the first, of ${log.length} requests (more than 2%): ${when.join(', ')}`,
      );

      // Once learned: after the last refusal and the way back from its raise (the retry after the Retry-After,
      // then one halving), to the end, the host at the limiter's pace within 10%: its gaps add up to at most
      // 1.10 × the limiter's interval per gap.
      const last = log.lastIndexOf(refusals.at(-1)!);
      const steady = log.slice(last + 3);
      assert.ok(steady.length >= PAGES / 2, `only ${steady.length} requests after the last refusal`);
      const span = steady.at(-1)!.at - steady[0]!.at;
      const limiterSpan = ((steady.length - 1) * 1000) / RATE;
      assert.ok(
        span <= 1.1 * limiterSpan,
        `after the last refusal: ${steady.length} requests in ${seconds(span)} s; the limiter allows them in ${seconds(limiterSpan)} s`,
      );

      // The crawl says what holds the host: its request starts after the learning name the learned limit.
      const starts = r.stdout
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { type: string; intervalSource?: string; intervalSeconds?: number })
        .filter((e) => e.type === 'request-start');
      const held = starts.filter((e) => e.intervalSource === 'learned-limit');
      assert.ok(held.length >= PAGES / 2, `${held.length} request starts held by the learned limit`);
      assert.ok(held.every((e) => e.intervalSeconds! >= 1 / RATE));

      const makespan = log.at(-1)!.at - log[0]!.at;
      t.diagnostic(
        `${log.length} requests, ${refusals.length} refused (${afterFirst} after the first); makespan ${seconds(makespan)} s, ` +
          `limiter's minimum ${seconds(((PAGES + 1) * 1000) / RATE)} s (×${(makespan / (((PAGES + 1) * 1000) / RATE)).toFixed(3)}); ` +
          `after the last refusal ${steady.length} requests in ${seconds(span)} s (×${(span / limiterSpan).toFixed(3)})`,
      );
    },
  );
});
