/**
 * The exports for crawlers that run on a cluster: Nutch (conf/nutch-site.xml) and StormCrawler
 * (crawler-conf.yaml), each with seed lists. Every key written here is checked against the framework's own
 * default configuration (test/fixtures/frameworks/, test/unit/export-keys.test.ts): its name must exist
 * there and its value must have the default's type.
 */
import { VERSION } from '../identity';
import type { Plan } from '../plan';
import type { PolitenessBy } from '../servers/units';
import { differencesBlock, wholeSecondsUp } from './differences';
import { DEFAULT_SEED_PATH, QUEUE_MODES, seedFiles, type ExportShards, type SeedPath } from './hosts';
import { commentBlock, commentLine, xmlText, yamlString } from './literals';
import type { ExportFile } from './types';

/** The type a key's value has in the framework's defaults: a whole number, any number, a boolean or a string. */
export type ConfType = 'int' | 'float' | 'boolean' | 'string';

export interface ConfProperty {
  name: string;
  value: number | boolean | string;
  type: ConfType;
  /** Why this value: the plan's number it comes from. */
  why: string;
}

export interface ClusterOptions {
  productToken: string;
  contact?: string;
  timeoutSeconds: number;
  maxRetries: number;
}

/** The contact split the way Nutch and StormCrawler take it: a page (`http.agent.url`) or an address (`http.agent.email`). */
function contactKeys(contact: string | undefined): ConfProperty[] {
  const text = contact?.trim() ?? '';
  if (text === '') return [];
  if (/^mailto:/i.test(text)) {
    return [
      {
        name: 'http.agent.email',
        value: decodeURIComponent(text.slice('mailto:'.length)),
        type: 'string',
        why: 'who runs the crawl (--contact)',
      },
    ];
  }
  return [{ name: 'http.agent.url', value: text, type: 'string', why: 'who runs the crawl (--contact)' }];
}

const UNIT_WORDS: Readonly<Record<PolitenessBy, string>> = {
  host: 'per host',
  ip: 'per IP address: hosts on one address share a queue',
  domain: 'per registered domain: hosts of one domain share a queue',
};

function maxPages(shards: ExportShards): number {
  return shards.hosts.reduce((most, h) => Math.max(most, h.pages), 0);
}

function maxCrawlDelay(plan: Plan): number {
  return plan.input.crawlDelayPolicy === 'obey' ? -1 : wholeSecondsUp(plan.input.maxCrawlDelaySeconds);
}

/** The keys Nutch and StormCrawler share (same names, same meaning), by name. */
function sharedKeys(plan: Plan, shards: ExportShards, o: ClusterOptions) {
  const r = plan.input;
  const key = (name: string, value: ConfProperty['value'], type: ConfType, why: string): ConfProperty => ({
    name,
    value,
    type,
    why,
  });
  return {
    identity: [
      key('http.agent.name', o.productToken, 'string', 'the product token robots.txt groups are matched against'),
      ...contactKeys(o.contact),
    ],
    serverDelay: key(
      'fetcher.server.delay',
      r.delaySeconds,
      'float',
      "the plan's configured delay; a host's robots.txt Crawl-delay can raise it",
    ),
    minDelay: key(
      'fetcher.server.min.delay',
      r.delaySeconds,
      'float',
      'the delay when fetcher.threads.per.queue is above 1',
    ),
    perQueue: key(
      'fetcher.threads.per.queue',
      r.perHostConcurrency,
      'int',
      shards.politenessBy === 'host' ? 'requests in flight per host' : 'requests in flight per queue (politeness unit)',
    ),
    queueMode: key(
      'fetcher.queue.mode',
      QUEUE_MODES[shards.politenessBy],
      'string',
      `politeness ${UNIT_WORDS[shards.politenessBy]}, as the plan`,
    ),
    maxCrawlDelay: key(
      'fetcher.max.crawl.delay',
      maxCrawlDelay(plan),
      'int',
      `the Crawl-delay cap (policy ${r.crawlDelayPolicy})`,
    ),
    timeout: key('http.timeout', Math.round(o.timeoutSeconds * 1000), 'int', 'the bound on one request, ms'),
    attempts: (name: string) => key(name, o.maxRetries + 1, 'int', 'attempts per URL: the first and the retries'),
  };
}

export function nutchProperties(plan: Plan, shards: ExportShards, o: ClusterOptions): ConfProperty[] {
  const k = sharedKeys(plan, shards, o);
  return [
    ...k.identity,
    k.serverDelay,
    k.minDelay,
    k.perQueue,
    {
      name: 'fetcher.threads.fetch',
      value: plan.input.workers,
      type: 'int',
      why: "the plan's workers, per fetcher task",
    },
    k.queueMode,
    k.maxCrawlDelay,
    k.timeout,
    {
      name: 'partition.url.mode',
      value: QUEUE_MODES[shards.politenessBy],
      type: 'string',
      why:
        shards.politenessBy === 'host'
          ? 'a host is never split across fetch lists'
          : 'a queue (politeness unit) is never split across fetch lists',
    },
    { name: 'generate.max.count', value: maxPages(shards), type: 'int', why: 'the most pages the plan gives a host' },
    {
      name: 'generate.count.mode',
      value: 'host',
      type: 'string',
      why: "generate.max.count counts per host (the plan's pages are per host, whatever the unit)",
    },
    { name: 'db.ignore.external.links', value: true, type: 'boolean', why: "the crawl stays on the seeds' hosts" },
    {
      name: 'http.robots.503.defer.visits',
      value: true,
      type: 'boolean',
      why: 'a robots.txt answering 5xx or 429 stops the host',
    },
    k.attempts('db.fetch.retry.max'),
  ];
}

export function stormCrawlerProperties(plan: Plan, shards: ExportShards, o: ClusterOptions): ConfProperty[] {
  const k = sharedKeys(plan, shards, o);
  return [
    ...k.identity,
    k.serverDelay,
    {
      name: 'fetcher.server.delay.force',
      value: true,
      type: 'boolean',
      why: 'a shorter Crawl-delay never lowers the delay (merged by max)',
    },
    k.minDelay,
    k.perQueue,
    {
      name: 'fetcher.threads.number',
      value: plan.input.workers,
      type: 'int',
      why: "the plan's workers, per FetcherBolt instance",
    },
    k.queueMode,
    k.maxCrawlDelay,
    {
      name: 'fetcher.max.crawl.delay.force',
      value: plan.input.crawlDelayPolicy === 'cap',
      type: 'boolean',
      why: 'above the cap: crawl at the cap (true) or skip the host (false)',
    },
    {
      name: 'partition.url.mode',
      value: QUEUE_MODES[shards.politenessBy],
      type: 'string',
      why:
        shards.politenessBy === 'host'
          ? 'one fetcher instance per host'
          : 'one fetcher instance per queue key (politeness unit); FetcherBolt queues on this key',
    },
    k.timeout,
    {
      name: 'http.robots.403.allow',
      value: true,
      type: 'boolean',
      why: 'a 4xx robots.txt allows everything (RFC 9309 §2.3.1.3)',
    },
    {
      name: 'http.robots.5xx.allow',
      value: false,
      type: 'boolean',
      why: 'a 5xx robots.txt disallows everything (RFC 9309 §2.3.1.4)',
    },
    { name: 'http.robots.file.skip', value: false, type: 'boolean', why: 'robots.txt is obeyed' },
    k.attempts('max.fetch.errors'),
  ];
}

/** A number as the frameworks' defaults write it: a float key always with a decimal point. */
function confNumber(p: ConfProperty): string {
  const n = p.value as number;
  if (!Number.isFinite(n)) throw new RangeError(`${p.name}: ${n} is not a finite number`);
  if (p.type === 'int') {
    if (!Number.isInteger(n)) throw new RangeError(`${p.name}: ${n} is not a whole number`);
    return String(n);
  }
  return Number.isInteger(n) ? `${n}.0` : String(n);
}

function confText(p: ConfProperty): string {
  return typeof p.value === 'string' ? p.value : typeof p.value === 'boolean' ? String(p.value) : confNumber(p);
}

/** Nutch injects every file of a folder: one folder per machine. */
export const NUTCH_SEED_PATH: SeedPath = (machine) =>
  machine === null ? 'urls/seed.txt' : `urls/machine-${machine}/seed.txt`;

/** Where the seeds are, for the header and the notes. */
export function seedListsText(format: 'nutch' | 'stormcrawler', machines: number): string {
  const path = format === 'nutch' ? NUTCH_SEED_PATH : DEFAULT_SEED_PATH;
  return machines > 1 ? `${path('K')} (one list per machine, K = 0 to ${machines - 1})` : path(null);
}

function headerLines(format: 'nutch' | 'stormcrawler', shards: ExportShards, differences: readonly string[]): string[] {
  const lists = seedListsText(format, shards.machines);
  const use =
    format === 'nutch'
      ? `Use it as conf/nutch-site.xml (or merge its properties into yours) and inject ${lists}; set plugin.includes and the rest as your crawl needs.`
      : `Pass it to your topology with -conf crawler-conf.yaml (or merge its keys into yours) and inject ${lists} with your seed spout.`;
  return [
    `A crawl plan's settings, exported by crawl-planner ${VERSION} (docs/exports.md).`,
    use,
    '',
    ...differencesBlock(format, differences),
  ];
}

function nutchSiteXml(properties: readonly ConfProperty[], header: readonly string[]): string {
  const props = properties.map(
    (p) =>
      `  <property>\n    <name>${xmlText(p.name)}</name>\n    <value>${xmlText(confText(p))}</value>\n    <description>${xmlText(p.why)}</description>\n  </property>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>',
    commentBlock(header, 'xml').trimEnd(),
    '<configuration>',
    ...props,
    '</configuration>',
    '',
  ].join('\n');
}

function crawlerConfYaml(properties: readonly ConfProperty[], header: readonly string[]): string {
  const lines = properties.map((p) => {
    const value = typeof p.value === 'string' ? yamlString(p.value) : confText(p);
    return `  # ${commentLine(p.why, 'yaml')}\n  ${p.name}: ${value}`;
  });
  return [commentBlock(header, 'yaml').trimEnd(), 'config:', ...lines, ''].join('\n');
}

export function nutchFiles(
  plan: Plan,
  shards: ExportShards,
  o: ClusterOptions,
  differences: readonly string[],
): ExportFile[] {
  return [
    {
      path: 'conf/nutch-site.xml',
      content: nutchSiteXml(nutchProperties(plan, shards, o), headerLines('nutch', shards, differences)),
    },
    ...seedFiles(shards, NUTCH_SEED_PATH),
  ];
}

export function stormCrawlerFiles(
  plan: Plan,
  shards: ExportShards,
  o: ClusterOptions,
  differences: readonly string[],
): ExportFile[] {
  return [
    {
      path: 'crawler-conf.yaml',
      content: crawlerConfYaml(
        stormCrawlerProperties(plan, shards, o),
        headerLines('stormcrawler', shards, differences),
      ),
    },
    ...seedFiles(shards),
  ];
}
