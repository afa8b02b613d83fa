/**
 * Blocking suspected, on virtual time (test/helpers/crawlEngine.ts): the engine feeds each host's answers to
 * its detector (src/core/blocking/detector.ts) and reacts as `onBlock` says. A host that switches to 403, one
 * that serves a challenge page with status 200 and one whose pages shrink to an empty shell each raise
 * `blocking-suspected` within 20 requests of the change; `slow` doubles the interval (the gaps between starts
 * show it) and drops the host on a second signal; `warn` does neither; `stop` drops it at once; a healthy host
 * whose pages vary in size raises none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BlockingSuspectedEvent, CrawlEvent } from '../../src/core/crawl/events';
import { resolveCrawlOptions } from '../../src/core/crawl/engineOptions';
import { mulberry32 } from '../../src/core/random';
import type { CrawlOptions } from '../../src/core/crawl/types';
import type { FakeResponse, FakeScript } from '../helpers/crawlFakes';
import { assertLiveIntervalKept, byUrl, setup, urlsOf } from '../helpers/crawlEngine';

const HOST = 'b.test';
const PAGES = 100;
/** The request (0-based, in crawl order) from which the host changes. */
const CHANGE = 40;

/** A healthy page: about 20 kB (lognormal, σ 0.5) and 20 links to other pages of the host. */
function healthyPage(i: number, random: () => number): FakeResponse {
  const normal = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const bytes = Math.round(20_000 * Math.exp(0.5 * normal));
  const links = Array.from({ length: 20 }, (_, k) => `http://${HOST}/p${(i + k + 1) % PAGES}`);
  return { links, body: `<p>${'x'.repeat(bytes)}</p>` };
}

const CHALLENGE =
  '<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></body></html>';

/** The host's pages: healthy, then from CHANGE on what `after` gives. */
function site(after: ((i: number) => FakeResponse) | undefined): Record<string, FakeScript> {
  const random = mulberry32(7);
  const urls = urlsOf(HOST, PAGES);
  return Object.fromEntries(
    urls.map((u, i) => [u, i >= CHANGE && after !== undefined ? after(i) : healthyPage(i, random)]),
  );
}

const refuse = (): FakeResponse => ({ status: 403 });
const challenge = (): FakeResponse => ({ body: CHALLENGE });
const shell = (): FakeResponse => ({ body: '<div id="app"></div>' });

async function crawlOf(after: ((i: number) => FakeResponse) | undefined, o: Partial<Omit<CrawlOptions, 'seeds'>> = {}) {
  const { crawl, rec, site: fake } = setup(site(after));
  const result = await crawl({ seeds: urlsOf(HOST, PAGES), maxPages: Infinity, maxDepth: 0, ...o });
  const signals = rec.of('blocking-suspected');
  return { result, rec, fake, signals };
}

/** Responses from the change (the first changed page's response) up to and including the first signal. */
function requestsToDetection(events: readonly CrawlEvent[]): number {
  let n = 0;
  for (const e of events) {
    if (e.type === 'blocking-suspected') return n;
    if (e.type === 'response' && Number(new URL(e.url).pathname.slice(2)) >= CHANGE) n++;
  }
  return Infinity;
}

/** Start-to-start gaps (ms) of the host's requests, each with the time of its start. */
function gaps(log: ReadonlyArray<{ startedAt: number }>): Array<{ at: number; gap: number }> {
  return log.slice(1).map((e, i) => ({ at: e.startedAt, gap: e.startedAt - log[i]!.startedAt }));
}

describe('crawl engine: blocking suspected', () => {
  it('onBlock defaults to slow, declared with the other engine defaults; a bad value is refused', () => {
    const fetch: CrawlOptions['fetch'] = () => Promise.reject(new Error('unused'));
    const base = { seeds: [], clock: { now: () => 0, sleep: () => Promise.resolve() }, random: Math.random, fetch };
    assert.equal(resolveCrawlOptions(base as unknown as CrawlOptions).onBlock, 'slow');
    assert.throws(
      () => resolveCrawlOptions({ ...base, onBlock: 'loud' } as unknown as CrawlOptions),
      /crawl option onBlock must be warn, slow or stop, got loud/,
    );
  });

  it('a host that switches to 403: refusals within 20 requests; slow doubles the gaps, the second signal drops it', async () => {
    const { result, rec, fake, signals } = await crawlOf(refuse);
    const first = signals[0]!;
    assert.equal(first.kind, 'refusals');
    assert.match(first.text, /^403 share rose from 0% to \d+% over the last 20 requests$/);
    const toDetection = requestsToDetection(rec.events);
    assert.ok(toDetection <= 20, `detected ${toDetection} requests after the change`);
    assert.equal(first.action, 'slowed');
    assert.equal(first.intervalSeconds, 2);
    // The gaps: 1 s before the first signal, at least 2 s after it (through the host's rate).
    const log = fake.log.filter((e) => e.host === HOST);
    for (const { at, gap } of gaps(log)) {
      if (at <= first.at) assert.ok(gap >= 1000, `gap ${gap} ms before the signal`);
      else assert.ok(gap >= 2000, `gap ${gap} ms after the signal (at +${at - log[0]!.startedAt} ms)`);
    }
    assertLiveIntervalKept(rec.events);
    const second = signals[1]!;
    assert.equal(second.action, 'dropped');
    assert.equal(signals.length, 2);
    const dropped = rec.of('host-dropped');
    assert.equal(dropped.length, 1);
    assert.equal(dropped[0]!.reason, 'blocking-suspected');
    assert.match(dropped[0]!.detail, /^refusals: 403 share rose/);
    const left = result.urls.filter((u) => u.outcome === 'host-dropped');
    assert.equal(left.length, dropped[0]!.urlsLeft);
    assert.ok(left.length > 0 && left.every((u) => /^blocking-suspected: refusals: /.test(u.detail ?? '')));
    const host = result.summary.hosts[0]!;
    assert.deepEqual(
      { signals: host.blocking?.signals, action: host.blocking?.action, kind: host.blocking?.kind },
      { signals: 2, action: 'dropped', kind: 'refusals' },
    );
    assert.match(host.dropped ?? '', /^blocking-suspected: /);
    assert.equal(result.summary.endReason, 'hosts-dropped');
    // Requests after the change: detection, five more refusals at the slowed pace, then nothing.
    const after = log.filter((e) => Number(new URL(e.url).pathname.slice(2)) >= CHANGE).length;
    assert.ok(after <= toDetection + 10, `${after} requests after the change`);
  });

  it('a challenge page with status 200: the marker signal within 20 requests', async () => {
    const { rec, signals } = await crawlOf(challenge);
    assert.equal(signals[0]!.kind, 'marker');
    assert.match(signals[0]!.text, /Cloudflare challenge, marker cloudflare-challenge-platform/);
    assert.ok(requestsToDetection(rec.events) <= 20);
  });

  it("pages that shrink to an empty shell: the shrunk signal within 20 requests, in the words of this host's median", async () => {
    const { rec, signals } = await crawlOf(shell);
    assert.equal(signals[0]!.kind, 'shrunk');
    assert.match(signals[0]!.text, /^pages shrank to 0% of this host's median size, 0 links$/);
    assert.ok(requestsToDetection(rec.events) <= 20);
  });

  it('warn: the event only, no slower interval, nothing dropped', async () => {
    const { result, fake, signals } = await crawlOf(refuse, { onBlock: 'warn' });
    assert.ok(signals.length >= 2);
    assert.ok(signals.every((s: BlockingSuspectedEvent) => s.action === 'warned' && s.intervalSeconds === 1));
    const log = fake.log.filter((e) => e.host === HOST);
    assert.equal(log.length, PAGES);
    for (const { gap } of gaps(log)) assert.ok(gap < 2000, `gap ${gap} ms`);
    assert.equal(
      result.urls.every((u) => u.outcome === 'fetched'),
      true,
    );
    assert.equal(result.summary.hosts[0]!.blocking?.action, 'warned');
  });

  it('stop: the host is dropped on the first signal', async () => {
    const { result, rec, signals } = await crawlOf(refuse, { onBlock: 'stop' });
    assert.equal(signals.length, 1);
    assert.equal(signals[0]!.action, 'dropped');
    assert.equal(rec.of('host-dropped')[0]!.reason, 'blocking-suspected');
    const m = byUrl(result);
    assert.equal(m.get(`http://${HOST}/p${PAGES - 1}`)!.outcome, 'host-dropped');
    assert.ok(requestsToDetection(rec.events) <= 20);
  });

  it('a healthy host whose pages vary in size raises none', async () => {
    for (const seed of [1, 2, 3]) {
      const random = mulberry32(seed);
      const pages = Object.fromEntries(urlsOf(HOST, 200).map((u, i) => [u, healthyPage(i, random)]));
      const { crawl, rec } = setup(pages);
      const result = await crawl({ seeds: urlsOf(HOST, 200), maxPages: Infinity, maxDepth: 0 });
      assert.equal(rec.of('blocking-suspected').length, 0, `seed ${seed}`);
      assert.equal(result.summary.hosts[0]!.blocking, undefined);
    }
  });
});
