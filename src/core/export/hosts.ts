/**
 * The hosts an export carries and the seed lists it writes: the plan's hosts that have pages and are not
 * skipped, each with its interval, pages, machine and politeness unit, and the seeds grouped per machine so
 * that a host is never split across machines (the plan's FNV-1a sharding, `machineForHost`).
 */
import { plannedHostBudget } from '../crawl/pageBudgets';
import type { HostPlan, Plan } from '../plan';
import { parseSeedUrl } from '../seeds';
import type { PolitenessBy } from '../servers/units';
import { ExportInputError, type ExportSeed } from './types';

export interface ExportHost {
  host: string;
  /** The plan's interval for the host, seconds (max of delay, Crawl-delay under the policy, adaptive). */
  intervalSeconds: number;
  /** Where that interval came from. */
  intervalSource: HostPlan['politenessSource'];
  /** The Crawl-delay the plan knew for the host (after the ceiling), or null. */
  crawlDelaySeconds: number | null;
  pages: number;
  /** 0-based; 0 when the plan is not sharded. */
  machine: number;
  /** The name of the host's politeness unit (the host itself with `host`, or for a unit of one). */
  unit: string;
}

/** A politeness unit of the export: its name and its exported hosts (two or more only when grouped). */
export interface ExportUnit {
  name: string;
  hosts: string[];
}

export interface ExportShards {
  hosts: ExportHost[];
  /** Machines the export writes seed lists for: the plan's `--machines`, or 1. */
  machines: number;
  /** Seed URLs per machine (index = machine), in input order, duplicates removed. */
  seeds: string[][];
  /** Hosts left out: skipped for a Crawl-delay above the cap, or given no pages by the plan. */
  skippedHosts: string[];
  hostsWithoutPages: string[];
  /** Hosts left out because their pages are unknown (a sizing could not read them; the plan's `unknownHosts`). */
  hostsPagesUnknown: string[];
  /** Seeds whose host is not in the export (a skipped host, no pages, or not a host of the plan at all). */
  seedsLeftOut: number;
  /** The politeness unit the plan was made with (docs/exports.md#politeness-units). */
  politenessBy: PolitenessBy;
  /** The units of the exported hosts, in host order; with `host`, one per host. */
  units: ExportUnit[];
}

/** Whether the export writes one seed list per machine. */
export function isSharded(plan: Plan): boolean {
  return plan.sharding !== null && plan.sharding.machines > 1;
}

/**
 * Hosts and seed lists of `plan`. Each seed is parsed again (`parseSeedUrl`): a seed that is not an absolute
 * http(s) URL, or whose host is not the host it claims, is refused, so a seed list never holds a line break
 * or anything but the URL.
 */
export function exportShards(plan: Plan, seeds: readonly ExportSeed[]): ExportShards {
  const machines = isSharded(plan) ? plan.sharding!.machines : 1;
  // The plan's own units (docs/planning.md#politeness-units): each host's `unit`, the host itself under `host`.
  const politenessBy = plan.input.politenessBy;
  const hosts: ExportHost[] = [];
  const skippedHosts: string[] = [];
  const hostsWithoutPages: string[] = [];
  const hostsPagesUnknown: string[] = [];
  const byHost = new Map<string, ExportHost>();
  for (const h of plan.hosts) {
    if (h.skipped) {
      skippedHosts.push(h.host);
      continue;
    }
    if (h.pagesUnknown !== undefined) {
      hostsPagesUnknown.push(h.host);
      continue;
    }
    // The host's page budget, as `crawl --plan` and the sidebar's Run test crawl give it (the one rule).
    const pages = plannedHostBudget(h);
    if (pages === 0) {
      hostsWithoutPages.push(h.host);
      continue;
    }
    const entry: ExportHost = {
      host: h.host,
      intervalSeconds: h.intervalSeconds,
      intervalSource: h.politenessSource,
      crawlDelaySeconds: h.crawlDelaySeconds,
      pages,
      machine: machines > 1 ? h.machine! : 0,
      unit: h.unit ?? h.host,
    };
    hosts.push(entry);
    byHost.set(h.host, entry);
  }
  const lists: string[][] = Array.from({ length: machines }, () => []);
  const seen = new Set<string>();
  let seedsLeftOut = 0;
  for (const [i, seed] of seeds.entries()) {
    const parsed = parseSeedUrl(seed.url);
    if ('problem' in parsed) throw new ExportInputError(`seed ${i + 1} is not an absolute http(s) URL`);
    if (parsed.host !== seed.host.toLowerCase())
      throw new ExportInputError(`seed ${i + 1}: its host is not the one given with it`);
    const host = byHost.get(parsed.host);
    if (host === undefined) {
      seedsLeftOut++;
      continue;
    }
    if (seen.has(parsed.url)) continue;
    seen.add(parsed.url);
    lists[host.machine]!.push(parsed.url);
  }
  const units = new Map<string, ExportUnit>();
  for (const h of hosts) {
    const unit = units.get(h.unit);
    if (unit === undefined) units.set(h.unit, { name: h.unit, hosts: [h.host] });
    else unit.hosts.push(h.host);
  }
  return {
    hosts,
    machines,
    seeds: lists,
    skippedHosts,
    hostsWithoutPages,
    hostsPagesUnknown,
    seedsLeftOut,
    politenessBy,
    units: [...units.values()],
  };
}

/**
 * The politeness unit as both frameworks name it, for `fetcher.queue.mode` (the fetcher's queues: one delay
 * and fetcher.threads.per.queue per queue) and `partition.url.mode` (which fetcher task or FetcherBolt
 * instance gets a URL, so one unit is never split over two). The same three values in both, the plan's
 * modes under Nutch's names (docs/exports.md#politeness-units):
 * - Nutch: conf/nutch-default.xml, `fetcher.queue.mode` and `partition.url.mode` ("Default value is
 *   'byHost', also takes 'byDomain' or 'byIP'"); FetchItem.create and URLPartitioner resolve byIP with
 *   InetAddress.getByName and key byDomain by URLUtil.getDomainName (apache/nutch 7906941).
 * - StormCrawler: core/src/main/resources/crawler-default.yaml, `partition.url.mode` ("alternative values
 *   are "byIP" and "byDomain""); `fetcher.queue.mode` is read by FetcherBolt.FetchItemQueues, which takes
 *   byHost, byDomain or byIP (QUEUE_MODE_*), and queues on the key URLPartitionerBolt gives a URL when it
 *   has one (apache/incubator-stormcrawler 4b8cea0).
 */
export const QUEUE_MODES: Readonly<Record<PolitenessBy, 'byHost' | 'byIP' | 'byDomain'>> = {
  host: 'byHost',
  ip: 'byIP',
  domain: 'byDomain',
};

/** The units of two or more exported hosts: what a framework must keep together. */
export function groupedUnits(shards: ExportShards): ExportUnit[] {
  return shards.units.filter((u) => u.hosts.length > 1);
}

/** Grouped units whose hosts the plan's sharding put on more than one machine. */
export function unitsAcrossMachines(shards: ExportShards): ExportUnit[] {
  const machineOf = new Map(shards.hosts.map((h) => [h.host, h.machine]));
  return groupedUnits(shards).filter((u) => new Set(u.hosts.map((h) => machineOf.get(h))).size > 1);
}

/** Where a seed list goes: `null` for the one list of a plan that is not sharded, else the machine (`'K'`: any machine, for messages). */
export type SeedPath = (machine: number | 'K' | null) => string;

/** `seeds.txt`, or `seeds/machine-K.txt` per machine when sharded. */
export const DEFAULT_SEED_PATH: SeedPath = (machine) =>
  machine === null ? 'seeds.txt' : `seeds/machine-${machine}.txt`;

/** The seed list files, one URL per line (machines without hosts get an empty list). */
export function seedFiles(
  shards: ExportShards,
  pathFor: SeedPath = DEFAULT_SEED_PATH,
): { path: string; content: string }[] {
  const text = (urls: string[]) => (urls.length === 0 ? '' : urls.join('\n') + '\n');
  if (shards.machines === 1) return [{ path: pathFor(null), content: text(shards.seeds[0]!) }];
  return shards.seeds.map((urls, m) => ({ path: pathFor(m), content: text(urls) }));
}
