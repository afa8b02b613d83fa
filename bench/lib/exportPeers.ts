/**
 * The exports as crawlers of the bench: `scrapy (export)` and `crawlee (export)` run what
 * `crawl-planner export` writes for the bench's job, unchanged, beside Scrapy and Crawlee with their own
 * settings (peers.ts). The export is made by the built CLI (dist/cli.js) from the job's seeds with the
 * job's delay, slots, timeout and retries, so each run crawls exactly the plan `estimate` prints for them.
 *
 * Also the proof's scenario (`npm run test:frameworks`, `npm run bench -- exports`): hosts with a
 * Crawl-delay, 429 with Retry-After, 503 with Retry-After, and a robots.txt that answers 503.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  crawleePeer,
  ensureCrawlee,
  ensureScrapy,
  nodeCommand,
  scrapyCommand,
  scrapyPeer,
  type CrawlerPeer,
  type CrawlJob,
  type PeerCommand,
} from './peers';
import { host, type Scenario } from './scenarios';
import type { BenchContext } from './types';

/** The product token the exports crawl with (the hosts only have `User-agent: *` groups). */
const EXPORT_TOKEN = 'CrawlPlannerExport';

function cli(ctx: BenchContext): string {
  const file = path.join(ctx.root, 'dist', 'cli.js');
  if (!fs.existsSync(file)) throw new Error('dist/cli.js is missing: run `npm run build` (npm run bench does)');
  return file;
}

/** Runs `crawl-planner export` for the job into DIR/export and returns that folder. */
export function exportForJob(ctx: BenchContext, format: 'scrapy' | 'crawlee', job: CrawlJob, dir: string): string {
  const seeds = path.join(dir, 'seeds.txt');
  fs.writeFileSync(seeds, job.seeds.join('\n') + '\n');
  const out = path.join(dir, 'export');
  const args = [
    cli(ctx),
    'export',
    '--format',
    format,
    '--out',
    out,
    '--seeds-file',
    seeds,
    // The job's page limit spread over its hosts: more than any host has, so every page is allowed.
    '--pages',
    String(job.maxPages),
    '--delay',
    String(job.delaySeconds),
    '--delay-from',
    'start',
    '--workers',
    String(job.concurrency),
    '--request-timeout',
    String(job.timeoutSeconds),
    '--max-retries',
    String(job.maxRetries),
    '--user-agent',
    EXPORT_TOKEN,
  ];
  const stdout = execFileSync(process.execPath, args, {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  fs.writeFileSync(path.join(dir, 'export.txt'), stdout);
  return out;
}

/** A peer that runs what `crawl-planner export --format FORMAT` writes for the job, as `run` says. */
function exportPeer(
  id: string,
  format: 'scrapy' | 'crawlee',
  limit: string,
  ensure: (ctx: BenchContext) => Promise<string>,
  run: (out: string, dir: string, ctx: BenchContext) => PeerCommand,
): CrawlerPeer {
  return {
    id,
    limits: [limit],
    async prepare(ctx) {
      cli(ctx);
      return ensure(ctx);
    },
    command(job, dir, ctx) {
      return run(exportForJob(ctx, format, job, dir), dir, ctx);
    },
  };
}

export const scrapyExportPeer = exportPeer(
  'scrapy (export)',
  'scrapy',
  "runs `crawl-planner export --format scrapy` unchanged (`scrapy crawl planned`); what it still does differently is in the export's settings.py and docs/exports.md",
  ensureScrapy,
  (project, dir, ctx) =>
    scrapyCommand(ctx, ['crawl', 'planned', '-s', `LOG_FILE=${path.join(dir, 'scrapy.log')}`], { cwd: project }),
);

export const crawleeExportPeer = exportPeer(
  'crawlee (export)',
  'crawlee',
  "runs `crawl-planner export --format crawlee` unchanged (`node crawl.mjs`, with the bench's Crawlee as its node_modules); what it still does differently is in the head of crawl.mjs and docs/exports.md",
  ensureCrawlee,
  (out, dir, ctx) => {
    // `crawlee` resolvable next to the script, as `npm install` in the folder would make it.
    fs.symlinkSync(
      path.join(ctx.root, 'bench', 'peers', 'crawlee', 'node_modules'),
      path.join(out, 'node_modules'),
      'dir',
    );
    return nodeCommand(ctx, path.join(out, 'crawl.mjs'), [], {
      cwd: dir,
      env: { CRAWLEE_STORAGE_DIR: path.join(dir, 'storage') },
    });
  },
);

/** The frameworks with their own settings and with the export, side by side. */
export const EXPORT_PEERS: CrawlerPeer[] = [scrapyPeer, scrapyExportPeer, crawleePeer, crawleeExportPeer];

/** Names of the proof scenario's hosts that the proof checks one by one. */
export const PROOF_HOSTS = {
  crawlDelay: 'cdelay',
  tooManyRequests: 'limited',
  unavailable: 'flaky',
  robots503: 'robots503',
} as const;

/** The proof: one host of each kind the exports must handle, and a plain one; a run takes seconds. */
export function exportProofScenario(quick: boolean): Scenario {
  const pages = quick ? 6 : 8;
  const latency = { kind: 'uniform', minMs: 5, maxMs: 30 } as const;
  return {
    id: 'export-proof',
    title: `the exports' proof: Crawl-delay 0.5 with Disallow, 429 + Retry-After 2 (seconds and HTTP-date), 503 + Retry-After, robots.txt 503, a plain host with a redirect chain (${pages} pages each)`,
    delaySeconds: 0.25,
    concurrency: 8,
    timeoutSeconds: 2,
    maxRetries: 2,
    faults: true,
    hosts: [
      host(
        PROOF_HOSTS.crawlDelay,
        { pages, latency },
        { robotsTxt: { kind: 'rules', crawlDelay: 0.5, disallow: ['/private'] }, privateLinks: 2 },
      ),
      host(
        PROOF_HOSTS.tooManyRequests,
        { pages, latency },
        { tooManyRequests: { every: 3, retryAfterSeconds: 2, retryAfterForm: 'alternate' } },
      ),
      host(
        PROOF_HOSTS.unavailable,
        { pages, latency },
        { unavailable: { atRequest: 3, forMs: 1000, retryAfterForm: 'seconds' } },
      ),
      host(PROOF_HOSTS.robots503, { pages, latency }, { robotsTxt: { kind: 'status', status: 503 } }),
      host('plain', { pages, latency }, { redirectChain: ['/old', '/older', '/page/3'] }),
    ],
  };
}
