/**
 * What each framework cannot keep of the plan, in words: one list per format, computed from the plan, that
 * the export writes as a "differences" comment block and the caller shows as notes. Only what differs for
 * this plan is named (a global rate, lanes per host, the adaptive rule, sharding).
 */
import { formatNumber, formatSeconds } from '../format/duration';
import { ADAPTIVE_FLOOR_SECONDS, ADAPTIVE_LATENCY_FACTOR } from '../politeness/interval';
import type { Plan } from '../plan';
import { groupedUnits, QUEUE_MODES, unitsAcrossMachines, type ExportShards, type ExportUnit } from './hosts';
import { EXPORT_DEFAULTS, type ExportFormat } from './types';

/** The most hosts one note names before "and N more". */
const HOSTS_NAMED = 5;

function named(hosts: readonly string[]): string {
  const shown = hosts.slice(0, HOSTS_NAMED).join(', ');
  return hosts.length > HOSTS_NAMED ? `${shown} and ${formatNumber(hosts.length - HOSTS_NAMED)} more` : shown;
}

/** Whole seconds for the frameworks that read `fetcher.max.crawl.delay` as an integer: rounded up. */
export function wholeSecondsUp(seconds: number): number {
  return Math.ceil(seconds);
}

/** "5" or "5 to 6": the fewest and most pages a host of the export gets. */
function pageRange(shards: ExportShards): string {
  let least = Infinity;
  let most = 0;
  for (const h of shards.hosts) {
    least = Math.min(least, h.pages);
    most = Math.max(most, h.pages);
  }
  return least === most ? formatNumber(most) : `${formatNumber(least)} to ${formatNumber(most)}`;
}

/**
 * What a framework that runs the plan with code of ours inside it (Scrapy, Crawlee) does not keep: one
 * outline, each framework's own words (CODE_FRAMEWORKS).
 */
interface CodeFramework {
  /** Where our code keeps the plan's politeness ("the hook"). */
  where: string;
  /** How a delay is measured, when the plan counts from a request's start and from its end (PlanInput.delayFrom). */
  delayFromStart: string;
  delayFromEnd: string;
  workers: (workers: number) => string;
  globalRate: (rate: number) => string;
  /** After the lines the code formats share: the framework's own. */
  own: string[];
  /** With more than one machine. */
  sharding: (machines: number) => string;
  /** With grouped units: how the framework keeps one unit (`where` keeps it; `what` is its timeline's name). */
  units: (units: string, by: 'ip' | 'domain') => string;
}

/** "a.example and b.example on 127.0.0.5; …": the grouped units, named. */
function unitsNamed(units: readonly ExportUnit[]): string {
  const shown = units.slice(0, HOSTS_NAMED).map((u) => `${u.name} (${named(u.hosts)})`);
  const more = units.length - shown.length;
  return shown.join('; ') + (more > 0 ? `; and ${formatNumber(more)} more` : '');
}

const CODE_FRAMEWORKS: Record<'scrapy' | 'crawlee', CodeFramework> = {
  scrapy: {
    where: 'planned/politeness.py',
    delayFromStart:
      "Delay measurement: Scrapy counts a slot's delay from when a request LEAVES the slot, but its reactor writes the request out only when the rest of its current round is done (tens of ms later under load), and a new connection (DNS, TCP, TLS) delays it further. planned/politeness.py moves the slot's clock to the start of the reactor's next round, just before the write, and counts the first interval on each host from the end of its first answer, the request that opened the connection. A connection that the server closes and Scrapy opens again can still make one gap short by the time it takes to connect.",
    delayFromEnd:
      "Delay measurement: Scrapy has no end-to-start delay; planned/politeness.py moves the slot's clock to the end of every answer (signal response_downloaded). After a transport error there is no answer: the next request can follow the failed one's departure by the interval.",
    workers: (workers) =>
      `Workers: CONCURRENT_REQUESTS = ${workers}, but Scrapy counts requests that wait out a slot's delay among them. planned/politeness.py's scheduler queue takes the next request for the host that is ready soonest, and all seeds are queued at once, so few wait; when every queued host is within its interval, the requests taken wait holding workers, and the crawl is slower than planned (never faster).`,
    globalRate: (rate) =>
      `Global rate: Scrapy has none; planned/politeness.py admits at most ${formatNumber(rate, 3)} requests per second into the downloader, but requests that then wait in their host's slot can leave closer together.`,
    own: [
      "Slots: one download slot per politeness unit, by default per plan host (host and non-default port), so http and https of one host share it, as in the plan; Scrapy's own slots would be per host name without the port.",
    ],
    units: (units, by) =>
      `Politeness units (by ${by}): planned/plan.json gives each host its unit, and planned/politeness.py puts all hosts of a unit on ONE download slot (request.meta["download_slot"] = the unit): one request in flight per unit (CONCURRENT_REQUESTS_PER_DOMAIN counts per slot), one slot delay, the largest of its hosts' intervals (their Crawl-delays read at run time included), and one wait for a Retry-After or a backoff from any of them. Each host keeps its own robots.txt, Crawl-delay and page budget. The units are the plan's, made from the addresses known when it was made: Scrapy looks nothing up again, so a host whose address has changed since keeps its planned unit, and a host outside the plan (a robots.txt redirect target) gets a slot of its own. CONCURRENT_REQUESTS_PER_IP stays 0: Scrapy's own per-IP slots would not be the plan's units. Units here: ${units}.`,
    sharding: (machines) =>
      `Sharding over ${machines} machines: run one Scrapy process per machine, \`scrapy crawl planned -a machine=K\` (K = 0 to ${machines - 1}); it reads seeds/machine-K.txt and drops requests to every other machine's hosts, so a host is only ever crawled by one process. The processes share no queue and no politeness state; none is needed, as no host has two.`,
  },
  crawlee: {
    where: 'the hook',
    delayFromStart:
      "Delay measurement: the pre-navigation hook lets a request go, and once its answer comes back moves the request's start to when got finished writing it (response.timings.upload), so the next interval counts from the request on the wire, as the plan does; a request that failed without an answer counts as started when it failed. The first interval on each host is counted from the end of its first answer (robots.txt).",
    delayFromEnd:
      'Delay measurement: the end of a request is when its body has arrived (requestHandler) or its failure is reported (errorHandler), a little after the last byte reached the socket.',
    workers: (workers) =>
      `Workers: minConcurrency = maxConcurrency = ${workers}. A request whose host is not ready goes back in the queue on a timer (the crawler's delayRequest, which Crawlee uses for sameDomainDelaySecs), so it holds no worker while it waits; an idle pool looks again every 20 ms.`,
    globalRate: (rate) => {
      const perMinute = Math.floor(rate * 60);
      return perMinute >= 1
        ? `Global rate: maxRequestsPerMinute = ${formatNumber(perMinute)} (⌊${formatNumber(rate, 3)}/s × 60⌋): Crawlee counts requests per minute, so a minute's requests may come in a burst.`
        : `Global rate: ${formatNumber(rate, 6)}/s is below one request per minute, which maxRequestsPerMinute cannot express: no global rate is set.`;
    },
    own: [
      "robots.txt is fetched by the hook, on the timeline of the host's unit like any request, and matched by robots-parser (the parser Crawlee itself depends on), not by Crawl Planner's RFC 9309 core. Crawlee's own fetch is replaced (getRobotsTxtFileForUrl hands it the hook's verdicts, so disallowed URLs are skipped): it fetches robots.txt outside any delay and reads a 5xx as allow-all. sameDomainDelaySecs is off: it keeps one delay per registrable domain, and none for IP addresses.",
      "Redirects are followed one hop at a time, each as a new request on its target host's timeline (at most 5 hops, plan hosts only). Requests send the plan's User-Agent header, without the browser-like headers Crawlee generates by default.",
    ],
    units: (units, by) =>
      `Politeness units (by ${by}): plan.json gives each host its unit, and the hook keeps one timeline per unit: one request in flight (the lanes are per unit), the next start no sooner than the largest of its hosts' intervals (their Crawl-delays read at run time included) after the unit's last one, and one wait for a Retry-After or a backoff from any of them. Each host keeps its own robots.txt, Crawl-delay and page budget. The units are the plan's, made from the addresses known when it was made: Crawlee looks nothing up again, so a host whose address has changed since keeps its planned unit. Units here: ${units}.`,
    sharding: (machines) =>
      `Sharding over ${machines} machines: run \`node crawl.mjs --machine K\` (K = 0 to ${machines - 1}) on each; it reads seeds/machine-K.txt and never enqueues a URL of another machine's host, so a host is only ever crawled by one process.`,
  },
};

function codeDifferences(plan: Plan, shards: ExportShards, f: CodeFramework): string[] {
  const r = plan.input;
  const lines = [r.delayFrom === 'start' ? f.delayFromStart : f.delayFromEnd, f.workers(r.workers)];
  if (r.rate !== null) lines.push(f.globalRate(r.rate));
  if (r.perHostConcurrency > 1) {
    lines.push(
      `Lanes: the plan gives each host ${r.perHostConcurrency} requests in flight, each lane keeping the interval; ${f.where} keeps the interval between ANY two request starts on a host, so a host gets at most one request per interval: slower than planned, never faster.`,
    );
  }
  if (r.adaptive) {
    lines.push(
      `Adaptive rule: planned with the expected latency; at run time ${f.where} raises a host's interval to max(${formatSeconds(ADAPTIVE_FLOOR_SECONDS)}, ${ADAPTIVE_LATENCY_FACTOR} × the last response time it measured), so it follows the real latency instead.`,
    );
  }
  const grouped = groupedUnits(shards);
  lines.push(
    `Crawl-delay: read from each host's robots.txt at run time and merged by max with the plan's interval under the plan's policy (${r.crawlDelayPolicy}, cap ${formatSeconds(r.maxCrawlDelaySeconds)}); Crawl-delays the plan already knew stay as floors.`,
    `Retry-After on 429 and 503: honoured for the ${grouped.length > 0 ? "host's unit, every host of it waiting" : 'host'} (delay-seconds or an HTTP-date); one above ${formatSeconds(EXPORT_DEFAULTS.retryAfterCapSeconds)} drops the host for the run. Without Retry-After, a retried answer waits a full-jitter backoff (ceiling ${formatSeconds(EXPORT_DEFAULTS.backoffBaseMs / 1000)} doubling to ${formatSeconds(EXPORT_DEFAULTS.backoffCapMs / 1000)}). Crawl Planner's own crawler also raises a host's interval after a 429 or 5xx and lets it recover; the export does not.`,
    `robots.txt: 2xx is parsed, other 4xx allows everything, and 429, 5xx or no answer at all disallows the whole origin (RFC 9309 §2.3.1.4) for the rest of the run; Crawl Planner's crawler tries an unreachable robots.txt again later.`,
    `Pages: each host gets at most its planned pages (${pageRange(shards)} here), counted as distinct URLs requested, not as successful pages. Links and redirects to hosts outside the plan are not followed.`,
    ...f.own,
  );
  if (grouped.length > 0 && shards.politenessBy !== 'host')
    lines.push(f.units(unitsNamed(grouped), shards.politenessBy));
  if (shards.machines > 1) lines.push(f.sharding(shards.machines));
  lines.push(...splitUnits(shards));
  return lines;
}

/** Units whose hosts the plan's sharding puts on two machines: each machine keeps only its own members. */
function splitUnits(shards: ExportShards): string[] {
  const split = unitsAcrossMachines(shards);
  if (split.length === 0) return [];
  return [
    `${formatNumber(split.length)} ${split.length === 1 ? 'unit has' : 'units have'} hosts on more than one machine (the plan shards by host): each machine's crawler keeps the unit only among its own hosts, so the shared server can get one request per interval from each machine: ${unitsNamed(split)}.`,
  ];
}

/** Hosts whose plan interval is above the configured delay: the cluster frameworks keep one delay for all. */
function hostsAboveDelay(plan: Plan, shards: ExportShards): { source: string; hosts: string[] }[] {
  const bySource = new Map<string, string[]>();
  for (const h of shards.hosts) {
    if (h.intervalSeconds <= plan.input.delaySeconds) continue;
    const list = bySource.get(h.intervalSource) ?? [];
    list.push(`${h.host} (${formatSeconds(h.intervalSeconds)})`);
    bySource.set(h.intervalSource, list);
  }
  return [...bySource].map(([source, hosts]) => ({ source, hosts }));
}

function clusterDifferences(plan: Plan, shards: ExportShards, name: 'Nutch' | 'StormCrawler'): string[] {
  const r = plan.input;
  const lines: string[] = [];
  lines.push(
    r.delayFrom === 'start'
      ? `Delay measurement: ${name} waits fetcher.server.delay from the END of one fetch to the start of the next (end-to-start); the plan measures start to start. Each host's period is therefore its interval plus its response time: slower than planned, never faster.`
      : `Delay measurement: ${name} waits fetcher.server.delay from the end of one fetch to the start of the next, as the plan does (end-to-start).`,
  );
  const mergedBy =
    name === 'Nutch'
      ? 'fetcher.min.crawl.delay, which defaults to fetcher.server.delay'
      : 'fetcher.server.delay.force: true';
  lines.push(
    `One delay for every host: fetcher.server.delay = ${formatSeconds(r.delaySeconds)}, the plan's configured delay. ${name} raises it per host only from the Crawl-delay in the host's robots.txt, read at fetch time and merged by max (${mergedBy}).`,
  );
  for (const { source, hosts } of hostsAboveDelay(plan, shards)) {
    const why =
      source === 'adaptive'
        ? `from the adaptive rule, which ${name} does not have`
        : `from a Crawl-delay (robots.txt, or given by hand with --crawl-delay)`;
    lines.push(
      `${formatNumber(hosts.length)} ${hosts.length === 1 ? 'host has' : 'hosts have'} a longer interval in the plan, ${why}; ${name} keeps it only if the host's robots.txt says so at fetch time: ${named(hosts)}.`,
    );
  }
  const cap = wholeSecondsUp(r.maxCrawlDelaySeconds);
  const capText =
    cap === r.maxCrawlDelaySeconds
      ? `${cap} s`
      : `${cap} s (the plan's ${formatSeconds(r.maxCrawlDelaySeconds)} rounded up: the key takes whole seconds)`;
  if (r.crawlDelayPolicy === 'obey') {
    lines.push(
      `Crawl-delay above the cap: obeyed however long, as the plan's obey policy (fetcher.max.crawl.delay = -1).`,
    );
  } else if (name === 'Nutch' && r.crawlDelayPolicy === 'cap') {
    lines.push(
      `Crawl-delay above the cap: Nutch cannot cap one; above fetcher.max.crawl.delay = ${capText} it skips the host's pages (the plan's skip policy), where the plan would crawl the host at the cap.`,
    );
  } else {
    lines.push(
      `Crawl-delay above the cap (fetcher.max.crawl.delay = ${capText}): ${r.crawlDelayPolicy === 'cap' ? 'crawled at the cap (fetcher.max.crawl.delay.force: true)' : 'the host is skipped'}, as the plan's ${r.crawlDelayPolicy} policy.`,
    );
  }
  if (r.perHostConcurrency > 1) {
    lines.push(
      `Lanes: fetcher.threads.per.queue = ${r.perHostConcurrency}. With more than one thread per host queue, ${name} ignores Crawl-delay and waits fetcher.server.min.delay (set to the configured delay) between fetches.`,
    );
  }
  lines.push(
    `Retry-After: ${name} does not read it. A 429 or 5xx fails the fetch; ${name === 'Nutch' ? 'the URL is generated again in a later generate/fetch cycle, at most db.fetch.retry.max times' : 'the URL is fetched again after fetchInterval.fetch.error minutes, and its status becomes ERROR after max.fetch.errors failures'}: no retry within the wait the host asked for, but no backoff either.`,
  );
  lines.push(
    name === 'Nutch'
      ? "robots.txt answering 5xx or 429: Nutch defers the host's visits and drops its queue after http.robots.503.defer.visits.retries (disallow for the cycle, as RFC 9309 §2.3.1.4); a robots.txt that cannot be fetched at all (network error) is read as allow-all, unlike the plan."
      : 'robots.txt answering 5xx or 429: disallow-all (http.robots.5xx.allow: false), as RFC 9309 §2.3.1.4; a robots.txt that cannot be fetched at all (network error) is read as allow-all, unlike the plan.',
  );
  if (r.rate !== null)
    lines.push(
      `Global rate: ${name} has no maximum rate; ${formatNumber(r.rate, 3)}/s is not kept (only the threads and the per-host delay bound it).`,
    );
  if (r.adaptive) lines.push(`Adaptive rule: ${name} has none; the intervals it gave in the plan are listed above.`);
  lines.push(...clusterUnitLines(shards, name));
  lines.push(
    name === 'Nutch'
      ? "Pages: generate.max.count limits each host's URLs per fetch list (one generate/fetch cycle), not over the whole crawl."
      : 'Pages: StormCrawler has no per-host page budget; the status back-end decides what is fetched.',
  );
  lines.push(
    name === 'Nutch'
      ? `Sharding: Nutch partitions the fetch lists ${unitKeyWords(shards)} (partition.url.mode ${QUEUE_MODES[shards.politenessBy]}), so one fetcher task fetches each ${unitWord(shards)}. It assigns hosts by its own hash, not the plan's FNV-1a: with \`generate -numFetchers ${shards.machines}\` a host can land on another task than its seed list here says. The ${shards.machines > 1 ? 'per-machine seed lists are' : 'seed list is'} for independent Nutch instances.`
      : `Sharding: URLPartitionerBolt keys each URL ${unitKeyWords(shards)} (partition.url.mode ${QUEUE_MODES[shards.politenessBy]}) and the fetcher's input is grouped on that key, so one FetcherBolt instance fetches each ${unitWord(shards)}. Storm picks the instance by its own hash of the key, not the plan's FNV-1a; the ${shards.machines > 1 ? 'per-machine seed lists are' : 'seed list is'} for independent topologies.`,
  );
  lines.push(...splitUnits(shards));
  return lines;
}

function unitKeyWords(shards: ExportShards): string {
  return { host: 'by host', ip: 'by IP address', domain: 'by registered domain' }[shards.politenessBy];
}

function unitWord(shards: ExportShards): string {
  return { host: 'host', ip: 'address', domain: 'domain' }[shards.politenessBy];
}

/**
 * What Nutch and StormCrawler keep of the plan's units (fetcher.queue.mode and partition.url.mode, cluster.ts):
 * one queue per address or domain, which each framework works out by itself (FetchItem.create,
 * URLPartitioner, URLPartitionerBolt, FetcherBolt; the commits cited in cluster.ts).
 */
function clusterUnitLines(shards: ExportShards, name: 'Nutch' | 'StormCrawler'): string[] {
  const by = shards.politenessBy;
  if (by === 'host') return [];
  const grouped = groupedUnits(shards);
  const mode = QUEUE_MODES[by];
  const lines: string[] = [];
  const planned = grouped.length > 0 ? ` The plan's units: ${unitsNamed(grouped)}.` : '';
  if (by === 'ip') {
    lines.push(
      name === 'Nutch'
        ? `Politeness units by IP (fetcher.queue.mode and partition.url.mode ${mode}): Nutch looks every host up itself, with the system's resolver, when it generates the fetch lists and again when it queues each URL, and keys the queue by the first address it gets; a host that does not resolve then is skipped. So its queues are what DNS says at fetch time, not the addresses the plan was made with (--resolve is not seen by Nutch), and a host with several addresses joins one queue, where the plan joins every host sharing any of them.${planned}`
        : `Politeness units by IP (partition.url.mode and fetcher.queue.mode ${mode}): URLPartitionerBolt looks every host up itself, with the system's resolver (cached per host in each bolt instance), and FetcherBolt queues on that key, the first address; a host that does not resolve is dropped without a fetch. So its queues are what DNS says at fetch time, not the addresses the plan was made with (--resolve is not seen by StormCrawler), and a host with several addresses joins one queue, where the plan joins every host sharing any of them.${planned}`,
    );
  } else {
    lines.push(
      name === 'Nutch'
        ? `Politeness units by domain (fetcher.queue.mode and partition.url.mode ${mode}): Nutch's domain uses only the ICANN part of the Public Suffix List (URLUtil.getDomainName), where the plan also counts its private suffixes: hosts such as alice.github.io and bob.github.io share one Nutch queue but are apart in the plan (slower, never faster).${planned}`
        : `Politeness units by domain (partition.url.mode and fetcher.queue.mode ${mode}): StormCrawler's domain is crawler-commons' PaidLevelDomain, its own reading of the domain, which need not match the plan's Public Suffix List (private suffixes such as github.io included): where they differ, StormCrawler's queues are not the plan's units.${planned}`,
    );
  }
  lines.push(
    `Crawl-delay in a shared queue: ${name} sets the queue's delay from the robots.txt of the host it fetched last (never below ${name === 'Nutch' ? 'fetcher.min.crawl.delay' : 'fetcher.server.delay, with fetcher.server.delay.force'}), not from the largest of its hosts' Crawl-delays as the plan does: one host's longer Crawl-delay holds for the queue only until another host's shorter one is read.`,
  );
  return lines;
}

/** The plan's assumptions that `format` cannot keep, one sentence or short paragraph each. */
export function differences(format: ExportFormat, plan: Plan, shards: ExportShards): string[] {
  switch (format) {
    case 'scrapy':
    case 'crawlee':
      return codeDifferences(plan, shards, CODE_FRAMEWORKS[format]);
    case 'nutch':
      return clusterDifferences(plan, shards, 'Nutch');
    case 'stormcrawler':
      return clusterDifferences(plan, shards, 'StormCrawler');
  }
}

/** A unit after a number ("300 s"): kept on the number's line. */
const UNIT = /^(s|ms|h|d|%)[,.;:)]*$/;

/** Words wrapped at `width` columns, for comment blocks (a word longer than the width stays whole). */
export function wrap(text: string, width = 100): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    if (line !== '' && line.length + 1 + word.length > width && !UNIT.test(word)) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The "differences" comment block's lines: a heading, then each difference as a wrapped bullet. */
export function differencesBlock(format: ExportFormat, items: readonly string[]): string[] {
  const title = { scrapy: 'Scrapy 2.8', crawlee: 'Crawlee 3', nutch: 'Nutch', stormcrawler: 'StormCrawler' }[format];
  const lines = [`Differences: what ${title} does not keep of the plan, or keeps differently`, ''];
  for (const item of items) {
    const [first, ...rest] = wrap(item, 96);
    lines.push(`- ${first}`, ...rest.map((l) => `  ${l}`));
  }
  return lines;
}
