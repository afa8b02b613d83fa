/**
 * The planner's host side without vscode: it validates every message from the webview, keeps the form and the
 * seeds (the box's text of any length, or a seeds file as the source) and saves them, plans them, runs the
 * robots.txt step through the injected `inspectRobots`, and posts results back. `plannerView.ts` wires it to a
 * WebviewView; tests drive it with fakes.
 */
import { calibrationFromReport } from '../../core/calibrate/fromCrawlReport';
import type { CrawlReport } from '../../core/crawl/crawlReport';
import { escapeInvisible } from '../../core/seedHygiene';
import type { Simulation } from '../../core/simulate/types';
import { applyPlanChange, estimateDocument, type CrawlDelayPolicy, type DelayFrom, type Plan } from '../../core/plan';
import type { ExportSeed } from '../../core/export/types';
import type { SitemapFileReport, SitemapSizing } from '../../core/sitemaps/sizing';
import { parseChangedSince } from '../../core/sitemaps/lastmod';
import { formatNumber } from '../../core/format/duration';
import { countSeedLines, seedLines } from '../../core/seeds';
import type { RobotsInspection } from '../../net/robotsInspect';
import { assertNever } from '../../shared/messageChecks';
import {
  DEFAULT_SIMULATION_SETTINGS,
  parseSimulationSettings,
  type CalibrationState,
  type CrawlResultView,
  type NoticeLevel,
  type PlannerViewSettings,
  type PlanResultView,
  type RobotsState,
  type RobotsView,
  type SeedFileView,
  type SeedsView,
  type SimulationSettings,
  type SimulationState,
  type SitemapsState,
} from '../../shared/planner/viewModel';
import {
  hostKeyProblem,
  parsePlannerForm,
  parseRawForm,
  type PlannerForm,
  type RawForm,
} from '../../shared/planner/form';
import {
  MAX_PAGES_BY_HOST,
  PLANNER_SEED_LIMITS,
  seedLinesText,
  seedsStoreProblem,
  seedsTextProblem,
  sizeText,
} from '../../shared/planner/limits';
import { parseWebviewMessage, type HostToWebview, type WebviewToHost } from '../../shared/planner/messages';
import { formToRawKeeping, readForm } from '../../shared/planner/formFields';
import {
  checkSeedText,
  computePlan,
  effectiveDelay,
  effectiveUserAgent,
  findOrigins,
  planResultView,
  unplannableSeeds,
  type PlanComputation,
  type SeedsCheck,
} from './planning';
import { deliver } from './deliver';
import { simulationView, type HeldCalibration } from './estimates';
import { crawlDelaysFrom, robotsTargets, toRobotsView } from './robotsResults';
import { pagesFromSizing, sitemapTargets, toSitemapsView } from './sitemapsResults';

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

/** What is saved between sessions: the form, the box's text (whatever its length) and the seeds file in use. */
export interface SavedPlanner {
  v: 2;
  form: PlannerForm;
  /** The fields as last typed (a half-typed number too); absent before anything was typed. */
  fields?: RawForm;
  seedsText: string;
  seedsFile?: SeedFileRef;
  /** The Simulate choice; absent: off, with the default runs and seed. */
  simulation?: SimulationSettings;
  /** Seed hosts dropped from the plan (a deadline's drop option), until they are restored. */
  dropHosts?: string[];
}

/** Where the planner is saved (workspace state, the box's long text in a file under the extension's storage). */
export interface PlannerStore {
  /** The saved value (unchecked), at once or when read. */
  load(): unknown;
  save(state: SavedPlanner): PromiseLike<void>;
}

export interface ControllerIo {
  store: PlannerStore;
  writeClipboard(text: string): PromiseLike<void>;
}

/** Sitemap sizing progress is posted at most this often. */
const SITEMAP_PROGRESS_MS = 200;

/** From this many seeds a plan is made after a `planning` message, so the view can say it is working. */
export const PLAN_LATER_SEEDS = 10_000;
/** Seed lines of a file shown in the sidebar. */
export const FILE_FIRST_LINES = 5;
const MAX_FIRST_LINE = 200;

/** The form before the user has typed anything: empty fields take the settings and the plan's defaults. */
export function defaultForm(settings: PlannerViewSettings): PlannerForm {
  return {
    pagesMode: 'total',
    pages: 1000,
    pagesByHost: {},
    rate: null,
    workers: null,
    machines: null,
    deadlineSeconds: null,
    delaySeconds: null,
    delayFrom: settings.delayFrom,
    latencySeconds: null,
    userAgent: '',
    useRobots: false,
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseFileRef(raw: unknown): SeedFileRef | undefined {
  if (
    !isRecord(raw) ||
    typeof raw.uri !== 'string' ||
    typeof raw.label !== 'string' ||
    raw.uri.length > 8192 ||
    raw.label.length > 4096
  )
    return undefined;
  return { uri: raw.uri, label: raw.label };
}

/** A saved list of hosts (at most MAX_PAGES_BY_HOST, each a host key), or undefined. */
function parseHosts(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw) || raw.length > MAX_PAGES_BY_HOST) return undefined;
  return raw.every((h) => typeof h === 'string' && hostKeyProblem(h) === undefined) ? (raw as string[]) : undefined;
}

/**
 * Reads a saved planner back: this version's, or the form an earlier version saved (its seeds inside it).
 * Anything damaged gives undefined: the defaults apply.
 */
export function parseSavedPlanner(raw: unknown): Omit<SavedPlanner, 'v'> | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.v === 2) {
    const form = parsePlannerForm(raw.form);
    if ('error' in form || typeof raw.seedsText !== 'string' || seedsStoreProblem(raw.seedsText) !== undefined)
      return undefined;
    const saved: Omit<SavedPlanner, 'v'> = { form, seedsText: raw.seedsText };
    const fields = parseRawForm(raw.fields);
    if (fields !== undefined) {
      saved.fields = fields;
      // Typed and kept, but the pause before planning never ended (the window went): these are the form.
      const typed = readForm(fields).form;
      if (typed !== undefined) saved.form = typed;
    }
    const seedsFile = parseFileRef(raw.seedsFile);
    if (seedsFile !== undefined) saved.seedsFile = seedsFile;
    if (raw.simulation !== undefined) {
      const simulation = parseSimulationSettings(raw.simulation);
      if (!('error' in simulation)) saved.simulation = simulation;
    }
    const dropHosts = parseHosts(raw.dropHosts);
    if (dropHosts !== undefined && dropHosts.length > 0) saved.dropHosts = dropHosts;
    return saved;
  }
  // Saved before the seeds left the form: { seeds, ...form }.
  const { seeds, ...rest } = raw;
  const form = parsePlannerForm(rest);
  if ('error' in form || typeof seeds !== 'string' || seedsStoreProblem(seeds) !== undefined) return undefined;
  return { form, seedsText: seeds };
}

/** A seeds file as the planner holds it: the check of its last good read, or why there is none. */
interface FileState {
  ref: SeedFileRef;
  loading: boolean;
  /** Bumped on every read: a read that is not the latest is dropped. */
  generation: number;
  bytes: number;
  mtime?: number;
  seedLines: number;
  firstLines: string[];
  check?: SeedsCheck;
  problem?: string;
  watcher?: { dispose(): void };
}

type Post = (message: HostToWebview) => PromiseLike<unknown> | void;

export class PlannerController {
  private form: PlannerForm;
  /** The fields as last typed (undefined before anything was). */
  private fields: RawForm | undefined;
  /** The seeds box's text, kept whatever its length (a seeds file in use leaves it as it was). */
  private seedsText = '';
  private file: FileState | undefined;
  /** The check of the box's text, for the text and the local hosts it was made with. */
  private textCheck: { text: string; local: string; check: SeedsCheck } | undefined;
  private computation: PlanComputation | undefined;
  private resultView: PlanResultView | undefined;
  private robots: RobotsState = { state: 'off' };
  private robotsView: RobotsView | undefined;
  private robotsRun = 0;
  private robotsAbort: AbortController | undefined;
  /** Seed hosts left out of the plan (a deadline's drop option), until they are restored. */
  private dropped: string[] = [];
  private sitemaps: SitemapsState = { state: 'off' };
  private sitemapsRun = 0;
  private sitemapsAbort: AbortController | undefined;
  /** Numbers each plan made (a deadline's options name the plan they belong to). */
  private planNumber = 0;
  private lastCrawl: CrawlResultView | undefined;
  /** What the last test crawl in this window measured, and the calibration the plan uses now (either may be absent). */
  private crawlCalibration: HeldCalibration | undefined;
  private calibration: HeldCalibration | undefined;
  private simSettings: SimulationSettings = { ...DEFAULT_SIMULATION_SETTINGS };
  private simulation: SimulationState = { state: 'off' };
  /** The simulation of the current plan, once it is done. */
  private simResult: { plan: Plan; simulation: Simulation } | undefined;
  /** Bumped when the plan or the settings change: a simulation that is not the latest is dropped. */
  private simRun = 0;
  private simAbort: AbortController | undefined;
  private simScheduled = false;
  private readonly simListeners = new Set<() => void>();
  private simWaiters: Array<(state: SimulationState) => void> = [];
  private post: Post | undefined;
  private ready = false;
  private disposed = false;
  /** Until the saved planner is read, messages wait here. */
  private restoreStarted = false;
  private restored = false;
  private waiting: WebviewToHost[] = [];
  private whenRestored: Array<() => void> = [];
  private planLater = false;
  /** How many `ready` messages were answered with a state the webview received. */
  private readyAnswers = 0;
  /** The current plan's pages as last computed (undefined: no plan), and who hears when they change. */
  private plannedPages: number | undefined;
  private readonly pagesListeners = new Set<() => void>();
  private readonly planListeners = new Set<() => void>();
  private readyWaiters: Array<() => void> = [];
  /** Who waits for the saved planner to be read (seeds from code must not be overwritten by it). */
  private restoreWaiters: Array<() => void> = [];
  private readonly subscriptions: Array<{ dispose(): void }> = [];

  constructor(
    private readonly deps: PlannerViewDeps,
    private readonly io: ControllerIo,
  ) {
    this.form = defaultForm(this.settings());
    if (deps.onDidChangeSettings) this.subscriptions.push(deps.onDidChangeSettings(() => this.settingsChanged()));
    if (deps.onDidEndCrawl)
      this.subscriptions.push(deps.onDidEndCrawl((crawl, report) => this.crawlEnded(crawl, report)));
  }

  /**
   * Reads what was saved, once, when the planner is first needed (a message, a command): not at activation,
   * which does no file I/O (a long seeds text and a seeds file are files).
   */
  private startRestore(): void {
    if (this.restoreStarted) return;
    this.restoreStarted = true;
    let saved: unknown;
    try {
      saved = this.io.store.load();
    } catch (err) {
      this.deps.log(`Planner view: could not read the saved planner: ${describe(err)}`);
    }
    if (isThenable(saved)) {
      Promise.resolve(saved).then(
        (value) => this.restore(value),
        (err: unknown) => {
          this.deps.log(`Planner view: could not read the saved planner: ${describe(err)}`);
          this.restore(undefined);
        },
      );
    } else {
      this.restore(saved);
    }
  }

  private restore(raw: unknown): void {
    if (this.disposed) return;
    const saved = parseSavedPlanner(raw);
    if (saved !== undefined) {
      this.form = saved.form;
      this.fields = saved.fields;
      this.seedsText = saved.seedsText;
      if (saved.simulation !== undefined) this.simSettings = saved.simulation;
      this.dropped = saved.dropHosts ?? [];
      // A file chosen while the saved planner was read (Load Seeds from File) is newer than the saved one.
      if (saved.seedsFile !== undefined && this.file === undefined) {
        this.startFile(saved.seedsFile);
        void this.readFile();
      }
    }
    this.restored = true;
    this.invalidate();
    for (const waiter of this.restoreWaiters.splice(0)) waiter();
    for (const message of this.waiting.splice(0)) this.handle(message);
    for (const then of this.whenRestored.splice(0)) then();
  }

  // ------------------------------------------------------------------------------------------
  // The webview's life

  /** A (new) webview is showing the planner; nothing is posted until it says `ready`. */
  attach(post: Post): void {
    this.post = post;
    this.ready = false;
  }

  /** A webview has said `ready` and been posted the state since it was attached. */
  get isReady(): boolean {
    return this.ready;
  }

  /** How many `ready` messages were answered so far (each with a state the webview received). */
  get answeredReadies(): number {
    return this.readyAnswers;
  }

  /** Resolves once a `ready` is answered after `answeredReadies` was `count` (at once if one already was). */
  readyAnswered(count: number): Promise<void> {
    if (this.readyAnswers > count) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** The webview is gone (its view was disposed). */
  detach(): void {
    this.post = undefined;
    this.ready = false;
  }

  /** The view became visible again: re-post everything (a retained webview may have missed updates). */
  visible(): void {
    if (this.ready) this.postState();
  }

  /** Every message from the webview comes through here, validated before anything else happens. */
  receive(raw: unknown): void {
    if (this.disposed) return;
    const message = parseWebviewMessage(raw);
    if ('error' in message) {
      this.deps.log(`Planner view: ignored an invalid message: ${message.error}`);
      return;
    }
    this.startRestore();
    if (this.restored) this.handle(message);
    else this.waiting.push(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.robotsAbort?.abort();
    this.simAbort?.abort();
    this.simListeners.clear();
    for (const waiter of this.simWaiters.splice(0)) waiter({ state: 'off' });
    this.sitemapsAbort?.abort();
    this.file?.watcher?.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.pagesListeners.clear();
    this.planListeners.clear();
    this.detach();
  }

  // ------------------------------------------------------------------------------------------
  // For commands and the plan report

  /** The current plan as the `estimate --json` document, or undefined when there is no plan. */
  currentPlanJson(): string | undefined {
    const c = this.current();
    if (c.plan === null) return undefined;
    const simulation = this.simResult?.plan === c.plan ? this.simResult.simulation : null;
    // The CLI's document: `estimate --calibrate` gives its `calibration` (in the plan), `--simulate` its `simulation`.
    return JSON.stringify(
      { ...estimateDocument(c.plan, c.seeds.validation.invalid, c.seeds.validation), simulation },
      null,
      2,
    );
  }

  /** The current plan and the seeds it was made from (null plan: none, `problems` say why). */
  currentPlan(): { plan: Plan | null; problems: PlanComputation['problems']; seeds: SeedsCheck } {
    const c = this.current();
    return { plan: c.plan, problems: c.problems, seeds: c.seeds };
  }

  /** The current plan's seed URLs (valid, on hosts not dropped), in order, without repeats. */
  currentSeeds(): string[] {
    return [...new Set(this.plannedSeeds().map((s) => s.url))];
  }

  /**
   * What Export Plan writes: the plan the sidebar shows (its form, seeds, robots.txt Crawl-delays, dropped
   * hosts) and the seeds it was made from; or why there is none.
   */
  exportInput(): PlannerExport | { problem: string } {
    const c = this.current();
    if (c.plan === null) return { problem: c.problems[0]?.message ?? 'There is no plan yet.' };
    return {
      plan: c.plan,
      seeds: this.plannedSeeds().map((s) => ({ url: s.url, host: s.host })),
      productToken: effectiveUserAgent(this.form, this.settings()),
    };
  }

  /**
   * Sizes the seed hosts from their sitemaps as the sidebar's button does (the Size from Sitemaps command);
   * resolves to how it ended: `done` with the counts, or `error` (or `off` when it was stopped).
   */
  sizeFromSitemaps(changedSince = ''): Promise<SitemapsState> {
    this.startRestore();
    if (this.restored) return this.startSitemaps(changedSince);
    return new Promise((resolve) => this.whenRestored.push(() => resolve(this.startSitemaps(changedSince))));
  }

  /** The valid seeds whose host is not dropped: the seeds the plan was made from. */
  private plannedSeeds(): ReadonlyArray<{ url: string; host: string; origin: string }> {
    const seeds = this.current().seeds.validation.seeds;
    if (this.dropped.length === 0) return seeds;
    const dropped = new Set(this.dropped);
    return seeds.filter((s) => !dropped.has(s.host));
  }

  /** The pages of the current plan (in total, over every host), or undefined when there is no plan. */
  currentPlanPages(): number | undefined {
    return this.current().plan?.totalPages;
  }

  /** Fires after the current plan's pages change (a plan made, changed or gone). */
  onDidChangePlannedPages(listener: () => void): { dispose(): void } {
    this.pagesListeners.add(listener);
    return { dispose: () => this.pagesListeners.delete(listener) };
  }

  /** Fires when the plan may have changed (the form, the seeds, robots.txt or a setting): ask `currentPlan()` again. */
  onDidChangePlan(listener: () => void): { dispose(): void } {
    this.planListeners.add(listener);
    return { dispose: () => this.planListeners.delete(listener) };
  }

  /** The form as the planner holds it. */
  currentForm(): PlannerForm {
    this.startRestore();
    return { ...this.form };
  }

  /** Where the seeds come from now, as the webview is sent it. */
  currentSeedsView(): SeedsView {
    this.startRestore();
    return this.seedsView();
  }

  // ------------------------------------------------------------------------------------------
  // Calibration and simulation (for the commands and the plan report)

  /** Where calibration stands now. */
  calibrationState(): CalibrationState {
    const crawl = this.crawlCalibration?.calibration.source;
    return {
      crawl:
        crawl === undefined
          ? null
          : { name: this.crawlCalibration!.label, pages: crawl.pages, requests: crawl.requests },
      using: this.calibration?.source ?? null,
    };
  }

  /**
   * Plans with what a test crawl measured: the last one in this window (`crawl`), a report read from a file,
   * or nothing (`off`: the typed values again). Throws when `crawl` is asked for and no test crawl measured
   * anything yet. Returns what the plan now takes (the sidebar's view of it), or null when off.
   */
  useCalibration(source: 'crawl' | 'off' | HeldCalibration): PlanResultView['calibration'] {
    this.startRestore();
    if (source === 'crawl' && this.crawlCalibration === undefined) {
      throw new Error(
        'no test crawl in this window has measured anything yet: run a test crawl first (or choose a crawl report)',
      );
    }
    const held = source === 'off' ? undefined : source === 'crawl' ? this.crawlCalibration : source;
    this.setCalibration(held);
    return this.currentView().calibration;
  }

  /** The simulation of the current plan, once done (undefined while it runs, when off, or for an older plan). */
  currentSimulation(): { plan: Plan; simulation: Simulation } | undefined {
    const result = this.simResult;
    return result !== undefined && result.plan === this.current().plan ? result : undefined;
  }

  /** Where the simulation stands. */
  simulationState(): SimulationState {
    return this.simulation;
  }

  /** Fires when the simulation of the plan changes (started, done, failed, off). */
  onDidChangeSimulation(listener: () => void): { dispose(): void } {
    this.simListeners.add(listener);
    return { dispose: () => this.simListeners.delete(listener) };
  }

  /**
   * Turns Simulate on with `options` (the saved runs and seed where not given) and simulates the current plan;
   * resolves with how it ended (`off`: there is no plan to simulate).
   */
  simulateNow(options: { runs?: number; seed?: number } = {}): Promise<SimulationState> {
    this.startRestore();
    if (this.deps.simulate === undefined) return Promise.reject(new Error('simulation is not available here'));
    const settings: SimulationSettings = {
      enabled: true,
      runs: options.runs ?? this.simSettings.runs,
      seed: options.seed ?? this.simSettings.seed,
    };
    const checked = parseSimulationSettings(settings);
    if ('error' in checked) return Promise.reject(new Error(checked.error));
    const done = new Promise<SimulationState>((resolve) => this.simWaiters.push(resolve));
    this.setSimulationSettings(checked, true);
    return done;
  }

  /** Turns Simulate off (the runs and seed are kept). */
  stopSimulating(): void {
    this.startRestore();
    this.setSimulationSettings({ ...this.simSettings, enabled: false }, false);
  }

  /** Makes `ref` the seeds' source (the Load Seeds from File command with an argument); resolves once it is read. */
  useSeedsFile(ref: SeedFileRef): Promise<void> {
    this.startRestore();
    return this.useFile(ref);
  }

  /**
   * Seeds from code (docs/extension.md §Seeds from code): `text` becomes the box's seeds (a seeds file in use is
   * let go; undefined keeps the box's text), `form` sets those numbers of the form (the fields show them),
   * `notice` says so in the sidebar. The seeds go through the same check as typed ones (seed hygiene included).
   * Resolves once the plan is made.
   */
  async useSeedsText(text: string | undefined, form: Partial<PlannerForm> = {}, notice?: string): Promise<void> {
    this.startRestore();
    if (!this.restored) await new Promise<void>((resolve) => this.restoreWaiters.push(resolve));
    if (this.disposed) return;
    if (this.file !== undefined) {
      this.file.watcher?.dispose();
      this.file = undefined;
    }
    if (text !== undefined) this.seedsText = text;
    const next = { ...this.form, ...form };
    if (Object.keys(form).length > 0) this.fields = formToRawKeeping(next, this.fields);
    this.setForm(next);
    void this.send({ type: 'seeds', seeds: this.seedsView() });
    if (this.fields !== undefined) void this.send({ type: 'formSet', form: this.form, fields: this.fields });
    if (notice !== undefined) this.notice('info', notice);
    this.postPlan();
  }

  // ------------------------------------------------------------------------------------------

  private handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        void this.postState().then((delivered) => {
          if (!delivered) return;
          this.readyAnswers++;
          for (const waiter of this.readyWaiters.splice(0)) waiter();
        });
        if (this.file !== undefined && !this.file.loading) void this.refreshFile();
        if (this.form.useRobots && this.robots.state === 'off') this.startRobots();
        break;
      case 'fieldsEdited':
        this.fields = message.fields;
        this.save();
        break;
      case 'formChanged': {
        const wasOn = this.form.useRobots;
        this.setForm(message.form);
        if (!this.form.useRobots && wasOn) this.stopRobots();
        this.postPlan();
        if (this.form.useRobots && !wasOn) this.startRobots();
        break;
      }
      case 'seedsChanged':
        if (message.text === this.seedsText) break;
        this.seedsText = message.text;
        this.save();
        if (this.file === undefined) {
          this.invalidate();
          this.postPlan();
        }
        break;
      case 'loadSeedsFile':
        this.guard('load a seeds file', async () => {
          const ref = await this.files().pick();
          if (ref !== undefined) await this.useFile(ref);
        });
        break;
      case 'useWorkspaceSeeds':
        this.guard('use seeds.txt', async () => {
          const found = await this.files().findWorkspaceSeeds();
          if (found.length === 0) {
            this.notice(
              'error',
              'No seeds.txt in this workspace: save a list of URLs, one per line, as seeds.txt in a workspace folder.',
            );
            return;
          }
          const ref = found.length === 1 ? found[0] : await this.files().choose(found);
          if (ref !== undefined) await this.useFile(ref);
        });
        break;
      case 'useSeedsText':
        if (this.file === undefined) break;
        this.file.watcher?.dispose();
        this.file = undefined;
        this.save();
        this.invalidate();
        this.send({ type: 'seeds', seeds: this.seedsView() });
        this.postPlan();
        break;
      case 'openSeedsFile': {
        const file = this.file;
        if (file === undefined) {
          this.deps.log('Planner view: openSeedsFile without a seeds file; ignored.');
          break;
        }
        this.guard('open the seeds file', () => this.files().open(file.ref, message.line));
        break;
      }
      case 'findOrigins': {
        const found = findOrigins(this.current().seeds.origins, message.query);
        this.send({ type: 'origins', query: message.query, origins: found.origins, total: found.total });
        break;
      }
      case 'openReport':
        this.guard('open the plan report', () => this.deps.openReport?.());
        break;
      case 'requestRobots':
        if (!this.form.useRobots) {
          this.deps.log('Planner view: robots.txt was requested with "Use robots.txt" off; ignored.');
          break;
        }
        this.startRobots();
        break;
      case 'runTestCrawl':
        this.runTestCrawl();
        break;
      case 'copyPlan':
        this.copyPlan();
        break;
      case 'openRobots':
        this.openRobots(message.origin, message.line);
        break;
      case 'useCalibration':
        if (message.source === 'crawl' && this.crawlCalibration === undefined) {
          this.notice('error', 'No test crawl in this window has measured anything yet: run a test crawl first.');
          break;
        }
        this.setCalibration(message.source === 'crawl' ? this.crawlCalibration : undefined);
        break;
      case 'chooseCalibrationReport':
        this.guard('read the crawl report', async () => {
          if (this.deps.pickCalibrationReport === undefined) throw new Error('reading a report is not available here');
          const held = await this.deps.pickCalibrationReport();
          if (held !== undefined) this.setCalibration(held);
        });
        break;
      case 'simulate':
        this.setSimulationSettings(message.settings, false);
        break;
      case 'sizeFromSitemaps':
        void this.startSitemaps(message.changedSince);
        break;
      case 'cancelSitemaps':
        this.cancelSitemaps();
        break;
      case 'applyDeadlineOption':
        this.applyDeadlineOption(message.plan, message.index);
        break;
      case 'restoreHosts':
        this.restoreHosts(message.host);
        break;
      case 'exportPlan':
        if (this.deps.exportPlan === undefined) this.notice('error', 'Export is not available here.');
        else this.guard('export the plan', () => this.deps.exportPlan!());
        break;
      default:
        assertNever(message);
    }
  }

  private files(): SeedFiles {
    if (this.deps.files === undefined) throw new Error('seeds files are not available here');
    return this.deps.files;
  }

  private settings(): PlannerViewSettings {
    return this.deps.getSettings();
  }

  /** The seeds to plan now: the file's last good read, or the box's text when it is within the box's limits. */
  private seedsCheck(): SeedsCheck {
    const file = this.file;
    if (file !== undefined) {
      if (file.loading) return unplannableSeeds(`Reading ${file.ref.label}…`);
      if (file.problem !== undefined || file.check === undefined)
        return unplannableSeeds(file.problem ?? `${file.ref.label} is not read yet.`);
      return file.check;
    }
    const local = [...(this.deps.expectedLocalHosts?.() ?? [])].join(' ');
    const cached = this.textCheck;
    if (cached !== undefined && cached.text === this.seedsText && cached.local === local) return cached.check;
    const problem = seedsTextProblem(this.seedsText);
    const check = problem !== undefined ? unplannableSeeds(problem) : checkSeedText(this.seedsText, this.localHosts());
    this.textCheck = { text: this.seedsText, local, check };
    return check;
  }

  private localHosts(): ReadonlySet<string> | undefined {
    return this.deps.expectedLocalHosts?.();
  }

  private current(): PlanComputation {
    this.startRestore();
    if (this.computation === undefined) {
      const useDelays = this.form.useRobots && this.robots.state === 'done' && this.robotsView !== undefined;
      this.computation = computePlan(
        this.form,
        this.seedsCheck(),
        this.settings(),
        useDelays ? crawlDelaysFrom(this.robotsView!) : {},
        this.dropped,
        this.calibration?.calibration,
      );
      this.planNumber++;
      this.resultView = undefined;
      const pages = this.computation.plan?.totalPages;
      if (pages !== this.plannedPages) {
        this.plannedPages = pages;
        // After this turn: a listener may ask for the pages again (robots.txt CodeLens refresh).
        if (this.pagesListeners.size > 0) queueMicrotask(() => this.pagesListeners.forEach((listener) => listener()));
      }
    }
    return this.computation;
  }

  private currentView(): PlanResultView {
    const c = this.current();
    this.resultView ??= planResultView(
      c,
      this.robots.state === 'done' ? this.robotsView : undefined,
      this.form,
      this.planNumber,
      this.calibration,
    );
    return this.resultView;
  }

  private invalidate(): void {
    this.computation = undefined;
    this.resultView = undefined;
    this.simulationStale();
    if (this.planListeners.size > 0) this.planListeners.forEach((listener) => listener());
  }

  private setForm(form: PlannerForm): void {
    this.form = form;
    this.invalidate();
    this.save();
  }

  private save(): void {
    const state: SavedPlanner = { v: 2, form: this.form, seedsText: this.seedsText };
    if (this.fields !== undefined) state.fields = this.fields;
    if (this.file !== undefined) state.seedsFile = this.file.ref;
    if (
      this.simSettings.enabled ||
      this.simSettings.runs !== DEFAULT_SIMULATION_SETTINGS.runs ||
      this.simSettings.seed !== DEFAULT_SIMULATION_SETTINGS.seed
    ) {
      state.simulation = { ...this.simSettings };
    }
    if (this.dropped.length > 0) state.dropHosts = [...this.dropped];
    let pending: PromiseLike<void>;
    try {
      pending = this.io.store.save(state);
    } catch (err) {
      pending = Promise.reject(err);
    }
    Promise.resolve(pending).catch((err: unknown) =>
      this.deps.log(`Planner view: could not save the planner: ${describe(err)}`),
    );
  }

  /**
   * Posts the plan for the current form and seeds. A long list is planned after a `planning` message has gone
   * out (the view says so meanwhile); requests that come in while one waits are answered by it.
   */
  private postPlan(): void {
    if (this.computation !== undefined || this.deps.defer === undefined) {
      this.send({ type: 'planResult', result: this.currentView() });
      return;
    }
    const seeds = this.seedsCheck().validation.seeds.length;
    if (seeds < PLAN_LATER_SEEDS) {
      this.send({ type: 'planResult', result: this.currentView() });
      return;
    }
    this.send({ type: 'planning', seeds });
    if (this.planLater) return;
    this.planLater = true;
    this.deps.defer(() => {
      this.planLater = false;
      if (this.disposed) return;
      this.send({ type: 'planResult', result: this.currentView() });
    });
  }

  /** Posts `message` once the webview is ready; resolves to whether it was delivered (a post that fails is logged). */
  private send(message: HostToWebview): Promise<boolean> {
    if (!this.ready || this.post === undefined) return Promise.resolve(false);
    return deliver(this.post, message, (why) => this.deps.log(`Planner view: ${why}`));
  }

  /** Everything the webview shows; resolves to whether the state message was delivered. */
  private postState(): Promise<boolean> {
    const state = this.send({
      type: 'state',
      form: this.form,
      fields: this.fields ?? null,
      seeds: this.seedsView(),
      settings: this.settings(),
      trusted: this.deps.isTrusted(),
      result: this.currentView(),
      robots: this.robots,
      calibration: this.calibrationState(),
      simulationSettings: this.simSettings,
      simulation: this.simulation,
      sitemaps: this.sitemaps,
    });
    if (this.lastCrawl) void this.send({ type: 'crawlResult', crawl: this.lastCrawl });
    return state;
  }

  private seedsView(): SeedsView {
    const file = this.file;
    if (file === undefined) return { source: 'text', text: this.seedsText };
    const view: SeedFileView = {
      label: file.ref.label,
      bytes: file.bytes,
      seedLines: file.seedLines,
      firstLines: file.firstLines,
    };
    if (file.loading) view.loading = true;
    if (file.problem !== undefined) view.problem = file.problem;
    return { source: 'file', file: view };
  }

  private crawlEnded(crawl: CrawlResultView, report: { report: CrawlReport; file?: string } | undefined): void {
    if (this.disposed) return;
    this.lastCrawl = crawl;
    this.send({ type: 'crawlResult', crawl });
    if (report === undefined) return;
    let calibration;
    try {
      calibration = calibrationFromReport(report.report, report.file);
    } catch (err) {
      // A crawl that got no page answered (stopped at once, every host unreachable) measured nothing.
      this.deps.log(`Planner view: ${crawl.name}: nothing to calibrate from: ${describe(err)}`);
      return;
    }
    this.crawlCalibration = { source: 'crawl', label: crawl.name, calibration };
    // Planning with the last test crawl's measurements: a newer test crawl replaces the older one's.
    if (this.calibration?.source === 'crawl') this.setCalibration(this.crawlCalibration);
    else this.send({ type: 'calibration', calibration: this.calibrationState() });
  }

  // ------------------------------------------------------------------------------------------
  // Calibration and simulation

  private setCalibration(held: HeldCalibration | undefined): void {
    this.calibration = held;
    this.invalidate();
    this.send({ type: 'calibration', calibration: this.calibrationState() });
    this.postPlan();
  }

  private setSimulationSettings(settings: SimulationSettings, force: boolean): void {
    const before = this.simSettings;
    const same = before.enabled === settings.enabled && before.runs === settings.runs && before.seed === settings.seed;
    this.simSettings = { ...settings };
    if (!same) this.save();
    if (same && !force && this.simulation.state !== 'error') return;
    this.simulationStale();
  }

  /** The plan or the Simulate choice changed: the simulation running (or shown) is for another plan. */
  private simulationStale(): void {
    this.simRun++;
    this.simAbort?.abort();
    this.simAbort = undefined;
    this.simResult = undefined;
    if (!this.simSettings.enabled || this.deps.simulate === undefined || this.disposed) {
      if (this.simulation.state !== 'off') this.setSimulation({ state: 'off' });
      return;
    }
    const { runs, seed } = this.simSettings;
    if (this.simulation.state !== 'running' || this.simulation.runs !== runs || this.simulation.seed !== seed)
      this.setSimulation({ state: 'running', runs, seed });
    if (this.simScheduled) return;
    // After this turn: a burst of changes (a robots.txt result and its plan) is simulated once.
    this.simScheduled = true;
    const start = (): void => {
      this.simScheduled = false;
      if (!this.disposed) this.startSimulation();
    };
    if (this.deps.defer !== undefined) this.deps.defer(start);
    else queueMicrotask(start);
  }

  private startSimulation(): void {
    if (!this.simSettings.enabled || this.deps.simulate === undefined) return;
    const plan = this.current().plan;
    if (plan === null) {
      this.setSimulation({ state: 'off' });
      return;
    }
    const run = this.simRun;
    const abort = new AbortController();
    this.simAbort = abort;
    const { runs, seed } = this.simSettings;
    const simulate = this.deps.simulate;
    started(() => simulate(plan, { runs, seed }, abort.signal)).then(
      (simulation) => {
        if (run !== this.simRun || this.disposed) return;
        this.simAbort = undefined;
        this.simResult = { plan, simulation };
        this.setSimulation({ state: 'done', simulation: simulationView(simulation, plan) });
      },
      (err: unknown) => {
        if (run !== this.simRun || this.disposed || abort.signal.aborted) return;
        this.simAbort = undefined;
        this.deps.log(`Planner view: the simulation failed: ${describe(err)}`);
        this.setSimulation({ state: 'error', message: `The simulation failed: ${describe(err)}` });
      },
    );
  }

  private setSimulation(state: SimulationState): void {
    this.simulation = state;
    this.send({ type: 'simulation', simulation: state });
    if (state.state !== 'running') for (const waiter of this.simWaiters.splice(0)) waiter(state);
    this.simListeners.forEach((listener) => listener());
  }

  private notice(level: NoticeLevel, message: string): void {
    if (level === 'error') this.deps.log(`Planner view: ${message}`);
    this.send({ type: 'notice', level, message });
  }

  private settingsChanged(): void {
    if (this.disposed) return;
    this.invalidate();
    this.send({ type: 'settings', settings: this.settings(), trusted: this.deps.isTrusted() });
    this.postPlan();
  }

  // ------------------------------------------------------------------------------------------
  // Seeds files

  /** Makes `ref` the source (watched for changes) and reads it. */
  private async useFile(ref: SeedFileRef): Promise<void> {
    this.startFile(ref);
    this.save();
    this.invalidate();
    this.send({ type: 'seeds', seeds: this.seedsView() });
    await this.readFile();
  }

  /** Makes `ref` the source, not read yet, watched for changes. */
  private startFile(ref: SeedFileRef): void {
    this.file?.watcher?.dispose();
    const file: FileState = { ref, loading: true, generation: 0, bytes: 0, seedLines: 0, firstLines: [] };
    this.file = file;
    file.watcher = this.deps.files?.watch?.(ref, () => {
      if (this.file === file) void this.readFile();
    });
  }

  /** Reads the seeds file again when it changed since it was read (the view was shown again). */
  private async refreshFile(): Promise<void> {
    const file = this.file;
    if (file === undefined || this.deps.files === undefined) return;
    const stat = await this.deps.files.stat(file.ref);
    if (this.file !== file) return;
    if (stat === undefined ? file.problem === undefined : stat.mtime !== file.mtime || stat.bytes !== file.bytes)
      await this.readFile();
  }

  /** Reads the seeds file and checks its lines; the latest read wins. Posts the new view and plan. */
  private async readFile(): Promise<void> {
    const file = this.file;
    if (file === undefined || this.deps.files === undefined) return;
    const generation = ++file.generation;
    let read: SeedFileRead;
    try {
      read = await this.deps.files.read(file.ref, PLANNER_SEED_LIMITS.fileBytes);
    } catch (err) {
      read = { problem: `Cannot read ${file.ref.label}: ${describe(err)}` };
    }
    if (this.file !== file || file.generation !== generation || this.disposed) return;
    file.loading = false;
    file.check = undefined;
    file.problem = undefined;
    if ('problem' in read) {
      file.problem = read.problem;
      file.bytes = 0;
      file.seedLines = 0;
      file.firstLines = [];
      file.mtime = undefined;
    } else {
      file.bytes = read.bytes;
      file.mtime = read.mtime;
      file.seedLines = countSeedLines(read.text);
      file.firstLines = [];
      for (const line of seedLines(read.text)) {
        file.firstLines.push(
          escapeInvisible(line.text.length > MAX_FIRST_LINE ? `${line.text.slice(0, MAX_FIRST_LINE)}…` : line.text),
        );
        if (file.firstLines.length >= FILE_FIRST_LINES) break;
      }
      if (file.seedLines > PLANNER_SEED_LIMITS.fileLines) {
        file.problem =
          `${file.ref.label} has ${seedLinesText(file.seedLines)} (${sizeText(read.bytes)}); the planner takes at most ${seedLinesText(PLANNER_SEED_LIMITS.fileLines)}. ` +
          'Split the list, or plan it with crawl-planner estimate --seeds-file.';
      } else if (file.seedLines === 0) {
        file.problem = `${file.ref.label} has no seed lines: one URL per line (blank lines and # comments are skipped).`;
      } else {
        file.check = checkSeedText(read.text, this.localHosts(), file.ref.label);
      }
    }
    this.invalidate();
    this.send({ type: 'seeds', seeds: this.seedsView() });
    this.postPlan();
  }

  // ------------------------------------------------------------------------------------------
  // robots.txt

  private stopRobots(): void {
    this.robotsRun++;
    this.robotsAbort?.abort();
    this.robotsAbort = undefined;
    this.robots = { state: 'off' };
    this.robotsView = undefined;
    this.invalidate();
  }

  private robotsFailed(message: string): void {
    this.robots = { state: 'error', message };
    this.robotsView = undefined;
    this.invalidate();
    this.send({ type: 'robotsError', message });
    this.postPlan();
  }

  private startRobots(): void {
    this.robotsRun++;
    this.robotsAbort?.abort();
    this.robotsAbort = undefined;
    if (!this.deps.isTrusted()) {
      this.robotsFailed('robots.txt is fetched only in a trusted workspace. Trust this workspace to check robots.txt.');
      return;
    }
    const { urls, omittedOrigins } = robotsTargets(this.current().seeds.validation.seeds);
    if (urls.length === 0) {
      this.robotsFailed('No valid seed URL to check robots.txt for.');
      return;
    }
    const settings = this.settings();
    const userAgent = effectiveUserAgent(this.form, settings);
    const run = this.robotsRun;
    const abort = new AbortController();
    this.robotsAbort = abort;
    const origins = new Set(urls.map((u) => new URL(u).origin)).size;
    this.robots = { state: 'loading', origins };
    this.send({ type: 'robotsPending', origins });
    started(() =>
      this.deps.inspectRobots(urls, {
        userAgent,
        configuredDelaySeconds: effectiveDelay(this.form, settings),
        crawlDelayPolicy: settings.crawlDelayPolicy,
        maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
        signal: abort.signal,
      }),
    ).then(
      (inspection) => {
        if (run !== this.robotsRun || this.disposed) return;
        this.robotsAbort = undefined;
        const view = toRobotsView(inspection, userAgent, omittedOrigins);
        this.robotsView = view;
        this.robots = { state: 'done', robots: view };
        this.invalidate();
        this.send({ type: 'robotsResult', robots: view });
        this.postPlan();
      },
      (err: unknown) => {
        if (run !== this.robotsRun || this.disposed) return;
        this.robotsAbort = undefined;
        this.deps.log(`Planner view: robots.txt check failed: ${describe(err)}`);
        this.robotsFailed(`robots.txt check failed: ${describe(err)}`);
      },
    );
  }

  // ------------------------------------------------------------------------------------------
  // Sitemaps

  private setSitemaps(state: SitemapsState): void {
    this.sitemaps = state;
    this.send({ type: 'sitemapsState', sitemaps: state });
  }

  private cancelSitemaps(): void {
    if (this.sitemapsAbort === undefined) return;
    this.sitemapsRun++;
    this.sitemapsAbort.abort();
    this.sitemapsAbort = undefined;
    this.setSitemaps({ state: 'off' });
    this.notice('info', 'Sitemap sizing stopped; the pages are as they were.');
  }

  /**
   * Sizes the seed hosts from their sitemaps (the first origins; dropped hosts' not) and makes each one's
   * count its pages: the form goes to `byHost`, each sized host gets its number (a host whose sitemaps could
   * not be read keeps what it had), and the webview is sent the new fields (`formSet`) and the counts.
   */
  private startSitemaps(changedSinceText: string): Promise<SitemapsState> {
    const failed = (message: string): Promise<SitemapsState> => {
      this.setSitemaps({ state: 'error', message });
      return Promise.resolve(this.sitemaps);
    };
    const sizeFromSitemaps = this.deps.sizeFromSitemaps;
    if (sizeFromSitemaps === undefined) return failed('Sitemap sizing is not available here.');
    if (!this.deps.isTrusted())
      return failed('Sitemaps are fetched only in a trusted workspace. Trust this workspace to size from sitemaps.');
    let changedSince: number | undefined;
    if (changedSinceText.trim() !== '') {
      const read = parseChangedSince(changedSinceText, Date.now());
      if ('problem' in read) return failed(`Changed since: ${read.problem}`);
      changedSince = read.ms;
    }
    const { urls, omittedOrigins } = sitemapTargets(this.current().seeds.validation.seeds, this.dropped);
    if (urls.length === 0) return failed('No valid seed URL to size from sitemaps.');
    this.sitemapsAbort?.abort();
    const run = ++this.sitemapsRun;
    const abort = new AbortController();
    this.sitemapsAbort = abort;
    const settings = this.settings();
    const userAgent = effectiveUserAgent(this.form, settings);
    const progress = { state: 'loading' as const, origins: urls.length, files: 0, urls: 0 };
    this.setSitemaps({ ...progress });
    let lastPost = 0;
    let pending: PromiseLike<SitemapSizing>;
    try {
      pending = sizeFromSitemaps(urls, {
        userAgent,
        delaySeconds: effectiveDelay(this.form, settings),
        crawlDelayPolicy: settings.crawlDelayPolicy,
        maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
        ...(changedSince !== undefined ? { changedSince } : {}),
        signal: abort.signal,
        onFile: (file) => {
          if (run !== this.sitemapsRun) return;
          progress.files++;
          if (file.format !== 'sitemapindex') progress.urls += file.entries;
          // A progress line at most every 200 ms: an index of a thousand files is a thousand callbacks.
          const now = Date.now();
          if (now - lastPost >= SITEMAP_PROGRESS_MS) {
            lastPost = now;
            this.setSitemaps({ ...progress });
          }
        },
      });
    } catch (err) {
      pending = Promise.reject(err);
    }
    return Promise.resolve(pending).then(
      (sizing) => {
        if (run !== this.sitemapsRun || this.disposed) return this.sitemaps;
        this.sitemapsAbort = undefined;
        this.sizedFromSitemaps(sizing, omittedOrigins);
        return this.sitemaps;
      },
      (err: unknown) => {
        if (run !== this.sitemapsRun || this.disposed) return this.sitemaps;
        this.sitemapsAbort = undefined;
        this.deps.log(`Planner view: sitemap sizing failed: ${describe(err)}`);
        this.setSitemaps({ state: 'error', message: `Sitemap sizing failed: ${describe(err)}` });
        return this.sitemaps;
      },
    );
  }

  private sizedFromSitemaps(sizing: SitemapSizing, omittedOrigins: number): void {
    const pages = pagesFromSizing(sizing);
    const sized = Object.keys(pages).length;
    if (sized > 0) {
      const pagesByHost = this.form.pagesMode === 'byHost' ? { ...this.form.pagesByHost, ...pages } : { ...pages };
      // Over the form's limit: the numbers of hosts that are no longer seeds make room first, then the oldest.
      const seedHosts = new Set(this.current().seeds.hosts);
      let over = Object.keys(pagesByHost).length - MAX_PAGES_BY_HOST;
      for (const any of [false, true]) {
        for (const host of Object.keys(pagesByHost)) {
          if (over <= 0 || Object.hasOwn(pages, host) || (!any && seedHosts.has(host))) continue;
          delete pagesByHost[host];
          over--;
        }
      }
      // From "in total", the hosts without a sitemap get none (as estimate --sitemaps); "per host" stays their number.
      const others =
        this.form.pagesMode === 'byHost' ? this.form.pages : this.form.pagesMode === 'perHost' ? this.form.pages : null;
      this.changeForm({ ...this.form, pagesMode: 'byHost', pagesByHost, pages: others });
    }
    for (const h of sizing.hosts)
      this.deps.log(`Planner view: sitemaps of ${h.host}: ${h.urls} URLs, ${h.files} files, ${h.errors.length} errors`);
    this.setSitemaps({ state: 'done', sitemaps: toSitemapsView(sizing, pages, omittedOrigins) });
    if (sized === 0) this.notice('error', 'No sitemap could be read: the pages are as they were.');
  }

  /** The extension changes the form: kept, saved, planned, and the webview shown the new fields. */
  private changeForm(form: PlannerForm): void {
    this.fields = formToRawKeeping(form, this.fields);
    this.setForm(form);
    this.send({ type: 'formSet', form: this.form, fields: this.fields });
    this.postPlan();
  }

  // ------------------------------------------------------------------------------------------
  // The deadline

  /**
   * Applies a deadline option to the form: workers, rate and machines to their fields, caps to the hosts'
   * own pages (`byHost`, every other host keeping its pages as applyPlanChange pins them), dropped hosts to
   * the list the sidebar shows with an undo. The plan that follows is the option's.
   */
  private applyDeadlineOption(planNumber: number, index: number): void {
    const c = this.current();
    const option = planNumber === this.planNumber ? c.plan?.deadline?.options[index] : undefined;
    if (option === undefined || c.input === null) {
      this.notice('error', 'The plan changed since these options were shown: choose one of the options shown now.');
      this.postPlan();
      return;
    }
    const change = option.change;
    const form: PlannerForm = { ...this.form };
    if (change.workers !== undefined) form.workers = change.workers;
    if (change.rate !== undefined) form.rate = change.rate;
    if (change.machines !== undefined) form.machines = change.machines;
    if (change.pagesByHost !== undefined) {
      const pages = applyPlanChange(c.input, { pagesByHost: change.pagesByHost }).pages;
      if (!('byHost' in pages)) throw new Error('a cap gives each host its pages');
      // In "by host" the form's numbers stay (those of hosts not planned now too); from a total or "per host",
      // the pinned pages replace numbers kept from an earlier "by host".
      const pagesByHost =
        this.form.pagesMode === 'byHost' ? { ...this.form.pagesByHost, ...pages.byHost } : { ...pages.byHost };
      if (Object.keys(pagesByHost).length > MAX_PAGES_BY_HOST) {
        this.notice(
          'error',
          `This option sets the pages of ${formatNumber(Object.keys(pagesByHost).length)} hosts; the form holds at most ${formatNumber(MAX_PAGES_BY_HOST)}. Use crawl-planner estimate with the option's flags (Copy plan as JSON: deadline.options).`,
        );
        return;
      }
      form.pagesMode = 'byHost';
      form.pagesByHost = pagesByHost;
      form.pages = pages.otherwise ?? 0;
    }
    if (change.dropHosts !== undefined) this.dropped = [...new Set([...this.dropped, ...change.dropHosts])];
    this.deps.log(`Planner view: applied the deadline option "${option.text}"`);
    this.changeForm(form);
    this.notice('info', `Applied: ${option.text}`);
  }

  private restoreHosts(host: string | undefined): void {
    const before = this.dropped.length;
    this.dropped = host === undefined ? [] : this.dropped.filter((h) => h !== host);
    if (this.dropped.length === before) return;
    this.save();
    this.invalidate();
    this.postPlan();
  }

  // ------------------------------------------------------------------------------------------
  // Buttons

  private runTestCrawl(): void {
    if (!this.deps.isTrusted()) {
      this.notice('error', 'Test crawls run only in a trusted workspace.');
      return;
    }
    const seeds = this.currentSeeds();
    if (seeds.length === 0) {
      this.notice('error', 'No valid seed URL to crawl.');
      return;
    }
    const settings = this.settings();
    const planned = this.current().plan;
    const options: TestCrawlRequest = {
      userAgent: effectiveUserAgent(this.form, settings),
      delaySeconds: effectiveDelay(this.form, settings),
      delayFrom: this.form.delayFrom,
      maxPages: Math.max(1, Math.min(settings.maxPages, planned?.totalPages ?? settings.maxPages)),
    };
    // A crawl of N pages reaches at most N seeds: the first N go (100,000 seeds would not be a test crawl).
    this.guard('run the test crawl', () => this.deps.runTestCrawl(seeds.slice(0, options.maxPages), options));
  }

  private copyPlan(): void {
    const json = this.currentPlanJson();
    if (json === undefined) {
      const why = this.current().problems[0]?.message ?? 'there is no plan yet.';
      this.notice('error', `Nothing to copy: ${why}`);
      return;
    }
    const hosts = this.current().plan?.hosts.length ?? 0;
    Promise.resolve(this.io.writeClipboard(json)).then(
      () => this.notice('info', `Plan copied as JSON (${hosts} ${hosts === 1 ? 'host' : 'hosts'}).`),
      (err: unknown) => this.notice('error', `Could not copy the plan: ${describe(err)}`),
    );
  }

  private openRobots(origin: string, line: number | undefined): void {
    // Only origins the planner itself shows: a message cannot make the extension fetch anything else.
    const known =
      this.current().seeds.origins.includes(origin) ||
      (this.robotsView?.origins.some((o) => o.origin === origin) ?? false);
    if (!known) {
      this.deps.log(`Planner view: ignored openRobots for ${origin}, which is not a seed origin.`);
      return;
    }
    if (!this.deps.isTrusted()) {
      this.notice('error', 'robots.txt is fetched only in a trusted workspace.');
      return;
    }
    this.guard('open robots.txt', () => this.deps.openRobots(origin, line));
  }

  private guard(what: string, action: () => PromiseLike<unknown> | void): void {
    try {
      Promise.resolve(action()).catch((err: unknown) => this.notice('error', `Could not ${what}: ${describe(err)}`));
    } catch (err) {
      this.notice('error', `Could not ${what}: ${describe(err)}`);
    }
  }
}

/** What `start` returns, as a promise; a throw becomes its rejection. */
function started<T>(start: () => PromiseLike<T>): Promise<T> {
  try {
    return Promise.resolve(start());
  } catch (err) {
    return Promise.reject(err);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function describe(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
