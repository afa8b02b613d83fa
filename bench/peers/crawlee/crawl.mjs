// One bench crawl with Crawlee (CheerioCrawler: plain HTTP, no browser), run by bench/lib/peers.ts as
//   node --import bench/lib/resolvePreload.mjs bench/peers/crawlee/crawl.mjs JOB.json
// JOB.json is the bench's CrawlJob: seeds, delay, global slots, timeout, retries, depth and page limits.
// Settings Crawlee cannot express are listed with the peer in bench/lib/peers.ts.
import { readFileSync } from 'node:fs';
import { CheerioCrawler, Configuration, log } from 'crawlee';

const job = JSON.parse(readFileSync(process.argv[2], 'utf8'));
log.setLevel(log.LEVELS.WARNING);

const crawler = new CheerioCrawler(
  {
    // The per-host delay: Crawlee keeps it per registrable domain, measured between request starts.
    sameDomainDelaySecs: job.delaySeconds,
    respectRobotsTxtFile: true,
    // Global slots: a fixed pool (Crawlee would otherwise start at one and scale up).
    minConcurrency: job.concurrency,
    maxConcurrency: job.concurrency,
    maxRequestRetries: job.maxRetries,
    navigationTimeoutSecs: job.timeoutSeconds,
    maxCrawlDepth: job.maxDepth,
    maxRequestsPerCrawl: job.maxPages,
    async requestHandler({ enqueueLinks }) {
      await enqueueLinks();
    },
  },
  new Configuration({ persistStorage: false, purgeOnStart: true }),
);

const stats = await crawler.run(job.seeds);
console.log(
  JSON.stringify({
    requestsFinished: stats.requestsFinished,
    requestsFailed: stats.requestsFailed,
    retryHistogram: stats.retryHistogram,
  }),
);
