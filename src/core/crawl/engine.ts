/**
 * The crawl engine: a Mercator-style scheduler on an injected Clock. One loop starts requests from the
 * frontier (per-host back queues + a heap of next-allowed times) while global slots are free, then
 * sleeps until the next host is ready or something changes (a response, a robots.txt answer, a stop).
 *
 * Politeness is counted in request STARTS: every request to a host, first tries, retries and redirect
 * hops alike, goes through that host's queue and waits for its next-allowed time, so no rule (interval,
 * Retry-After pause, token bucket, per-host concurrency) can be bypassed. The model, the retry table
 * and the defaults are written up in docs/crawl-engine.md.
 *
 * This file is the entry point and the wiring. The scheduler is in parts, one job each, that share the
 * crawl's state (crawlState.ts) and are given the parts they use, each only ones above it in this list:
 *
 *   wakeUps.ts         the loop's waits and wake-ups on the clock
 *   stopAndFailure.ts  a stop and its grace, a failure, the aborts
 *   eventStream.ts     the events (held while a response's own is worked out), progress, the summary
 *   outcomes.ts        a URL's final outcome, a host dropped, the page budget
 *   blockWatch.ts      each response fed to its unit's blocking detector, and the reaction (onBlock)
 *   deferredWork.ts    work put off until the I/O started now has gone out (CrawlOptions.defer)
 *   robotsTimeline.ts  robots.txt: each URL asked about, the origin's request on its host's timeline
 *   admission.ts       URL records: seeds, a page's links, a redirect's target met, scoped, queued
 *   pageReading.ts     a fetched page read for its links
 *   responseRules.ts   errors, throttles, Retry-After, retries, giving up, redirects
 *   requestStarts.ts   the ready hosts started; a request on the promise road or the callback road
 *   crawlLoop.ts       the loop, the run and its end
 */
import { Admission } from './admission';
import { BlockWatch } from './blockWatch';
import { CrawlLoop } from './crawlLoop';
import { CrawlState } from './crawlState';
import { DeferredWork } from './deferredWork';
import { resolveCrawlOptions } from './engineOptions';
import { EventStream } from './eventStream';
import { Outcomes } from './outcomes';
import { PageReading } from './pageReading';
import { RequestStarts } from './requestStarts';
import { ResponseRules } from './responseRules';
import { RobotsTimeline } from './robotsTimeline';
import { StopAndFailure } from './stopAndFailure';
import type { CrawlOptions, CrawlResult, ResolvedCrawlOptions } from './types';
import { WakeUps } from './wakeUps';

/**
 * Runs a crawl to its end (all work done, the page limit, a stop, or every host dropped) and returns the
 * summary and one outcome per URL met. Rejects only on a bad option (RangeError, before anything starts)
 * or when `emit` or an injected function throws unexpectedly.
 */
export function runCrawl(options: CrawlOptions): Promise<CrawlResult> {
  let resolved: ResolvedCrawlOptions;
  try {
    resolved = resolveCrawlOptions(options);
  } catch (err) {
    return Promise.reject(err);
  }
  return scheduler(resolved).run();
}

/** One crawl's scheduler: its state and its parts, each made with the parts it uses. */
function scheduler(o: ResolvedCrawlOptions): CrawlLoop {
  const s = new CrawlState(o);
  const wakeUps = new WakeUps(s.clock);
  const stops = new StopAndFailure(s, { wakeUps });
  const events = new EventStream(s, { stops });
  const outcomes = new Outcomes(s, { events });
  const blocking = new BlockWatch(s, { events, outcomes });
  const deferred = new DeferredWork(s, { outcomes, stops, wakeUps });
  const robots = new RobotsTimeline(s, { events, outcomes, deferred, stops, wakeUps });
  const admission = new Admission(s, { events, outcomes, robots });
  // The one way back up the list: with CrawlOptions.defer, a fetched page starts its host's next request
  // before it is read (`requests` is made below; this runs only once the crawl is under way).
  const startReady = (): void => requests.startReady();
  const pages = new PageReading(s, { events, outcomes, admission, deferred, blocking, startReady });
  const responses = new ResponseRules(s, { events, outcomes, admission, deferred, blocking, pages });
  const requests = new RequestStarts(s, { events, outcomes, responses, robots, stops, wakeUps });
  return new CrawlLoop(s, { wakeUps, stops, events, outcomes, deferred, admission, requests });
}
