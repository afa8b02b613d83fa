/**
 * The proof (`npm run test:frameworks`, opt-in): the Scrapy and Crawlee exports, run unchanged by Debian's
 * Scrapy and by Crawlee from npm, keep the plan on loopback hosts with a Crawl-delay, 429 + Retry-After,
 * 503 + Retry-After and a robots.txt that answers 503. Judged only from the host servers' arrival logs, by
 * the bench's own harness (bench/sections/crawlers.ts) with Scrapy and Crawlee on their own settings beside
 * them; the table is printed as the bench prints it.
 *
 * What must hold for each export: no gap shorter than the host's interval beyond the loopback slack and the
 * servers' own event-loop delay, one request in flight per host, no Disallowed path, no request to a host
 * before the Retry-After it sent was over, and no page from the host whose robots.txt answers 503. Each
 * property is also shown to have been put to the test (the 429s were sent, the robots.txt was asked for).
 *
 * Needs: /usr/bin/python3 with scrapy (apt-get install python3-scrapy; installed on first use as root) and
 * network access to the npm registry once, for bench/peers/crawlee.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DemoArrival } from '../../src/demo';
import {
  crawleeExportPeer,
  EXPORT_PEERS,
  exportProofScenario,
  PROOF_HOSTS,
  scrapyExportPeer,
} from '../../bench/lib/exportPeers';
import type { ServerLog } from '../../bench/lib/hostServer';
import { benchTableLines } from '../../bench/lib/print';
import type { BenchContext } from '../../bench/lib/types';
import { runCrawlerBench, type CrawlerBench, type PeerResult } from '../../bench/sections/crawlers';
import { buildCli, ROOT } from '../helpers/cli';

const scenario = exportProofScenario(false);
let tmp: string;
let bench: CrawlerBench;

before(
  async () => {
    buildCli();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'frameworks-proof-'));
    const ctx: BenchContext = {
      root: ROOT,
      tmp,
      quick: false,
      log: (line) => process.stderr.write(`  [proof] ${line}\n`),
    };
    bench = await runCrawlerBench(ctx, EXPORT_PEERS, [scenario]);
  },
  { timeout: 600_000 },
);

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function resultOf(id: string): PeerResult {
  const r = bench.results[0]!.peers.find((p) => p.peer.id === id);
  assert.ok(r, `${id} ran`);
  return r;
}

/** What the servers saw in that peer's run (the harness keeps it next to the run's other files). */
function arrivals(id: string): DemoArrival[] {
  const dir = path.join(tmp, scenario.id, id.replace(/[^a-z0-9-]+/gi, '_'));
  return (JSON.parse(fs.readFileSync(path.join(dir, 'arrivals.json'), 'utf8')) as ServerLog).arrivals;
}

describe("the exports keep the plan on loopback hosts (judged from the servers' logs)", () => {
  it("prints the bench's table: the exports beside Scrapy and Crawlee on their own settings", (t) => {
    for (const table of bench.tables) for (const line of benchTableLines(table)) t.diagnostic(line);
    assert.equal(bench.results[0]!.peers.length, EXPORT_PEERS.length);
  });

  for (const peer of [scrapyExportPeer, crawleeExportPeer]) {
    describe(peer.id, () => {
      it('ran to its end and crawled every host the plan allows', () => {
        const r = resultOf(peer.id);
        assert.equal(r.error, undefined, r.error);
        assert.equal(r.run?.exitCode, 0, r.run?.stderrTail);
        const seen = arrivals(peer.id);
        for (const h of scenario.hosts) {
          if (h.name === PROOF_HOSTS.robots503) continue;
          const pages = seen.filter((a) => a.host === h.name && a.status === 200 && a.path !== '/robots.txt').length;
          assert.ok(pages >= h.pages - 1, `${h.name}: ${pages} of ${h.pages} pages`);
        }
      });

      it('zero violations: no gap shorter than the interval, one request in flight per host, no Disallowed path', () => {
        const m = resultOf(peer.id).metrics!;
        assert.equal(
          m.shortGapsBeyondLag,
          0,
          `${m.shortGaps} short gaps, worst by ${m.worstShortfallMs.toFixed(1)} ms (server event-loop delay ${resultOf(peer.id).lagMs?.toFixed(1)} ms)`,
        );
        assert.equal(m.maxInFlight, 1);
        assert.equal(m.disallowedFetches, 0);
        // The Crawl-delay host was crawled often enough for its gaps to be judged.
        assert.ok(arrivals(peer.id).filter((a) => a.host === PROOF_HOSTS.crawlDelay).length >= 5);
      });

      it('no request before a Retry-After ends (429 in seconds and as an HTTP-date, 503 in seconds)', () => {
        const seen = arrivals(peer.id);
        const asked = seen.filter((a) => a.retryAfter !== undefined);
        assert.ok(
          asked.some((a) => a.host === PROOF_HOSTS.tooManyRequests && a.status === 429 && /^\d+$/.test(a.retryAfter!)),
          'a 429 with delay-seconds was sent',
        );
        assert.ok(
          asked.some((a) => a.host === PROOF_HOSTS.tooManyRequests && a.status === 429 && /GMT$/.test(a.retryAfter!)),
          'a 429 with an HTTP-date was sent',
        );
        assert.ok(
          asked.some((a) => a.host === PROOF_HOSTS.unavailable && a.status === 503),
          'a 503 with Retry-After was sent',
        );
        for (const a of asked)
          assert.ok(
            seen.some((b) => b.host === a.host && b.at > a.at),
            `${a.host} was asked again after its ${a.status}`,
          );
        assert.equal(resultOf(peer.id).metrics!.earlyAfterRetryAfter, 0);
      });

      it('no page from the host whose robots.txt answers 503', () => {
        const seen = arrivals(peer.id).filter((a) => a.host === PROOF_HOSTS.robots503);
        assert.ok(
          seen.some((a) => a.path === '/robots.txt' && a.status === 503),
          'its robots.txt was asked for',
        );
        assert.deepEqual(
          seen.filter((a) => a.path !== '/robots.txt').map((a) => a.path),
          [],
        );
        assert.equal(resultOf(peer.id).metrics!.unreachableRobotsFetches, 0);
      });
    });
  }
});
