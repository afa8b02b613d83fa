/**
 * The sidebar's buttons that hand the plan to the rest of the extension: Run test crawl (the plan's seeds, the
 * form's user agent and delay, a page cap), Copy plan as JSON, and a robots.txt link (only origins the planner
 * shows: a message cannot make the extension fetch anything else).
 */
import { planBudgets } from '../../core/crawl/pageBudgets';
import type { StepHost, TestCrawlRequest } from './deps';
import { errorText } from './deliver';
import { effectiveDelay, effectiveUserAgent } from './planning';
import type { RobotsStep } from './robotsStep';

/** Runs a test crawl of the plan's seeds (`plannedSeeds`), in a trusted workspace only. */
export function runTestCrawl(host: StepHost, plannedSeeds: () => readonly string[]): void {
  if (!host.deps.isTrusted()) {
    host.notice('error', 'Test crawls run only in a trusted workspace.');
    return;
  }
  const seeds = plannedSeeds();
  if (seeds.length === 0) {
    host.notice('error', 'No valid seed URL to crawl.');
    return;
  }
  const settings = host.deps.getSettings();
  const form = host.form();
  const planned = host.current().plan;
  const options: TestCrawlRequest = {
    userAgent: effectiveUserAgent(form, settings),
    delaySeconds: effectiveDelay(form, settings),
    delayFrom: form.delayFrom,
    maxPages: Math.max(1, Math.min(settings.maxPages, planned?.totalPages ?? settings.maxPages)),
    // Each host's budget is its planned pages (the rule `crawl --plan` and the exports use); a crawl of fewer
    // pages than the plan gives each host a share of them (capBudgets), so every host is sampled.
    ...(planned ? { pagesFor: planBudgets(planned.hosts).byHost } : {}),
    // The crawl keeps the plan's unit: it resolves the hosts itself when it starts (crawlPlanner.resolve first).
    ...(form.politenessBy !== 'host' ? { politenessBy: form.politenessBy } : {}),
  };
  // A crawl of N pages reaches at most N seeds: the first N go (100,000 seeds would not be a test crawl).
  host.guard('run the test crawl', () => host.deps.runTestCrawl(seeds.slice(0, options.maxPages), options));
}

/** Copies `json` (the plan as the `estimate --json` document); without a plan, says why. */
export function copyPlan(
  host: StepHost,
  json: string | undefined,
  writeClipboard: (text: string) => PromiseLike<void>,
): void {
  if (json === undefined) {
    const why = host.current().problems[0]?.message ?? 'there is no plan yet.';
    host.notice('error', `Nothing to copy: ${why}`);
    return;
  }
  const hosts = host.current().plan?.hosts.length ?? 0;
  Promise.resolve(writeClipboard(json)).then(
    () => host.notice('info', `Plan copied as JSON (${hosts} ${hosts === 1 ? 'host' : 'hosts'}).`),
    (err: unknown) => host.notice('error', `Could not copy the plan: ${errorText(err)}`),
  );
}

/** Opens an origin's robots.txt (at a 1-based line) when it is one the planner shows. */
export function openRobots(host: StepHost, robots: RobotsStep, origin: string, line: number | undefined): void {
  const known = host.current().seeds.origins.includes(origin) || robots.shows(origin);
  if (!known) {
    host.log(`ignored openRobots for ${origin}, which is not a seed origin.`);
    return;
  }
  if (!host.deps.isTrusted()) {
    host.notice('error', 'robots.txt is fetched only in a trusted workspace.');
    return;
  }
  host.guard('open robots.txt', () => host.deps.openRobots(origin, line));
}
