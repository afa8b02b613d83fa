/**
 * The JavaScript of the Crawlee export that is the same for every plan (the body of crawl.mjs): a
 * CheerioCrawler whose pre-navigation hook keeps each politeness unit's interval and Retry-After and each
 * host's robots.txt outcome, reading everything plan-specific from plan.json. Written for Crawlee 3 on Node ≥ 18.
 */

export const CRAWL_MJS_BODY = String.raw`import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { CheerioCrawler, Configuration, NonRetryableError, RobotsTxtFile, log } from 'crawlee';

// robots-parser: the robots.txt parser Crawlee itself depends on (through @crawlee/utils), for Crawl-delay.
const requireHere = createRequire(import.meta.url);
const robotsParser = createRequire(requireHere.resolve('@crawlee/utils'))('robots-parser');

/** Bad input: one line on stderr, exit 2. */
function fail(message) {
  console.error('crawl.mjs: ' + message);
  process.exit(2);
}

const SCHEMA_VERSION = 1;
const plan = JSON.parse(readFileSync(new URL('plan.json', import.meta.url), 'utf8'));
if (plan.schemaVersion !== SCHEMA_VERSION) fail('plan.json: schemaVersion ' + plan.schemaVersion + ', this script reads ' + SCHEMA_VERSION);
const S = plan.settings;

let args;
try {
  ({ values: args } = parseArgs({ options: { machine: { type: 'string' }, 'max-pages': { type: 'string' } } }));
} catch (err) {
  fail(err.message);
}
let machine = 0;
if (plan.machines > 1) {
  if (!/^\d+$/.test(args.machine ?? '') || Number(args.machine) >= plan.machines) {
    fail('the plan is sharded over ' + plan.machines + ' machines: run it with --machine K, K from 0 to ' + (plan.machines - 1));
  }
  machine = Number(args.machine);
} else if (args.machine !== undefined && args.machine !== '0') {
  fail('the plan is not sharded: run it without --machine');
}
const maxPages = args['max-pages'] === undefined ? undefined : Number(args['max-pages']);
if (maxPages !== undefined && !(Number.isInteger(maxPages) && maxPages > 0)) fail('--max-pages: a whole number above 0');
const seedsFile = plan.machines > 1 ? 'seeds/machine-' + machine + '.txt' : 'seeds.txt';
const seeds = readFileSync(new URL(seedsFile, import.meta.url), 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));

/** Milliseconds on a monotonic clock. */
const now = () => performance.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
/** A request whose host is ready within this long keeps its worker and waits in the hook; a later one goes back to the queue. */
const HOLD_MS = 40;
const RECHECK_MS = 1000;

/**
 * A politeness unit (plan.json's hosts[].unit; docs/exports.md#politeness-units): its hosts share one timeline,
 * its lanes and its waits. The next start comes the largest of its hosts' intervals after the last one.
 */
class Unit {
  constructor(name) {
    this.name = name;
    this.hosts = [];
    this.notBefore = 0; // no request before this (Retry-After, backoff)
    this.lastStart = -Infinity;
    this.lastEnd = -Infinity;
    this.inFlight = 0; // requests let go and not ended
    this.reserved = 0; // lanes promised by delayRequest to requests on their way to the hook
    this.waiters = [];
  }
  intervalMs() {
    return Math.max(...this.hosts.map((host) => host.intervalMs()));
  }
  /** When the next request may start: the interval from the last start (and, end to start, the last end), and any wait. */
  readyAt() {
    const from = S.delayFrom === 'end' ? Math.max(this.lastStart, this.lastEnd) : this.lastStart;
    return Math.max(from + this.intervalMs(), this.notBefore);
  }
  freeLanes() {
    return S.perHostConcurrency - this.inFlight - this.reserved;
  }
  wake() {
    while (this.waiters.length > 0 && this.freeLanes() > 0) this.waiters.shift()();
  }
}

class Host {
  constructor(entry, unit) {
    this.name = entry.host;
    this.unit = unit;
    this.plannedMs = entry.intervalSeconds * 1000;
    this.pages = entry.pages;
    this.machine = entry.machine;
    this.crawlDelayMs = 0; // the robots.txt Crawl-delay under the plan's policy, read at run time
    this.adaptiveMs = 0; // the adaptive rule's interval from the last response time
    this.answered = false; // whether an answer has come back yet
    this.urls = new Set(); // distinct URLs admitted: at most this.pages
    this.robots = new Map(); // origin -> Promise of its RobotsTxtFile
    this.robotsRead = new Map(); // origin -> its RobotsTxtFile, once read
    this.dropped = null;
  }
  intervalMs() {
    return Math.max(this.plannedMs, this.crawlDelayMs, this.adaptiveMs);
  }
  /** A request of this host has ended (answer or failure); a wait it asked for counts from now, for the whole unit. */
  ended(lease) {
    const t = now();
    const unit = this.unit;
    unit.lastEnd = Math.max(unit.lastEnd, t);
    if (!this.answered) {
      // The first answer's request opened the host's connection: the next interval counts from its end.
      unit.lastStart = Math.max(unit.lastStart, t);
      this.answered = true;
    }
    if (lease.waitMs !== undefined) unit.notBefore = Math.max(unit.notBefore, t + lease.waitMs);
  }
  drop(reason) {
    if (this.dropped === null) {
      this.dropped = reason;
      log.warning('host ' + JSON.stringify(this.name) + ' dropped for the rest of the run: ' + reason);
    }
  }
}

const units = new Map();
const hosts = new Map();
for (const entry of plan.hosts.filter((e) => e.machine === machine)) {
  const name = entry.unit ?? entry.host;
  if (!units.has(name)) units.set(name, new Unit(name));
  const host = new Host(entry, units.get(name));
  units.get(name).hosts.push(host);
  hosts.set(host.name, host);
}

function hostOf(url) {
  try {
    return hosts.get(new URL(url).host);
  } catch {
    return undefined;
  }
}

/** Admits a URL to the queue: a host of the plan on this machine, not dropped, within its planned pages. */
function admit(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const host = hosts.get(parsed.host);
  if (host === undefined || host.dropped !== null) return false;
  parsed.hash = '';
  if (host.urls.has(parsed.href)) return true; // the queue drops it as a duplicate
  if (host.urls.size >= host.pages) return false;
  host.urls.add(parsed.href);
  return true;
}

function applyCrawlDelay(host, seconds) {
  if (typeof seconds !== 'number' || !(seconds >= 0)) return;
  let applied = seconds;
  if (applied > S.maxCrawlDelaySeconds && S.crawlDelayPolicy !== 'obey') {
    if (S.crawlDelayPolicy === 'skip') {
      host.drop('Crawl-delay ' + applied + ' s is above the cap of ' + S.maxCrawlDelaySeconds + ' s (policy skip)');
      return;
    }
    applied = S.maxCrawlDelaySeconds;
  }
  host.crawlDelayMs = Math.max(host.crawlDelayMs, applied * 1000);
}

/** Retry-After (delay-seconds or an HTTP-date, RFC 9110 §10.2.3) as ms to wait; undefined when absent or invalid. */
function retryAfterMs(value, dateHeader) {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const when = Date.parse(text);
  if (Number.isNaN(when)) return undefined;
  const reference = typeof dateHeader === 'string' && !Number.isNaN(Date.parse(dateHeader)) ? Date.parse(dateHeader) : Date.now();
  return Math.max(0, when - reference);
}

/** Full jitter: a wait uniform in [0, min(cap, base * 2^attempt)). */
function backoffMs(attempt) {
  return Math.random() * Math.min(S.backoffCapSeconds, S.backoffBaseSeconds * 2 ** attempt) * 1000;
}

/** Marks a request as started: now on the monotonic clock, and on Date.now()'s, which got's timings use. */
function start(host, lease) {
  lease.startedAt = now();
  lease.startedEpoch = Date.now();
  host.unit.lastStart = Math.max(host.unit.lastStart, lease.startedAt);
}

/**
 * What an answer tells about its host. Its request left when got finished writing it (timings.upload), which
 * can be well after the hook let it go (the event loop was busy, a connection had to be opened): the
 * interval counts from then (+1 ms for Date.now()'s resolution). Then Retry-After on 429/503 (or a backoff
 * before a retry), and the adaptive interval.
 */
function observe(host, lease, status, headers, willRetry, timings) {
  if (lease.observed) return;
  lease.observed = true;
  const t = now();
  const unit = host.unit;
  const sent = timings?.upload;
  if (typeof sent === 'number' && lease.startedEpoch !== undefined) {
    unit.lastStart = Math.max(unit.lastStart, lease.startedAt + Math.max(0, sent - lease.startedEpoch) + 1);
  } else if (lease.startedAt !== undefined) {
    unit.lastStart = Math.max(unit.lastStart, t); // sent at some point before now: count from now
  }
  if (S.adaptive && lease.startedAt !== undefined) {
    host.adaptiveMs = Math.max(S.adaptiveFloorSeconds * 1000, S.adaptiveLatencyFactor * (t - lease.startedAt));
  }
  const wait = S.retryAfterStatuses.includes(status) ? retryAfterMs(headers?.['retry-after'], headers?.date) : undefined;
  if (wait !== undefined) {
    if (wait > S.retryAfterCapSeconds * 1000) host.drop('Retry-After of ' + wait / 1000 + ' s is above the cap of ' + S.retryAfterCapSeconds + ' s');
    else lease.waitMs = wait;
  } else if (willRetry) {
    lease.waitMs = backoffMs(lease.attempt);
  }
  if (lease.waitMs !== undefined) unit.notBefore = Math.max(unit.notBefore, t + lease.waitMs);
}

/** Requests between delayRequest and their end, by request id: { host, state: 'reserved' | 'active', … }. */
const leases = new Map();

/** The end of a request (its body arrived, or it failed): its lane is free, and a wait counts from now. */
function endRequest(request) {
  const lease = leases.get(request.id);
  if (lease === undefined) return;
  leases.delete(request.id);
  const host = lease.host;
  const unit = host.unit;
  if (lease.state === 'reserved') unit.reserved--;
  else unit.inFlight--;
  if (lease.startedAt !== undefined) host.ended(lease);
  unit.wake();
}

/** A lane of the host's unit for the request (one promised by delayRequest, or the next free one). */
async function takeLane(host, request) {
  const unit = host.unit;
  let lease = leases.get(request.id);
  if (lease?.state === 'reserved') {
    unit.reserved--;
    unit.inFlight++;
    lease.state = 'active';
    return lease;
  }
  while (unit.freeLanes() <= 0) await new Promise((resolve) => unit.waiters.push(resolve));
  unit.inFlight++;
  lease = { host, state: 'active', attempt: request.retryCount };
  leases.set(request.id, lease);
  return lease;
}

async function waitTurn(host) {
  const unit = host.unit;
  for (let wait = unit.readyAt() - now(); wait > 0; wait = unit.readyAt() - now()) await sleep(wait);
}

/** What an unreachable robots.txt means (RFC 9309 §2.3.1.4): nothing is allowed. */
const DISALLOW_ALL = 'User-agent: *\nDisallow: /\n';

/** robots.txt of an origin, read once, as a request on the host's timeline. */
async function readRobots(host, origin, sendRequest) {
  const robotsUrl = origin + '/robots.txt';
  const file = RobotsTxtFile.from(robotsUrl, await fetchRobots(host, robotsUrl, sendRequest));
  host.robotsRead.set(origin, file);
  return file;
}

/** The robots.txt text to obey: the file (2xx), nothing (other 4xx: everything allowed), or disallow-all. */
async function fetchRobots(host, robotsUrl, sendRequest) {
  await waitTurn(host);
  const lease = { host, attempt: 0 };
  start(host, lease);
  try {
    const response = await sendRequest({
      url: robotsUrl,
      method: 'GET',
      headers: { 'user-agent': plan.userAgent },
      useHeaderGenerator: false,
      throwHttpErrors: false,
      followRedirect: true,
      maxRedirects: S.maxRedirects,
      timeout: { request: S.timeoutSeconds * 1000 },
    });
    observe(host, lease, response.statusCode, response.headers, false, response.timings);
    const status = response.statusCode;
    if (status >= 200 && status < 300) {
      const text = String(response.body ?? '');
      applyCrawlDelay(host, robotsParser(robotsUrl, text).getCrawlDelay(plan.productToken));
      return text;
    }
    // Other 4xx: unavailable, everything allowed (RFC 9309 §2.3.1.3); 429, 5xx: unreachable (§2.3.1.4).
    return status >= 400 && status < 500 && status !== 429 ? '' : DISALLOW_ALL;
  } catch {
    observe(host, lease, undefined, undefined, false, undefined);
    return DISALLOW_ALL; // no answer at all: unreachable
  } finally {
    host.ended(lease);
  }
}

/** The pre-navigation hook: a lane on the host's unit, the host's robots.txt, the unit's interval and waits; then the request goes. */
async function keepThePlan(context, gotOptions) {
  const { request } = context;
  const host = hostOf(request.url);
  if (host === undefined) throw new NonRetryableError('not a host of the plan on this machine');
  const lease = await takeLane(host, request);
  try {
    if (host.dropped !== null) throw new NonRetryableError('host dropped: ' + host.dropped);
    const origin = new URL(request.url).origin;
    if (!host.robots.has(origin)) host.robots.set(origin, readRobots(host, origin, context.sendRequest));
    const robots = await host.robots.get(origin);
    if (host.dropped !== null) throw new NonRetryableError('host dropped: ' + host.dropped);
    if (!robots.isAllowed(request.url, plan.productToken)) throw new NonRetryableError('disallowed by robots.txt');
    await waitTurn(host);
    start(host, lease);
  } catch (err) {
    endRequest(request);
    request.noRetry = true;
    throw err;
  }
  gotOptions.headers = { ...gotOptions.headers, 'user-agent': plan.userAgent };
  gotOptions.useHeaderGenerator = false;
  gotOptions.followRedirect = false; // a redirect is a new request on its target host's timeline
}

function observeAnswer({ request, response }) {
  const lease = leases.get(request.id);
  if (lease === undefined || response === undefined) return;
  const willRetry = S.retryStatuses.includes(response.statusCode) && request.retryCount < S.maxRetries;
  observe(lease.host, lease, response.statusCode, response.headers, willRetry, response.timings);
}

class PlannedCrawler extends CheerioCrawler {
  /**
   * Crawlee asks this (with respectRobotsTxtFile on) before it enqueues or runs a URL: the hook's verdict once
   * it has read the origin's robots.txt, so disallowed URLs are skipped, not failed. Never fetches anything:
   * until the hook has read it, there is no file and the hook decides.
   */
  async getRobotsTxtFileForUrl(url) {
    const host = hostOf(url);
    let origin;
    try {
      origin = new URL(url).origin;
    } catch {
      return undefined;
    }
    return host?.robotsRead.get(origin);
  }

  /**
   * Crawlee asks this before it runs a request (it keeps sameDomainDelaySecs here): a request whose unit is
   * not ready goes back to the queue on a timer instead of holding a worker. The hook still keeps the plan
   * on its own, should a Crawlee version not ask.
   */
  delayRequest(request, source) {
    const host = hostOf(request.url);
    if (host === undefined || host.dropped !== null || leases.has(request.id)) return false;
    const unit = host.unit;
    const wait = unit.readyAt() - now();
    if (unit.freeLanes() > 0 && wait <= HOLD_MS) {
      unit.reserved++;
      leases.set(request.id, { host, state: 'reserved', attempt: request.retryCount });
      return false;
    }
    const recheck = Math.min(RECHECK_MS, Math.max(5, unit.freeLanes() > 0 ? wait - HOLD_MS / 2 : 20));
    setTimeout(() => void source.reclaimRequest(request, { forefront: request.userData?.__crawlee?.forefront }), recheck);
    return true;
  }
}

const statusCodes = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const longestIntervalSeconds = plan.hosts.reduce((most, entry) => Math.max(most, entry.intervalSeconds), 0);

log.setLevel(log.LEVELS.WARNING);
const crawler = new PlannedCrawler(
  {
    minConcurrency: S.workers,
    maxConcurrency: S.workers,
    ...(S.rate !== null && S.rate * 60 >= 1 ? { maxRequestsPerMinute: Math.floor(S.rate * 60) } : {}),
    ...(maxPages !== undefined ? { maxRequestsPerCrawl: maxPages } : {}),
    maxRequestRetries: S.maxRetries,
    navigationTimeoutSecs: S.timeoutSeconds,
    // The hook may wait for a host (Retry-After, backoff, Crawl-delay): that time counts in this bound.
    requestHandlerTimeoutSecs: S.timeoutSeconds * 2 + S.retryAfterCapSeconds + S.backoffCapSeconds + longestIntervalSeconds * (S.workers + 1) + 60,
    sameDomainDelaySecs: 0,
    // Crawlee's robots.txt check, fed by the hook's verdicts (getRobotsTxtFileForUrl): it never fetches one itself.
    respectRobotsTxtFile: { userAgent: plan.productToken },
    useSessionPool: false,
    persistCookiesPerSession: false,
    // Retried: the plan's retry statuses; final: every other 4xx and 5xx.
    additionalHttpErrorStatusCodes: S.retryStatuses.filter((code) => code < 500),
    ignoreHttpErrorStatusCodes: statusCodes(500, 599).filter((code) => !S.retryStatuses.includes(code)),
    autoscaledPoolOptions: { maybeRunIntervalSecs: 0.02 },
    preNavigationHooks: [keepThePlan],
    postNavigationHooks: [observeAnswer],
    async requestHandler({ request, response, enqueueLinks, addRequests }) {
      endRequest(request);
      const status = response.statusCode;
      if (status >= 300 && status < 400) {
        const location = response.headers.location;
        const hops = request.userData.redirects ?? 0;
        if (typeof location !== 'string' || hops >= S.maxRedirects) return;
        let target;
        try {
          target = new URL(location, request.url).href;
        } catch {
          return;
        }
        if (admit(target)) await addRequests([{ url: target, userData: { redirects: hops + 1 } }]);
        return;
      }
      await enqueueLinks({ strategy: 'all', transformRequestFunction: (next) => (admit(next.url) ? next : false) });
    },
    errorHandler({ request, response }, error) {
      const lease = leases.get(request.id);
      if (lease !== undefined && lease.startedAt !== undefined) observe(lease.host, lease, response?.statusCode, response?.headers, true, response?.timings);
      endRequest(request);
    },
    failedRequestHandler({ request }, error) {
      endRequest(request);
      log.warning('failed: ' + JSON.stringify(request.url) + ': ' + String(error?.message ?? error).split('\n')[0]);
    },
  },
  new Configuration({ persistStorage: false }),
);

const stats = await crawler.run(seeds.filter(admit));
const dropped = [...hosts.values()].filter((host) => host.dropped !== null).map((host) => ({ host: host.name, reason: host.dropped }));
console.log(JSON.stringify({ requestsFinished: stats.requestsFinished, requestsFailed: stats.requestsFailed, dropped }));
`;
