/**
 * What a framework's setting means to the planner, and which of several places that set it wins. Pure.
 *
 * | Setting | Planner | |
 * | --- | --- | --- |
 * | Scrapy `DOWNLOAD_DELAY`, Crawlee `sameDomainDelaySecs` | the delay per host | both measured start to start |
 * | Scrapy `CONCURRENT_REQUESTS`, Crawlee `maxConcurrency` | workers (requests in flight in all) | |
 * | Scrapy `CONCURRENT_REQUESTS_PER_DOMAIN` | requests in flight per host | |
 * | Crawlee `maxRequestsPerMinute` | the target rate | ÷ 60 |
 * | Scrapy `CLOSESPIDER_PAGECOUNT`, Crawlee `maxRequestsPerCrawl` | pages in total | 0: no limit |
 */
import { CRAWLEE_OPTION_NAMES } from './crawlee';
import { SCRAPY_SETTING_NAMES } from './scrapy';
import type { SettingRead, SettingReads } from './types';

/** The planner's quantity a setting sets. */
export type PlannerQuantity = 'delaySeconds' | 'workers' | 'perHostConcurrency' | 'rate' | 'pages';

export interface SettingMeaning {
  quantity: PlannerQuantity;
  /** The written value in the planner's unit (requests a minute → per second). */
  toPlanner(written: number): number;
  /** 0 means "no limit": nothing is set. */
  zeroIsNone?: true;
}

type SettingName = (typeof SCRAPY_SETTING_NAMES)[number] | (typeof CRAWLEE_OPTION_NAMES)[number];

const same = (v: number): number => v;

export const SETTING_MEANINGS: Readonly<Record<SettingName, SettingMeaning>> = {
  DOWNLOAD_DELAY: { quantity: 'delaySeconds', toPlanner: same },
  CONCURRENT_REQUESTS: { quantity: 'workers', toPlanner: same },
  CONCURRENT_REQUESTS_PER_DOMAIN: { quantity: 'perHostConcurrency', toPlanner: same },
  CLOSESPIDER_PAGECOUNT: { quantity: 'pages', toPlanner: same, zeroIsNone: true },
  sameDomainDelaySecs: { quantity: 'delaySeconds', toPlanner: same },
  maxConcurrency: { quantity: 'workers', toPlanner: same },
  maxRequestsPerMinute: { quantity: 'rate', toPlanner: (perMinute) => perMinute / 60 },
  maxRequestsPerCrawl: { quantity: 'pages', toPlanner: same, zeroIsNone: true },
};

/** The meaning of a setting read from code (every name the readers report has one). */
export function settingMeaning(name: string): SettingMeaning | undefined {
  return Object.hasOwn(SETTING_MEANINGS, name) ? SETTING_MEANINGS[name as SettingName] : undefined;
}

/**
 * Each setting from the place that wins: `layers` come highest priority first (Scrapy: the spider's
 * `custom_settings`, then the project's settings module). A setting a layer writes but that cannot be read
 * still wins: what applies is then unknown, and a lower layer's value is not used in its place.
 */
export function resolveSettings<S>(
  layers: ReadonlyArray<{ source: S; reads: SettingReads }>,
): Array<{ source: S; read: SettingRead }> {
  const taken = new Map<string, { source: S; read: SettingRead }>();
  for (const layer of layers) {
    for (const read of Object.values(layer.reads))
      if (!taken.has(read.name)) taken.set(read.name, { source: layer.source, read });
  }
  return [...taken.values()];
}
