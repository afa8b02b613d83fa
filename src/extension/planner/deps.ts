/**
 * What the sidebar planner needs from the rest of the extension (everything that touches the network, files,
 * commands or settings is injected, so the planner holds no policy of its own and runs in node with fakes), and
 * what each of its steps may ask of the controller that composes them.
 */
import type { CrawlReport } from '../../core/crawl/crawlReport';
import type { Simulation } from '../../core/simulate/types';
import type { CrawlDelayPolicy, DelayFrom, Plan } from '../../core/plan';
import type { PolitenessBy } from '../../core/servers/units';
import type { ExportSeed } from '../../core/export/types';
import type { SitemapFileReport, SitemapSizing } from '../../core/sitemaps/sizing';
import type { RobotsInspection } from '../../net/robotsInspect';
import type { SeedAddresses } from '../../net/seedAddresses';
import type { NoticeLevel, CrawlResultView, PlannerViewSettings } from '../../shared/planner/viewModel';
import type { PlannerForm } from '../../shared/planner/form';
import type { HostToWebview } from '../../shared/planner/messages';
import type { HeldCalibration } from './estimates';
import type { PlanComputation } from './planning';
import type { PlannerStore } from './savedState';

/** What `inspectRobots` is given besides the URLs: the form's user agent and delay, the settings' policy. */
export interface InspectRobotsOptions {
  userAgent: string;
  configuredDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
  signal: AbortSignal;
}

/** What `sizeFromSitemaps` is given besides the URLs: the form's user agent and delay, the settings' policy. */
export interface SizeSitemapsOptions {
  /** The product token robots.txt groups are matched against (the header is the adapter's). */
  userAgent: string;
  delaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
  /** Also count the URLs whose lastmod is on or after this instant (epoch ms): a recrawl. */
  changedSince?: number;
  signal: AbortSignal;
  /** After each sitemap file: progress. */
  onFile(file: SitemapFileReport, host: string): void;
}

/** What `lookUpAddresses` is given besides the hosts. */
export interface LookUpAddressesOptions {
  signal: AbortSignal;
  /** After each host: how many are done, of how many. */
  onProgress(done: number, total: number): void;
}

/** The seed hosts' addresses for the plan, and the `crawlPlanner.resolve` entries that were ignored. */
export interface LookedUpAddresses {
  addresses: SeedAddresses;
  settingProblems: string[];
}

/** What the Export Plan command takes from the planner: exactly the plan it shows, and its seeds. */
export interface PlannerExport {
  plan: Plan;
  /** The seeds the plan was made from (dropped hosts' left out). */
  seeds: ExportSeed[];
  /** The product token in effect (the form's user agent, else the setting). */
  productToken: string;
}

/** What "Run test crawl" passes on: the form's user agent and delay, and a page cap. */
export interface TestCrawlRequest {
  userAgent: string;
  delaySeconds: number;
  delayFrom: DelayFrom;
  /** min(the plan's total pages, the `crawlPlanner.maxPages` setting). */
  maxPages: number;
  /** Each host's page budget from the plan (planBudgets: the one rule), cut to `maxPages` by the crawl. */
  pagesFor?: Record<string, number>;
  /** The form's politeness unit (docs/how-it-works.md#politeness-units); absent for host. */
  politenessBy?: PolitenessBy;
}

/** A seeds file: where it is (a URI's text, for the adapter) and its name for people. */
export interface SeedFileRef {
  uri: string;
  /** Its path in the workspace, or its full path. */
  label: string;
}

/** A seeds file read, or why not. */
export type SeedFileRead = { text: string; bytes: number; mtime: number } | { problem: string };

/** What the planner asks of files (src/extension/planner/seedFiles.ts does it with vscode). */
export interface SeedFiles {
  /** Asks for a file (an Open dialog); undefined when cancelled. */
  pick(): PromiseLike<SeedFileRef | undefined>;
  /** The files named seeds.txt in the workspace. */
  findWorkspaceSeeds(): PromiseLike<SeedFileRef[]>;
  /** Lets the user choose one of several seeds.txt files; undefined when cancelled. */
  choose(files: SeedFileRef[]): PromiseLike<SeedFileRef | undefined>;
  /** Reads a file as UTF-8 when it has at most `maxBytes`; else, or when it cannot be read, says why. */
  read(ref: SeedFileRef, maxBytes: number): PromiseLike<SeedFileRead>;
  /** Its size and modification time, or undefined when it is gone. */
  stat(ref: SeedFileRef): PromiseLike<{ bytes: number; mtime: number } | undefined>;
  /** Opens it in an editor, at a 1-based line when given. */
  open(ref: SeedFileRef, line?: number): PromiseLike<unknown>;
  /** Calls `changed` when the file changes on disk (or is created or deleted). */
  watch?(ref: SeedFileRef, changed: () => void): { dispose(): void };
}

/**
 * What the planner needs from the rest of the extension. Everything that touches the network, files,
 * commands or settings is injected, so the view holds no policy of its own.
 */
export interface PlannerViewDeps {
  /** The `crawlPlanner.*` settings the planner uses (read on every plan; cheap). */
  getSettings(): PlannerViewSettings;
  /** Workspace trust: robots.txt is fetched and test crawls run only in a trusted workspace. */
  isTrusted(): boolean;
  /** `inspectRobots` from src/net/robotsInspect.ts with the extension's cache; must honour `signal`. */
  inspectRobots(urls: string[], options: InspectRobotsOptions): PromiseLike<RobotsInspection>;
  /**
   * Looks the seed hosts up for "Check shared servers" (src/net/seedAddresses.ts: `crawlPlanner.resolve`
   * first, then DNS with a bound per host); must honour `signal`. Absent: the planner cannot check.
   */
  lookUpAddresses?(hosts: string[], options: LookUpAddressesOptions): PromiseLike<LookedUpAddresses>;
  /** What the lookups depend on in the settings (`crawlPlanner.resolve`), as a text: a change looks hosts up again. */
  addressSettings?(): string;
  /** Executes COMMANDS.runTestCrawl with these seeds and options. */
  runTestCrawl(seeds: string[], options: TestCrawlRequest): PromiseLike<unknown> | void;
  /** Executes COMMANDS.openRobotsTxt for an origin (`https://a.example`), optionally at a 1-based line. */
  openRobots(origin: string, line?: number): PromiseLike<unknown> | void;
  /** Opens the plan report (COMMANDS.openPlanReport). */
  openReport?(): PromiseLike<unknown> | void;
  /**
   * `sizeFromSitemaps` from src/net/sitemaps.ts with the extension's robots.txt cache, after the contact
   * question for real hosts; must honour `signal`. Absent: the planner cannot size (a notice says so).
   */
  sizeFromSitemaps?(urls: string[], options: SizeSitemapsOptions): PromiseLike<SitemapSizing>;
  /** Runs COMMANDS.exportPlan (on the planner's plan: it asks for the format and the folder). */
  exportPlan?(): PromiseLike<unknown> | void;
  /** Seeds files: the Open dialog, the workspace's seeds.txt, reading, opening. */
  files?: SeedFiles;
  /** Hosts that are local on purpose (the running demo hosts): their seeds get no local-address note. */
  expectedLocalHosts?(): ReadonlySet<string>;
  /** Runs `work` after the messages already posted have gone out (a long list is planned after `planning`). */
  defer?(work: () => void): void;
  /** One line to the extension's output channel. */
  log(message: string): void;
  /** Fires when a `crawlPlanner.*` setting (or trust) changes; the planner re-plans and re-posts. */
  onDidChangeSettings?(listener: () => void): { dispose(): void };
  /**
   * Fires when a test crawl in this window ends; the planner shows how it ended and what it did not follow,
   * and offers to plan with what it measured: `report` is the report the crawl wrote (in memory, the same
   * object as the file at `file`), read as `estimate --calibrate` reads the file (calibrationFromReport).
   */
  onDidEndCrawl?(listener: (crawl: CrawlResultView, report?: { report: CrawlReport; file?: string }) => void): {
    dispose(): void;
  };
  /** Asks for a crawl report file and reads it (undefined: cancelled); throws with a one-line reason when it is not one. */
  pickCalibrationReport?(): PromiseLike<HeldCalibration | undefined>;
  /**
   * Runs the simulation of `plan` off the extension's thread (src/extension/planner/simulateRunner.ts); stops
   * and rejects when `signal` aborts.
   */
  simulate?(plan: Plan, options: { runs: number; seed: number }, signal: AbortSignal): PromiseLike<Simulation>;
}

export interface ControllerIo {
  store: PlannerStore;
  writeClipboard(text: string): PromiseLike<void>;
}

/**
 * What a step of the planner (seeds, robots.txt, sitemaps, simulation, calibration) may ask of the controller
 * that composes them: the deps, the webview, the plan now, and the changes every step makes the same way.
 */
export interface StepHost {
  readonly deps: PlannerViewDeps;
  /** One line to the log, after "Planner view: ". */
  log(message: string): void;
  /** Posts `message` once the webview is ready; resolves to whether it was delivered. */
  send(message: HostToWebview): Promise<boolean>;
  /** A notice in the sidebar (an error is logged too). */
  notice(level: NoticeLevel, message: string): void;
  /** Runs `action`; a throw or a rejection becomes an error notice ("Could not <what>: …"). */
  guard(what: string, action: () => PromiseLike<unknown> | void): void;
  /** The form as the planner holds it. */
  form(): PlannerForm;
  /** Seed hosts left out of the plan (a deadline's drop option). */
  dropped(): readonly string[];
  /** The plan of the form and the seeds now (made when first asked after a change). */
  current(): PlanComputation;
  /** What goes into the plan changed: it is made again when next asked, and who listens hears it. */
  invalidate(): void;
  /** Posts the plan for the current form and seeds (a long list after a `planning` message). */
  postPlan(): void;
  /** Saves what the planner holds. */
  save(): void;
  /** The extension changes the form: kept, saved, planned, and the webview shown the new fields. */
  changeForm(form: PlannerForm): void;
  /** The planner is disposed: late results are dropped. */
  isDisposed(): boolean;
}
