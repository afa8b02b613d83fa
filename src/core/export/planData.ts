/**
 * `plan.json`: the plan as data for the exports that run code of ours (Scrapy, Crawlee). The generated code
 * is the same for every plan; everything that comes from the plan or the user (hosts, intervals, pages,
 * the User-Agent header) is in this file and is read with a JSON parser, never spliced into code.
 */
import { VERSION } from '../identity';
import { ADAPTIVE_FLOOR_SECONDS, ADAPTIVE_LATENCY_FACTOR } from '../politeness/interval';
import { RETRY_AFTER_STATUSES, RETRYABLE_STATUSES } from '../politeness/retryPolicy';
import { CRAWL_DEFAULTS } from '../crawl/engineOptions';
import type { Plan } from '../plan';
import type { PolitenessBy } from '../servers/units';
import type { ExportShards } from './hosts';
import { asciiJson } from './literals';
import { EXPORT_DEFAULTS } from './types';

/** Bumped when a field the generated code reads is removed, renamed or retyped. */
export const PLAN_DATA_SCHEMA_VERSION = 1;

export interface PlanDataSettings {
  delaySeconds: number;
  delayFrom: 'start' | 'end';
  workers: number;
  /** Requests per second per machine, or null. */
  rate: number | null;
  perHostConcurrency: number;
  crawlDelayPolicy: 'cap' | 'skip' | 'obey';
  maxCrawlDelaySeconds: number;
  adaptive: boolean;
  adaptiveFloorSeconds: number;
  adaptiveLatencyFactor: number;
  timeoutSeconds: number;
  maxRetries: number;
  retryStatuses: number[];
  retryAfterStatuses: number[];
  retryAfterCapSeconds: number;
  backoffBaseSeconds: number;
  backoffCapSeconds: number;
  maxRedirects: number;
  /** The politeness unit (docs/exports.md#politeness-units); each host's is in `hosts[].unit`. */
  politenessBy: PolitenessBy;
}

export interface PlanData {
  schemaVersion: typeof PLAN_DATA_SCHEMA_VERSION;
  generator: string;
  productToken: string;
  userAgent: string;
  /** Machines with a seed list of their own (1: not sharded). */
  machines: number;
  settings: PlanDataSettings;
  /**
   * A list, not an object keyed by host: a host named `__proto__` or `constructor` stays a plain value.
   * `unit`: the name of the host's politeness unit; hosts with one unit share one slot (Scrapy) or one
   * timeline (Crawlee), and the unit's interval is the largest of theirs.
   */
  hosts: { host: string; intervalSeconds: number; pages: number; machine: number; unit: string }[];
}

export interface PlanDataOptions {
  productToken: string;
  userAgentHeader: string;
  timeoutSeconds: number;
  maxRetries: number;
}

export function planData(plan: Plan, shards: ExportShards, o: PlanDataOptions): PlanData {
  const r = plan.input;
  return {
    schemaVersion: PLAN_DATA_SCHEMA_VERSION,
    generator: `crawl-planner ${VERSION}`,
    productToken: o.productToken,
    userAgent: o.userAgentHeader,
    machines: shards.machines,
    settings: {
      delaySeconds: r.delaySeconds,
      delayFrom: r.delayFrom,
      workers: r.workers,
      rate: r.rate,
      perHostConcurrency: r.perHostConcurrency,
      crawlDelayPolicy: r.crawlDelayPolicy,
      maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
      adaptive: r.adaptive,
      adaptiveFloorSeconds: ADAPTIVE_FLOOR_SECONDS,
      adaptiveLatencyFactor: ADAPTIVE_LATENCY_FACTOR,
      timeoutSeconds: o.timeoutSeconds,
      maxRetries: o.maxRetries,
      retryStatuses: [...RETRYABLE_STATUSES],
      retryAfterStatuses: [...RETRY_AFTER_STATUSES],
      retryAfterCapSeconds: EXPORT_DEFAULTS.retryAfterCapSeconds,
      backoffBaseSeconds: EXPORT_DEFAULTS.backoffBaseMs / 1000,
      backoffCapSeconds: EXPORT_DEFAULTS.backoffCapMs / 1000,
      maxRedirects: CRAWL_DEFAULTS.maxRedirects,
      politenessBy: shards.politenessBy,
    },
    hosts: shards.hosts.map((h) => ({
      host: h.host,
      intervalSeconds: h.intervalSeconds,
      pages: h.pages,
      machine: h.machine,
      unit: h.unit,
    })),
  };
}

/** plan.json's text: ASCII-only JSON (every other character escaped), so it reads the same in any encoding. */
export function planDataFile(data: PlanData): string {
  return asciiJson(data) + '\n';
}
