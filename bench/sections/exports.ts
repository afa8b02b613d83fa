/**
 * `npm run bench -- exports`: what `crawl-planner export` writes for Scrapy and Crawlee, run unchanged, beside
 * the same frameworks with their own politeness settings (the `crawlers` section's peers), on the same
 * loopback hosts and judged the same way from the servers' arrival logs. First the proof's scenario (the one
 * `npm run test:frameworks` asserts on), then the `crawlers` section's five. CRAWL_BENCH_SCENARIOS and
 * CRAWL_BENCH_PEERS pick by id, as there.
 */
import { EXPORT_PEERS, exportProofScenario } from '../lib/exportPeers';
import { crawlerScenarios } from '../lib/scenarios';
import type { BenchSection } from '../lib/types';
import { chosen, PEERS_ENV, runCrawlerBench, SCENARIOS_ENV } from './crawlers';

export const exportsSection: BenchSection = {
  id: 'exports',
  title: 'The Scrapy and Crawlee exports of a plan beside Scrapy and Crawlee with their own settings',
  async run(ctx) {
    const peers = chosen(EXPORT_PEERS, PEERS_ENV);
    const scenarios = chosen([exportProofScenario(ctx.quick), ...crawlerScenarios(ctx.quick)], SCENARIOS_ENV);
    return (await runCrawlerBench(ctx, peers, scenarios)).tables;
  },
};
