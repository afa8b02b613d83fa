/**
 * The exports keep a politeness unit when a real framework runs them (`npm run test:frameworks`, opt-in):
 * two host names (`shop.localhost`, `blog.localhost`) on ONE loopback address, 127.0.0.1, each on a port of
 * its own (the demo hosts' `single` addressing), exported with `politenessBy: ip` and the address both
 * resolve to, then run unchanged by Debian's Scrapy and by Crawlee from npm. Judged only from the servers'
 * arrival log (bench/lib/hostServer.ts, a process of its own): across both names, no gap between two
 * request starts shorter than the unit's interval (the larger of the two hosts' intervals: blog's
 * Crawl-delay 0.5 s over the 0.3 s delay) beyond the loopback slack and the server's event-loop delay, and
 * never two requests in flight at once; and shop's 503 with Retry-After pauses both names until its end. The
 * same plan exported by host is the control: there, the two names' requests interleave, the address sees gaps
 * shorter than that interval, and blog goes on during shop's Retry-After.
 *
 * The export is made by the core (`exportPlan` with the plan input's `politenessBy` and `addressesByHost`),
 * the same files `crawl-planner export --politeness-by ip --resolve …` writes. Few pages, loopback only,
 * each run capped.
 *
 * Needs: /usr/bin/python3 with scrapy and bench/peers/crawlee's node_modules (installed on first use, as the
 * other framework tests do).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportPlan } from '../../src/core/export';
import { plan } from '../../src/core/plan';
import { validateSeeds } from '../../src/core/seeds';
import type { PolitenessBy } from '../../src/core/servers';
import type { DemoArrival } from '../../src/demo';
import { LOOPBACK_SLACK_MS } from '../../src/demo/lag';
import { startHostServer, type HostServer, type ServerLog } from '../../bench/lib/hostServer';
import {
  ensureCrawlee,
  ensureScrapy,
  nodeCommand,
  runPeer,
  scrapyCommand,
  type CrawlerPeer,
  type CrawlJob,
  type PeerCommand,
} from '../../bench/lib/peers';
import { host } from '../../bench/lib/scenarios';
import type { BenchContext } from '../../bench/lib/types';
import { ROOT } from '../helpers/cli';

const PAGES = 5;
const DELAY_SECONDS = 0.3;
const CRAWL_DELAY_SECONDS = 0.5;
/** The unit's interval: the largest of its hosts' (blog's Crawl-delay). */
const UNIT_INTERVAL_MS = Math.max(DELAY_SECONDS, CRAWL_DELAY_SECONDS) * 1000;
const RUN_CAP_MS = 40_000;
const latency = { kind: 'uniform', minMs: 5, maxMs: 20 } as const;
const HOSTS = [
  // Its third request starts a 1 s burst of 503s with Retry-After (seconds).
  host('shop', { pages: PAGES, latency }, { unavailable: { atRequest: 3, forMs: 1000, retryAfterForm: 'seconds' } }),
  host('blog', { pages: PAGES, latency }, { robotsTxt: { kind: 'rules', crawlDelay: CRAWL_DELAY_SECONDS } }),
];

let tmp: string;
let ctx: BenchContext;
let server: HostServer;

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'frameworks-units-'));
  ctx = { root: ROOT, tmp, quick: false, log: (line) => process.stderr.write(`  [units] ${line}\n`) };
  server = await startHostServer();
});

after(async () => {
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

interface UnitRun {
  log: ServerLog;
  exitCode: number | null;
  stderrTail: string;
  /** Both names' arrivals, in order of arrival. */
  unit: DemoArrival[];
  /** Consecutive request starts on the address closer than the unit's interval − slack (− lag: beyond the stamps' noise). */
  shortGaps: number;
  shortGapsBeyondLag: number;
  minGapMs: number;
  /** The most requests the address had open at once. */
  maxInFlight: number;
  /** shop's Retry-After waits: [from the answer's end, to its end], ms on the server's clock. */
  waits: { from: number; until: number }[];
  /** Requests to the address, either name, that started inside one of those waits (beyond the slack). */
  duringWaits: DemoArrival[];
}

function judge(log: ServerLog, run: { exitCode: number | null; stderrTail: string }): UnitRun {
  const names = new Set(HOSTS.map((h) => h.name));
  const unit = log.arrivals.filter((a) => names.has(a.host)).sort((a, b) => a.at - b.at);
  let shortGaps = 0;
  let shortGapsBeyondLag = 0;
  let minGapMs = Infinity;
  for (let i = 1; i < unit.length; i++) {
    const gap = unit[i]!.at - unit[i - 1]!.at;
    minGapMs = Math.min(minGapMs, gap);
    if (gap < UNIT_INTERVAL_MS - LOOPBACK_SLACK_MS) shortGaps++;
    if (gap < UNIT_INTERVAL_MS - LOOPBACK_SLACK_MS - log.lagMs) shortGapsBeyondLag++;
  }
  const end = Math.max(...unit.map((a) => a.endedAt ?? a.at));
  let maxInFlight = 0;
  for (const a of unit) {
    const open = unit.filter((b) => b.at <= a.at && (b.endedAt ?? end) > a.at).length;
    maxInFlight = Math.max(maxInFlight, open);
  }
  const waits = unit.flatMap((a) =>
    a.retryAfter !== undefined && /^\d+$/.test(a.retryAfter) && a.endedAt !== undefined
      ? [{ from: a.endedAt, until: a.endedAt + Number(a.retryAfter) * 1000 }]
      : [],
  );
  const duringWaits = unit.filter((a) =>
    waits.some((w) => a.at > w.from + LOOPBACK_SLACK_MS && a.at < w.until - LOOPBACK_SLACK_MS - log.lagMs),
  );
  return { log, ...run, unit, shortGaps, shortGapsBeyondLag, minGapMs, maxInFlight, waits, duringWaits };
}

type Format = 'scrapy' | 'crawlee';

/** Exports the plan for the hosts as they listen now, by `by`, into DIR/export, and returns the command that runs it. */
function exportAndCommand(format: Format, by: PolitenessBy, job: CrawlJob, dir: string): PeerCommand {
  const seeds = validateSeeds(job.seeds.map((text, i) => ({ text, line: i + 1 }))).seeds;
  const keys = [...new Set(seeds.map((s) => s.host))];
  const blog = keys.find((k) => k.startsWith('blog.'))!;
  const addressesByHost = Object.fromEntries(keys.map((k) => [k, [job.resolve[new URL(`http://${k}`).hostname]!]]));
  const input = { politenessBy: by, addressesByHost };
  const p = plan({
    seeds,
    pages: { perHost: PAGES },
    delaySeconds: DELAY_SECONDS,
    delayFrom: 'start',
    workers: 4,
    // Known before the crawl, as `export --robots` reads it.
    crawlDelayByHost: { [blog]: CRAWL_DELAY_SECONDS },
    ...input,
  });
  const result = exportPlan(format, p, {
    seeds,
    productToken: 'CrawlPlannerExport',
    userAgentHeader: 'CrawlPlannerExport/1.0',
    timeoutSeconds: job.timeoutSeconds,
    maxRetries: job.maxRetries,
  });
  const out = path.join(dir, 'export');
  for (const f of result.files) {
    fs.mkdirSync(path.dirname(path.join(out, f.path)), { recursive: true });
    fs.writeFileSync(path.join(out, f.path), f.content);
  }
  fs.writeFileSync(path.join(dir, 'notes.txt'), result.notes.join('\n') + '\n');
  if (format === 'scrapy')
    return scrapyCommand(ctx, ['crawl', 'planned', '-s', `LOG_FILE=${path.join(dir, 'scrapy.log')}`], { cwd: out });
  fs.symlinkSync(path.join(ROOT, 'bench', 'peers', 'crawlee', 'node_modules'), path.join(out, 'node_modules'), 'dir');
  return nodeCommand(ctx, path.join(out, 'crawl.mjs'), [], {
    cwd: dir,
    env: { CRAWLEE_STORAGE_DIR: path.join(dir, 'storage') },
  });
}

async function runUnit(format: Format, by: PolitenessBy): Promise<UnitRun> {
  const dir = path.join(tmp, `${format}-${by}`);
  fs.mkdirSync(dir, { recursive: true });
  const { hosts, addressing } = await server.start({ hosts: HOSTS, addressing: 'single' });
  assert.equal(addressing, 'single');
  assert.equal(new Set(hosts.map((h) => h.address)).size, 1, 'both names on one address');
  const job: CrawlJob = {
    seeds: hosts.flatMap((h) => h.seeds),
    delaySeconds: DELAY_SECONDS,
    concurrency: 4,
    timeoutSeconds: 2,
    maxRetries: 1,
    maxDepth: 3,
    maxPages: PAGES * HOSTS.length * 2,
    resolve: Object.fromEntries(hosts.map((h) => [new URL(h.origin).hostname, h.address])),
  };
  const peer: CrawlerPeer = {
    id: `${format} (export, by ${by})`,
    limits: [],
    prepare: format === 'scrapy' ? ensureScrapy : ensureCrawlee,
    command: (j, d) => exportAndCommand(format, by, j, d),
  };
  let run: { exitCode: number | null; stderrTail: string };
  try {
    ctx.log(peer.id);
    const r = await runPeer(peer, job, dir, ctx, RUN_CAP_MS);
    run = { exitCode: r.killed ? null : r.exitCode, stderrTail: r.stderrTail };
  } catch (err) {
    run = { exitCode: null, stderrTail: err instanceof Error ? err.message : String(err) };
  }
  const log = await server.stop();
  fs.writeFileSync(path.join(dir, 'arrivals.json'), JSON.stringify(log, null, 1));
  return judge(log, run);
}

const T = { timeout: 180_000 };

for (const format of ['scrapy', 'crawlee'] as const) {
  describe(`${format}: two names on one address, exported by ip and by host`, () => {
    let byIp: UnitRun;
    let byHost: UnitRun;

    before(async () => {
      await (format === 'scrapy' ? ensureScrapy(ctx) : ensureCrawlee(ctx));
      byIp = await runUnit(format, 'ip');
      byHost = await runUnit(format, 'host');
    }, T);

    it('both runs end by themselves and crawl both names', () => {
      for (const r of [byIp, byHost]) {
        assert.equal(r.exitCode, 0, r.stderrTail);
        for (const h of HOSTS) {
          const pages = r.unit.filter((a) => a.host === h.name && a.status === 200 && a.path !== '/robots.txt');
          assert.ok(pages.length >= PAGES - 1, `${h.name}: ${pages.length} of ${PAGES} pages`);
        }
      }
    });

    it(`by ip: no gap on the address shorter than the unit's ${UNIT_INTERVAL_MS} ms, one request in flight`, (t) => {
      t.diagnostic(
        `by ip: ${byIp.unit.length} requests, smallest gap ${byIp.minGapMs.toFixed(1)} ms, ${byIp.shortGaps} short (${byIp.shortGapsBeyondLag} beyond the server's lag of ${byIp.log.lagMs.toFixed(1)} ms)`,
      );
      assert.ok(byIp.unit.length >= 2 * PAGES, `${byIp.unit.length} requests`);
      assert.equal(byIp.shortGapsBeyondLag, 0, `smallest gap ${byIp.minGapMs.toFixed(1)} ms`);
      assert.equal(byIp.maxInFlight, 1);
    });

    it("by ip: shop's 503 with Retry-After pauses both names until it ends", () => {
      assert.ok(byIp.waits.length > 0, 'shop sent a 503 with Retry-After');
      assert.deepEqual(
        byIp.duringWaits.map((a) => `${a.host} ${a.path}`),
        [],
      );
    });

    it('by host (the control): the two names interleave and the address gets shorter gaps', (t) => {
      t.diagnostic(
        `by host: ${byHost.unit.length} requests, smallest gap ${byHost.minGapMs.toFixed(1)} ms, ${byHost.shortGaps} short`,
      );
      assert.ok(byHost.shortGapsBeyondLag > 0, `smallest gap ${byHost.minGapMs.toFixed(1)} ms`);
      assert.ok(byHost.minGapMs < DELAY_SECONDS * 1000, `smallest gap ${byHost.minGapMs.toFixed(1)} ms`);
    });

    it("by host (the control): blog goes on during shop's Retry-After, shop does not", () => {
      assert.ok(byHost.waits.length > 0, 'shop sent a 503 with Retry-After');
      assert.ok(
        byHost.duringWaits.some((a) => a.host === 'blog'),
        'a request to blog inside the wait',
      );
      assert.deepEqual(
        byHost.duringWaits.filter((a) => a.host === 'shop').map((a) => a.path),
        [],
      );
    });
  });
}
