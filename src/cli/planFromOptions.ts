/**
 * The plan of `estimate` and `export` from their seeds and options (PLAN_OPTIONS, read by planOptions.ts):
 * the seed lines checked, robots.txt read first with --robots (estimateRobots.ts), hosts dropped with
 * --drop-host, pages sized from sitemaps with --sitemaps (estimateSitemaps.ts), a calibration read with
 * --calibrate, then plan().
 */
import { formatCalibrationText } from '../core/format/calibrationText';
import { formatNumber } from '../core/format/duration';
import { sanitizeText } from '../core/format/table';
import { realHosts } from '../core/identity';
import { applyPlanChange, plan, PlanInputError, type Plan, type PlanInput } from '../core/plan';
import type { ByHostTarget } from '../core/plan/pages';
import { escapeInvisible } from '../core/seedHygiene';
import { mergeCrawlDelaysByHost } from '../core/politeness/interval';
import { validateSeeds, type InvalidSeed, type Seed, type SeedValidation } from '../core/seeds';
import { demoServeHosts } from '../demo/config';
import { createRobotsCache } from '../net/robotsInspect';
import { seedLines, seedLocation, UsageError, type Io } from './args';
import { readCalibration } from './calibrate';
import { resolveHttp, resolveOption, seedAddresses } from './resolveOption';
import { checkContact } from './contact';
import { formatRobotsSection, robotsStep, type EstimateRobotsSection, type RobotsStep } from './estimateRobots';
import { formatSitemapsSection, sitemapsStep, type EstimateSitemapsSection } from './estimateSitemaps';
import {
  dropHostsOption,
  planInputFromOptions,
  planInputUsageError,
  robotsOptions,
  type PlanValues,
} from './planOptions';
import { decidingLine, robotsTimeouts } from './robots';
import { seedNoteLines } from './seedNotes';
import { changedSinceOption } from './sitemaps';

/** What the seeds and plan options gave: the plan, or (with --robots) no allowed seed at all. */
export type PlanOutcome =
  | {
      kind: 'planned';
      plan: Plan;
      /** The input the plan was made from (the plan keeps only its resolved numbers): export reads its units from it. */
      input: PlanInput;
      seeds: readonly Seed[];
      invalid: InvalidSeed[];
      /** The seed lines' notes and duplicates (estimate's seedNotes and duplicateSeeds). */
      checked: SeedValidation;
      robots: EstimateRobotsSection | null;
      sitemaps: EstimateSitemapsSection | null;
    }
  | { kind: 'no-allowed-seeds'; invalid: InvalidSeed[]; robots: EstimateRobotsSection };

export interface PlanFromOptions {
  /** The command, for messages: `crawl-planner <command>: …`. */
  command: string;
  /** Print the robots.txt section and the left-out seeds (false for a JSON document on stdout). */
  text: boolean;
  /** --user-agent, --contact and --require-contact without --robots. */
  identityAlways?: boolean;
}

/**
 * The seeds and plan options (PLAN_OPTIONS) → the plan, exactly as `estimate` makes it: invalid seed lines on
 * stderr, robots.txt read first with --robots. Throws UsageError for bad input.
 */
export async function planFromOptions(
  values: PlanValues,
  positionals: string[],
  io: Io,
  how: PlanFromOptions,
): Promise<PlanOutcome> {
  const options = planInputFromOptions(values);
  const calibration = readCalibration(values.calibrate);
  const ro = robotsOptions(values, how.identityAlways);
  const overrides = resolveOption(values.resolve);
  const http = resolveHttp(overrides);
  const changedSince = changedSinceOption(values['changed-since'], Date.now());
  // Line by line: 100,000 lines held at once would take as much memory as the seeds themselves.
  const checked = validateSeeds(seedLines(positionals, values['seeds-file']), {
    expectedLocalHosts: new Set(demoServeHosts()),
  });
  const { seeds, invalid } = checked;
  if (seeds.length + invalid.length === 0)
    throw new UsageError('no seed URLs: give them as arguments or with --seeds-file');
  for (const bad of invalid) {
    io.err(
      `crawl-planner ${how.command}: ${sanitizeText(seedLocation(bad.line, bad.source))}: ${bad.message}: "${sanitizeText(escapeInvisible(bad.text))}"\n`,
    );
  }
  if (seeds.length === 0) {
    throw new UsageError(
      `no valid seed URL (${formatNumber(invalid.length)} invalid ${invalid.length === 1 ? 'line' : 'lines'})`,
    );
  }

  const dropHosts = dropHostsOption(values['drop-host'], seeds);
  let planSeeds: readonly Seed[] = seeds;
  let planOptions = options;
  let step: RobotsStep | undefined;
  if (ro) checkContact(how.command, ro.contact, realHosts(seeds.map((s) => s.url)), ro.requireContact, io);
  // After the checks that refuse the run: refused, the one line says why and nothing else.
  for (const line of seedNoteLines(how.command, checked)) io.err(line);
  // One robots.txt fetch per origin serves --robots and --sitemaps.
  const cache =
    ro && values.sitemaps
      ? createRobotsCache({ userAgentHeader: ro.header, timeouts: robotsTimeouts(ro.timeoutSeconds), http })
      : undefined;
  if (ro && values.robots) {
    step = await robotsStep(seeds, options, ro, cache, http);
    planSeeds = step.allowed;
    const leftOut = new Set(step.section.leftOutHosts.map((h) => h.host));
    // Overrides for hosts robots.txt left out are dropped, so the plan does not call them typos.
    const keep = (m: Readonly<Record<string, number>> | undefined) =>
      m === undefined ? undefined : Object.fromEntries(Object.entries(m).filter(([host]) => !leftOut.has(host)));
    const latencyByHost = keep(options.latencyByHost);
    // A Crawl-delay from robots.txt and one given by hand: the larger (more polite) one is planned.
    const crawlDelayByHost = mergeCrawlDelaysByHost(Object.entries(step.section.crawlDelayByHost), {
      ...keep(options.crawlDelayByHost),
    });
    planOptions = {
      ...options,
      ...(latencyByHost !== undefined ? { latencyByHost } : {}),
      ...(Object.keys(crawlDelayByHost).length > 0 ? { crawlDelayByHost } : {}),
    };
    if (how.text) {
      io.out(formatRobotsSection(step, seeds, io.color));
      for (const d of step.section.disallowedSeeds) {
        const why =
          d.outcome === 'unreachable' ? 'robots.txt unreachable' : `disallowed by robots.txt (${decidingLine(d)})`;
        io.err(
          `crawl-planner ${how.command}: ${sanitizeText(seedLocation(d.seedLine, d.seedSource))}: ${why}, left out: ${sanitizeText(d.url)}\n`,
        );
      }
    }
    if (planSeeds.length === 0) return { kind: 'no-allowed-seeds', invalid, robots: step.section };
  }

  if (dropHosts.length > 0) {
    // After robots.txt (a total is then each remaining host's share, as the deadline's options assume),
    // before the sitemaps (a dropped host's are not fetched).
    ({ seeds: planSeeds, ...planOptions } = applyPlanChange({ ...planOptions, seeds: planSeeds }, { dropHosts }));
  }

  let sitemapsSection: EstimateSitemapsSection | undefined;
  if (ro && values.sitemaps) {
    const pages = planOptions.pages as { byHost: Record<string, number>; otherwise?: number };
    let target: ByHostTarget;
    ({ section: sitemapsSection, target } = await sitemapsStep(planSeeds, {
      productToken: ro.productToken,
      userAgentHeader: ro.header,
      delaySeconds: options.delaySeconds,
      crawlDelayPolicy: options.crawlDelayPolicy,
      maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
      timeoutSeconds: values.timeout !== undefined ? ro.timeoutSeconds : undefined,
      changedSince,
      cache,
      http,
      typed: pages.byHost,
      fallback: values['pages-per-host'] !== undefined ? pages.otherwise : undefined,
    }));
    // The hosts whose pages are unknown stay so: the plan leaves them out of its totals and says so.
    planOptions = { ...planOptions, pages: target };
    if (how.text) io.out(formatSitemapsSection(sitemapsSection, io.color));
  }

  // Shared servers (docs/cli.md#shared-servers): --resolve's hosts always; the others looked up only when the
  // command goes to the network anyway (--robots, --sitemaps), --resolve-hosts asks, or --politeness-by ip
  // needs their addresses to make its units.
  const addresses = await seedAddresses(
    planSeeds.map((s) => s.host),
    overrides,
    ro !== undefined || Boolean(values['resolve-hosts']) || options.politenessBy === 'ip',
  );
  const input: PlanInput = { ...planOptions, seeds: planSeeds, ...(calibration ? { calibration } : {}), ...addresses };
  let result: Plan;
  try {
    result = plan(input);
  } catch (err) {
    if (err instanceof PlanInputError) throw planInputUsageError(err);
    throw err;
  }
  // What the test crawl measured, before the plan that uses it (estimate's and export's text alike).
  if (how.text && calibration) io.out(formatCalibrationText(result, calibration, io.color) + '\n');
  return {
    kind: 'planned',
    plan: result,
    input,
    seeds: planSeeds,
    invalid,
    checked,
    robots: step ? step.section : null,
    sitemaps: sitemapsSection ?? null,
  };
}
