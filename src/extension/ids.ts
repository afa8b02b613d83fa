/**
 * The one registry of ids the extension contributes (ARCHITECTURE.md §The id registry). package.json must agree with it;
 * test/unit/ids.test.ts checks both directions. Everything lives in the `crawlPlanner` namespace.
 */

export const EXTENSION_ID = 'crawl-planner.crawl-planner';
export const CATEGORY = 'Crawl Planner';

/** The commands, by name: each id is `crawlPlanner.<name>` (COMMANDS), contributed in package.json. */
const COMMAND_NAMES = [
  'estimate',
  'inspectRobots',
  'runTestCrawl',
  'stopTestCrawl',
  'openPlanner',
  'startDemoHosts',
  'stopDemoHosts',
  'copyPlanJson',
  'openRobotsTxt',
  /** The plan report: every host of the planner's plan in an editor tab (docs/extension.md §The plan report). */
  'openPlanReport',
  /** Plans with what a crawl report measured (docs/extension.md §Calibration and simulation). */
  'calibrateFromReport',
  /** Plans with what the last test crawl in this window measured (or, given false, with the typed values again). */
  'planWithTestCrawl',
  /** Simulates the planner's plan: the p10–p90 band and the per-host timeline. */
  'simulatePlan',
  /** Makes a file the planner's seeds (docs/extension.md §Seeds). */
  'loadSeedsFile',
  /** Each planner seed host's pages from its sitemaps (docs/extension.md §Pages from sitemaps). */
  'sizeFromSitemaps',
  /** The planner's plan as files for Scrapy, Crawlee, Nutch or StormCrawler (docs/extension.md §Export Plan). */
  'exportPlan',
  /** robots.txt editor: test URLs against the unsaved buffer (docs/robots-txt-editor.md). */
  'testRobotsTxtUrls',
  /** robots.txt editor: diff the buffer against the live file of its origin. */
  'compareLiveRobotsTxt',
  /** Seeds from code (docs/extension.md §Seeds from code): the URLs of the selection or the file into the planner. */
  'planUrlsInSelection',
  /** Seeds from code: the CodeLens's command (a file's URI and the line of its start URLs). */
  'planSeedsFromCode',
] as const;

type CommandName = (typeof COMMAND_NAMES)[number];

/** Each command's id by its name: `COMMANDS.estimate` is `'crawlPlanner.estimate'`. */
export const COMMANDS = Object.freeze(
  Object.fromEntries(COMMAND_NAMES.map((name) => [name, `crawlPlanner.${name}`])),
) as { readonly [N in CommandName]: `crawlPlanner.${N}` };

export const VIEWS = {
  /** The activity bar container. */
  container: 'crawlPlanner',
  /** The sidebar webview view. */
  planner: 'crawlPlanner.planner',
} as const;

/** The plan report's webview panel type. */
export const PLAN_REPORT_PANEL = 'crawlPlanner.planReport';

export const CONTEXT_KEYS = {
  crawlRunning: 'crawlPlanner.crawlRunning',
  demoHostsRunning: 'crawlPlanner.demoHostsRunning',
} as const;

export const TASK_TYPE = 'crawlPlanner';

/** The status bar item while a test crawl runs (its id: the status bar's menu hides it by this). */
export const CRAWL_STATUS_ITEM = 'crawlPlanner.crawlStatus';

/** A read-only document scheme for fetched robots.txt files. */
export const ROBOTS_SCHEME = 'crawl-planner-robots';

export const SETTINGS = {
  section: 'crawlPlanner',
  userAgent: 'crawlPlanner.userAgent',
  contactUrl: 'crawlPlanner.contactUrl',
  defaultDelay: 'crawlPlanner.defaultDelay',
  delayFrom: 'crawlPlanner.delayFrom',
  maxCrawlDelay: 'crawlPlanner.maxCrawlDelay',
  crawlDelayPolicy: 'crawlPlanner.crawlDelayPolicy',
  connectTimeout: 'crawlPlanner.timeouts.connect',
  requestTimeout: 'crawlPlanner.timeouts.request',
  robotsTxtTimeout: 'crawlPlanner.timeouts.robotsTxt',
  maxPages: 'crawlPlanner.maxPages',
  reportFolder: 'crawlPlanner.reportFolder',
  /** Addresses for host names, curl's --resolve (docs/extension.md#settings). */
  resolve: 'crawlPlanner.resolve',
  /** robots.txt editor features (docs/robots-txt-editor.md §Settings). */
  robotsTxtDiagnostics: 'crawlPlanner.robotsTxt.diagnostics.enabled',
  robotsTxtHovers: 'crawlPlanner.robotsTxt.hovers.enabled',
  robotsTxtCodeLens: 'crawlPlanner.robotsTxt.codeLens.enabled',
  robotsTxtQuickFixes: 'crawlPlanner.robotsTxt.quickFixes.enabled',
  robotsTxtPagesForEstimate: 'crawlPlanner.robotsTxt.pagesForEstimate',
  /** Seeds from code: the CodeLens and the editor menu entry (docs/extension.md §Seeds from code). */
  seedsFromCodeEnabled: 'crawlPlanner.seedsFromCode.enabled',
} as const;

/** The language of files named robots.txt (package.json `contributes.languages`). */
export const ROBOTS_TXT_LANGUAGE_ID = 'robots-txt';

/** `source` of the robots.txt diagnostics. */
export const ROBOTS_TXT_DIAGNOSTIC_SOURCE = 'Crawl Planner';

/** A read-only document scheme for the live robots.txt in "Compare with live robots.txt". */
export const ROBOTS_LIVE_SCHEME = 'crawl-planner-robots-live';
