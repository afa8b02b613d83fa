/**
 * The Scrapy export (Scrapy 2.8, Debian's python3-scrapy, which has no per-slot settings): a project that
 * `scrapy crawl planned` runs as it is. settings.py carries the plan's global numbers and the differences;
 * planned/politeness.py (scrapyCode.ts) keeps the per-host plan read from planned/plan.json.
 */
import { VERSION } from '../identity';
import type { Plan } from '../plan';
import { differencesBlock } from './differences';
import { seedFiles, type ExportShards } from './hosts';
import { commentBlock, pyString } from './literals';
import { planDataFile, type PlanData } from './planData';
import { PACKAGE_INIT, POLITENESS_PY, SCRAPY_CFG, SPIDER_PY, SPIDERS_INIT } from './scrapyCode';
import type { ExportFile } from './types';

/** A finite number as a Python literal (the plan's limits keep every number finite). */
function pyNumber(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`${n} is not a finite number`);
  return String(n);
}

/** The downloader middlewares of the export, with their orders (politeness.py says why each sits where it does). */
export const SCRAPY_DOWNLOADER_MIDDLEWARES: ReadonlyArray<[string, number | null]> = [
  ['scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware', null],
  ['planned.politeness.PlanScopeMiddleware', 50],
  ['planned.politeness.PlannedRobotsTxtMiddleware', 100],
  ['planned.politeness.PlanBudgetMiddleware', 120],
  ['planned.politeness.PlanFailureMiddleware', 590],
];

function settingsPy(plan: Plan, data: PlanData, differences: readonly string[]): string {
  const s = data.settings;
  const lines = [
    `Scrapy settings of a crawl plan, exported by crawl-planner ${VERSION} (docs/exports.md).`,
    'Run it with `scrapy crawl planned` in this folder' +
      (data.machines > 1 ? ' and `-a machine=K` (one process per machine)' : '') +
      '; `-s CLOSESPIDER_PAGECOUNT=N` stops after N pages.',
    "Each host's interval, Crawl-delay, Retry-After, robots.txt outcome and page budget are kept by",
    "planned/politeness.py from planned/plan.json; the numbers below are the plan's global ones.",
    '',
    ...differencesBlock('scrapy', differences),
  ];
  const mw = SCRAPY_DOWNLOADER_MIDDLEWARES.map(
    ([name, order]) => `    ${pyString(name)}: ${order === null ? 'None' : order},`,
  );
  return [
    commentBlock(lines, 'python'),
    'BOT_NAME = "planned"',
    'SPIDER_MODULES = ["planned.spiders"]',
    'NEWSPIDER_MODULE = "planned.spiders"',
    '',
    '# Who runs the crawl, and the product token robots.txt groups are matched against (RFC 9309 §2.2.1).',
    `USER_AGENT = ${pyString(data.userAgent)}`,
    'ROBOTSTXT_OBEY = True',
    `ROBOTSTXT_USER_AGENT = ${pyString(data.productToken)}`,
    '',
    `# The plan's configured delay; each host's own interval (${plan.input.delayFrom === 'start' ? 'start to start' : 'end to start'}) is set on its slot by planned.politeness.PlanPacing.`,
    `DOWNLOAD_DELAY = ${pyNumber(s.delaySeconds)}`,
    'RANDOMIZE_DOWNLOAD_DELAY = False',
    `CONCURRENT_REQUESTS = ${s.workers}`,
    `CONCURRENT_REQUESTS_PER_DOMAIN = ${s.perHostConcurrency}`,
    'CONCURRENT_REQUESTS_PER_IP = 0',
    "# The next request is for the host that is ready soonest, so that requests waiting out their host's",
    '# interval hold as few of CONCURRENT_REQUESTS as they can.',
    'SCHEDULER_PRIORITY_QUEUE = "planned.politeness.PlanPriorityQueue"',
    "# Off: AutoThrottle would set slot delays of its own, below the plan's intervals.",
    'AUTOTHROTTLE_ENABLED = False',
    '',
    'RETRY_ENABLED = True',
    `RETRY_TIMES = ${s.maxRetries}`,
    `RETRY_HTTP_CODES = [${s.retryStatuses.join(', ')}]`,
    `DOWNLOAD_TIMEOUT = ${pyNumber(s.timeoutSeconds)}`,
    `REDIRECT_MAX_TIMES = ${s.maxRedirects}`,
    '',
    'DOWNLOADER_MIDDLEWARES = {',
    ...mw,
    '}',
    'EXTENSIONS = {',
    '    "planned.politeness.PlanPacing": 0,',
    '}',
    'DOWNLOAD_HANDLERS = {',
    '    "http": "planned.politeness.PlanDownloadHandler",',
    '    "https": "planned.politeness.PlanDownloadHandler",',
    '}',
    '',
    'TELNETCONSOLE_ENABLED = False',
    'REQUEST_FINGERPRINTER_IMPLEMENTATION = "2.7"',
    'LOG_LEVEL = "INFO"',
    '',
  ].join('\n');
}

export function scrapyFiles(
  plan: Plan,
  shards: ExportShards,
  data: PlanData,
  differences: readonly string[],
): ExportFile[] {
  return [
    { path: 'scrapy.cfg', content: SCRAPY_CFG },
    { path: 'planned/__init__.py', content: PACKAGE_INIT },
    { path: 'planned/settings.py', content: settingsPy(plan, data, differences) },
    { path: 'planned/politeness.py', content: POLITENESS_PY },
    { path: 'planned/plan.json', content: planDataFile(data) },
    { path: 'planned/spiders/__init__.py', content: SPIDERS_INIT },
    { path: 'planned/spiders/planned.py', content: SPIDER_PY },
    ...seedFiles(shards),
  ];
}

export function scrapyHowToRun(machines: number): string {
  return machines > 1
    ? 'Run: cd into the folder, then on machine K `scrapy crawl planned -a machine=K` (Scrapy 2.8 or later); `-s CLOSESPIDER_PAGECOUNT=N` stops after N pages.'
    : 'Run: cd into the folder, then `scrapy crawl planned` (Scrapy 2.8 or later); `-s CLOSESPIDER_PAGECOUNT=N` stops after N pages.';
}
