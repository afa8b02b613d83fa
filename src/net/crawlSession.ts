/**
 * A test crawl wired to the real world: the pure engine (src/core/crawl) on the system clock, pages
 * fetched with undici (one hop per request), robots.txt through the per-origin cache, links from the HTML
 * tokenizer, and the report built from the event stream. Shared by `crawl-planner crawl`, `demo` and the
 * VS Code task, so all three behave the same.
 */
import type { CrawlEvent, CrawlSummary, DoneEvent } from '../core/crawl/events';
import { runCrawl } from '../core/crawl/engine';
import { EXIT_FAILED, EXIT_OK } from '../core/exitCodes';
import type { SampleCrawlOptions } from '../core/crawl/sampleCrawlOptions';
import { planSampleCrawl } from '../core/crawl/samplePlan';
import type { PageFetcher, RobotsGate, UrlReport } from '../core/crawl/types';
import { createReportBuilder, type CrawlReport } from '../core/crawl/crawlReport';
import type { PlannedHost } from '../core/crawl/hostComparison';
import { extractLinks } from '../core/html/links';
import type { Calibration } from '../core/calibrate/types';
import { estimateDocument, type Plan } from '../core/plan';
import { simulate } from '../core/simulate/simulate';
import { systemClock } from './clock';
import { crawlUnits, type CrawlUnits } from './crawlUnits';
import { createHttpClient, type HttpClient, type HttpClientOptions } from './http';
import type { LookupAll } from './resolve';
import type { RobotsCache } from './robotsCache';
import { createRobotsGate } from './robotsGate';
import { createRobotsCache, inspectRobots, type RobotsInspection } from './robotsInspect';
import { userAgentHeader } from './userAgent';

/** Largest page body read; links past it are not seen, and the record says `truncated`. */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;

export interface CrawlSessionResult {
  summary: CrawlSummary;
  urls: UrlReport[];
  report: CrawlReport;
  /** 0 when the crawl ran to its end (all work done or the page limit reached); 1 when it stopped early
   * or some hosts were dropped. */
  exitCode: typeof EXIT_OK | typeof EXIT_FAILED;
  /** The plan the crawl was checked against, when there was one. */
  plan?: Plan;
}

export interface CrawlSessionHandle {
  done: Promise<CrawlSessionResult>;
  /** Stop new requests; in-flight ones end within the timeout. Idempotent. */
  stop(): void;
}

export interface PlannedCrawlHandle extends CrawlSessionHandle {
  /**
   * The plan for this crawl, made once every seed origin's robots.txt is settled by the crawl's own
   * requests (or the crawl has ended), from the cache alone: planning never holds a host back.
   */
  plan: Promise<Plan>;
}

export interface CrawlSessionDeps {
  onEvent?: (event: CrawlEvent) => void;
  /** The plan made for this crawl (see planTestCrawl); its duration goes into the summary and report. */
  plan?: Plan;
  /** A robots.txt cache to share (e.g. warmed by planTestCrawl); a fresh one is made otherwise. */
  robotsCache?: RobotsCache;
  /** Extra HTTP options (tests: `lookup`, `ca`; `resolve`: --resolve, which the units follow too). */
  http?: Partial<Omit<HttpClientOptions, 'userAgent'>>;
  /** How `politenessBy: 'ip'` looks the seed hosts up (tests: a local answer; default: the system's resolver). */
  lookup?: LookupAll;
  /** The crawl's politeness units, once made (before the first request): who shares a unit, who did not resolve. */
  onUnits?: (units: CrawlUnits) => void;
}

/** The crawl's units (docs/how-it-works.md#politeness-units), resolved as its connections will be; none for `host`. */
function unitsFor(options: SampleCrawlOptions, deps: CrawlSessionDeps): Promise<CrawlUnits | undefined> {
  if (options.politenessBy === undefined || options.politenessBy === 'host') return Promise.resolve(undefined);
  return crawlUnits(options.seeds, options.politenessBy, {
    ...(deps.http?.resolve ? { overrides: deps.http.resolve } : {}),
    ...(deps.lookup ? { lookup: deps.lookup } : {}),
  }).then((units) => {
    deps.onUnits?.(units);
    return units;
  });
}

function timeouts(o: SampleCrawlOptions) {
  const totalMs = Math.round(o.timeoutSeconds * 1000);
  return {
    connectTimeoutMs: Math.min(totalMs, Math.round(o.connectTimeoutSeconds * 1000)),
    headersTimeoutMs: totalMs,
    bodyTimeoutMs: totalMs,
    totalTimeoutMs: totalMs,
  };
}

/**
 * The engine's `defer` on real I/O: a page is read once the requests started before it are on the wire.
 * undici writes a request on a reused keep-alive connection one or two event-loop turns after it is
 * started (it first lets the connection settle), so work done in between would delay it. Deferred work
 * runs as soon as every tracked request has been handed to its connection, and at the latest two turns
 * later (a request waiting for a new connection does not hold it longer).
 */
export function createDeferral(): { defer: (task: () => void) => void; track: () => () => void } {
  let unsent = 0;
  let waiting: Array<() => void> = [];
  let scheduled = false;
  /** Counts flushes, so that a fallback scheduled for earlier work does not run later work early. */
  let round = 0;
  const flush = (): void => {
    round++;
    scheduled = false;
    const tasks = waiting;
    waiting = [];
    for (const task of tasks) task();
  };
  return {
    track() {
      unsent++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        unsent--;
        // After the write this callback is part of, not inside it.
        if (unsent === 0 && waiting.length > 0) queueMicrotask(flush);
      };
    },
    defer(task) {
      waiting.push(task);
      if (scheduled) return;
      scheduled = true;
      const mine = round;
      const fallback = (): void => {
        if (round === mine) flush();
      };
      if (unsent === 0) setImmediate(fallback);
      else setImmediate(() => setImmediate(fallback));
    },
  };
}

/** One page request on undici: no redirects (the engine follows them), body read for 2xx only. `track`
 * (see createDeferral) is told when the request is on the wire. */
export function createPageFetcher(client: HttpClient, track?: () => () => void): PageFetcher {
  return async ({ url, signal }) => {
    const sentNow = track?.();
    const r = await client.get(url, {
      signal,
      accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
      readBody: (status) => status >= 200 && status < 300,
      ...(sentNow ? { onSent: sentNow } : {}),
    });
    sentNow?.();
    const sent = r.sentAt !== undefined ? { sentAt: r.sentAt } : {};
    if (!r.ok)
      return { error: { kind: r.kind, message: r.message }, startedAt: r.startedAt, ...sent, endedAt: r.endedAt };
    const contentType = r.headers['content-type'];
    const html = contentType !== undefined && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
    return {
      status: r.status,
      headers: r.headers,
      ...(html && r.body.length > 0 ? { body: new TextDecoder('utf-8').decode(r.body) } : {}),
      ...(contentType !== undefined ? { contentType } : {}),
      bytes: r.bytes,
      wireBytes: r.wireBytes,
      truncated: r.truncated,
      ...(r.location !== undefined ? { location: r.location } : {}),
      startedAt: r.startedAt,
      ...sent,
      endedAt: r.endedAt,
    };
  };
}

/**
 * The plan for a test crawl (planSampleCrawl, src/core/crawl/samplePlan.ts) with each host's Crawl-delay from
 * robots.txt (fetched into `cache`, which the crawl then reuses; with `cacheOnly` only what the cache already
 * holds is read, and nothing is fetched).
 */
export async function planTestCrawl(
  options: SampleCrawlOptions,
  deps: {
    robotsCache?: RobotsCache;
    signal?: AbortSignal;
    latencySeconds?: number;
    cacheOnly?: boolean;
    calibration?: Calibration;
    /** The units the crawl made (its addresses go into the plan, which keeps the same units). */
    units?: CrawlUnits;
  } = {},
): Promise<{ plan: Plan; robots: RobotsInspection | undefined; robotsCache: RobotsCache }> {
  const header = userAgentHeader(options.userAgent, options.contactUrl);
  const cache = deps.robotsCache ?? createRobotsCache({ userAgentHeader: header, timeouts: robotsTimeouts(options) });
  const robots = options.respectRobots
    ? await inspectRobots(options.seeds, {
        productToken: options.userAgent,
        userAgentHeader: header,
        configuredDelaySeconds: options.delaySeconds,
        crawlDelayPolicy: options.crawlDelayPolicy,
        maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
        cache,
        ...(deps.signal ? { signal: deps.signal } : {}),
        ...(deps.cacheOnly ? { cacheOnly: true } : {}),
      })
    : undefined;
  const plan = planSampleCrawl(options, {
    ...(robots ? { crawlDelays: robots.origins } : {}),
    ...(deps.latencySeconds !== undefined ? { latencySeconds: deps.latencySeconds } : {}),
    ...(deps.calibration ? { calibration: deps.calibration } : {}),
    ...(deps.units?.addressesByHost ? { addressesByHost: deps.units.addressesByHost } : {}),
    ...(deps.units?.unresolvedHosts ? { unresolvedHosts: deps.units.unresolvedHosts } : {}),
  });
  return { plan, robots, robotsCache: cache };
}

function robotsTimeouts(o: SampleCrawlOptions) {
  const t = timeouts(o);
  return {
    connectMs: t.connectTimeoutMs,
    headersMs: t.headersTimeoutMs,
    bodyMs: t.bodyTimeoutMs,
    totalMs: t.totalTimeoutMs,
  };
}

/**
 * What the plan gave each host, for the report's planned against actual (pages null: unknown). A member of a
 * politeness unit of several hosts takes turns with the others, so its planned time is its unit's (its own
 * `seconds` is as if alone), and so is its actual time (compareHosts).
 */
function plannedHosts(plan: Plan): PlannedHost[] {
  const unitOf = new Map<string, { unit: string; seconds: number }>();
  for (const u of plan.units) for (const host of u.hosts) unitOf.set(host, u);
  return plan.hosts.map((h) => {
    const u = unitOf.get(h.host);
    return {
      host: h.host,
      pages: h.pagesUnknown === undefined ? h.pages : null,
      requests: h.requests,
      seconds: u?.seconds ?? h.seconds,
      ...(u ? { unit: u.unit } : {}),
    };
  });
}

/** A crawl whose plan was made before it (see planTestCrawl), or none. */
export function startCrawlSession(options: SampleCrawlOptions, deps: CrawlSessionDeps = {}): CrawlSessionHandle {
  return launch(options, deps, undefined, unitsFor(options, deps));
}

/**
 * The crawl and its plan together, with no crawl-wide barrier: each host starts as soon as its own
 * robots.txt (the first request on its timeline) is settled, and the plan is made from those same
 * answers once all seed origins have one. Callers that print the plan first hold the live lines until
 * `plan` resolves; the crawl does not wait for it.
 */
export function startPlannedCrawl(
  options: SampleCrawlOptions,
  deps: Omit<CrawlSessionDeps, 'plan'> & { latencySeconds?: number; calibration?: Calibration } = {},
): PlannedCrawlHandle {
  const header = userAgentHeader(options.userAgent, options.contactUrl);
  const client = createPageClient(options, deps, header);
  const robotsCache =
    deps.robotsCache ?? createRobotsCache({ userAgentHeader: header, timeouts: robotsTimeouts(options), client });
  const waiting = new Set(options.respectRobots ? options.seeds.map((s) => new URL(s).origin) : []);
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  if (waiting.size === 0) settle();
  const answered = (url: string): void => {
    if (waiting.delete(new URL(url).origin) && waiting.size === 0) settle();
  };
  const units = unitsFor(options, deps);
  const plan = settled.then(async () => {
    const grouping = await units;
    const made = await planTestCrawl(options, {
      robotsCache,
      cacheOnly: true,
      ...(grouping ? { units: grouping } : {}),
      ...(deps.latencySeconds !== undefined ? { latencySeconds: deps.latencySeconds } : {}),
      ...(deps.calibration ? { calibration: deps.calibration } : {}),
    });
    return made.plan;
  });
  plan.catch(() => undefined); // the session reads it too, and goes on without a plan
  const handle = launch(options, { ...deps, robotsCache }, { answered, ended: settle, plan }, units, client);
  return { ...handle, plan };
}

interface Planning {
  /** The gate answered for this URL. */
  answered(url: string): void;
  /** The crawl ended (every seed origin is as settled as it will be). */
  ended(): void;
  plan: Promise<Plan>;
}

/** The crawl's HTTP client: pages, and robots.txt when the session makes its own cache (one connection per origin for both). */
function createPageClient(options: SampleCrawlOptions, deps: CrawlSessionDeps, header: string): HttpClient {
  return createHttpClient({ ...deps.http, userAgent: header, maxBytes: PAGE_MAX_BYTES, ...timeouts(options) });
}

/** Runs the crawl on `client` (made here when not given), which it closes at the end. */
function launch(
  options: SampleCrawlOptions,
  deps: CrawlSessionDeps,
  planning: Planning | undefined,
  units: Promise<CrawlUnits | undefined>,
  given?: HttpClient,
): CrawlSessionHandle {
  const header = userAgentHeader(options.userAgent, options.contactUrl);
  const stopper = new AbortController();
  const client = given ?? createPageClient(options, deps, header);
  const cache =
    deps.robotsCache ?? createRobotsCache({ userAgentHeader: header, timeouts: robotsTimeouts(options), client });
  const startedAt = systemClock.now();
  const builder = createReportBuilder({
    startedAt,
    ...(deps.plan ? { plan: estimateDocument(deps.plan) } : {}),
    options: { ...options, userAgentHeader: header },
  });
  const deliver = (event: CrawlEvent): void => {
    builder.add(event);
    deps.onEvent?.(event);
  };
  let robots: RobotsGate | undefined;
  if (options.respectRobots) {
    const gate = createRobotsGate(cache, {
      productToken: options.userAgent,
      maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
    });
    // With a plan to make, every answer the gate gives (held or fetched) is noted for it.
    robots = planning
      ? Object.assign(
          async (url: string, signal: AbortSignal) => {
            try {
              return await gate(url, signal);
            } finally {
              planning.answered(url);
            }
          },
          {
            peek: (url: string) => {
              const known = gate.peek?.(url);
              if (known) planning.answered(url);
              return known;
            },
          },
        )
      : gate;
  }
  // The summary waits for the plan (while it is being made) and its simulated band: `done` is held until both are known.
  let held: DoneEvent | undefined;
  const deferral = createDeferral();

  const done = (async (): Promise<CrawlSessionResult> => {
    try {
      // With `ip`, the seed hosts are looked up before the first request (the units are what it connects to).
      const grouping = await units;
      const result = await runCrawl({
        seeds: options.seeds,
        ...(grouping ? { politenessUnits: grouping.units } : {}),
        clock: systemClock,
        random: Math.random,
        fetch: createPageFetcher(client, deferral.track),
        ...(robots ? { robots } : {}),
        extractLinks: (html, base) => extractLinks(html, base),
        emit: (event) => {
          // The summary waits for the plan's band (and, while it is being made, the plan).
          if (event.type === 'done') held = event;
          else deliver(event);
        },
        stop: stopper.signal,
        // A page is read after its host's next request is on the wire.
        defer: deferral.defer,
        concurrency: options.concurrency,
        perHostConcurrency: options.perHostConcurrency,
        delaySeconds: options.delaySeconds,
        delayFrom: options.delayFrom,
        crawlDelayPolicy: options.crawlDelayPolicy,
        maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
        adaptive: options.adaptive,
        maxPages: options.maxPages,
        ...(options.pageBudgets ? { pageBudgets: options.pageBudgets } : {}),
        maxDepth: options.maxDepth,
        allowOtherHosts: options.allowOtherHosts,
        followOtherHostRedirects: options.followOtherHostRedirects,
        maxRetries: options.maxRetries,
        onBlock: options.onBlock,
        ...(options.tokenBucket ? { tokenBucket: options.tokenBucket } : {}),
        ...(options.crawlDelayByHost ? { crawlDelayByHost: options.crawlDelayByHost } : {}),
        graceMs: Math.round(options.timeoutSeconds * 1000),
        ...(deps.plan ? { plannedSeconds: deps.plan.totalSeconds } : {}),
      }).catch((err: unknown) => {
        // A crawl that failed after its summary still says so.
        if (held) deliver(held);
        throw err;
      });
      let plan = deps.plan;
      let summary = result.summary;
      if (planning) {
        planning.ended();
        plan = await planning.plan.catch(() => undefined);
      }
      // The plan's band, simulated now that the crawl is over (so that it takes no time from the crawl). Only a
      // calibrated plan has one: an uncalibrated plan has nothing measured to draw from, and its "band" would be
      // its own total again (the summary says to run a test crawl instead: docs/cli.md#crawl-planner-crawl).
      const simulation = plan && plan.input.calibration !== null ? simulate(plan) : undefined;
      if (plan) summary = { ...summary, plannedSeconds: plan.totalSeconds };
      if (plan && simulation) {
        const band = {
          p10Seconds: simulation!.p10Seconds,
          p50Seconds: simulation!.p50Seconds,
          p90Seconds: simulation!.p90Seconds,
          runs: simulation!.runs,
        };
        summary = { ...summary, plannedBand: band };
      }
      if (held) deliver({ ...held, summary });
      const report = builder.build({
        urls: result.urls,
        endedAt: summary.endedAt,
        ...(plan ? { plan: { ...estimateDocument(plan), simulation: simulation ?? null } } : {}),
        // With page budgets the plan gave each host its budget: planned against actual, host by host.
        ...(plan && options.pageBudgets ? { plannedHosts: plannedHosts(plan) } : {}),
      });
      const early = summary.endReason === 'stopped' || summary.endReason === 'hosts-dropped';
      const dropped = summary.hosts.some((h) => h.dropped !== undefined);
      return {
        summary,
        urls: result.urls,
        report,
        exitCode: early || dropped ? EXIT_FAILED : EXIT_OK,
        ...(plan ? { plan } : {}),
      };
    } finally {
      planning?.ended();
      await client.close();
    }
  })();
  return { done, stop: () => stopper.abort() };
}
