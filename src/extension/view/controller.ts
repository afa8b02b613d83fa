/**
 * The planner's host side without vscode: it validates every message from the webview, keeps the form
 * (and saves it to workspace state), plans it, runs the robots.txt step through the injected
 * `inspectRobots`, and posts results back. `plannerView.ts` wires it to a WebviewView; tests drive it
 * with fakes.
 */
import { estimateDocument, type CrawlDelayPolicy, type DelayFrom } from '../../core/plan';
import type { RobotsInspection } from '../../net/robotsInspect';
import {
  assertNever,
  parsePlannerForm,
  parseWebviewMessage,
  type CrawlResultView,
  type HostToWebview,
  type NoticeLevel,
  type PlannerForm,
  type PlannerViewSettings,
  type RobotsState,
  type RobotsView,
  type WebviewToHost,
} from '../../shared/protocol';
import { computePlan, effectiveDelay, effectiveUserAgent, type PlanComputation } from './planning';
import { crawlDelaysFrom, robotsTargets, toRobotsView } from './robotsResults';

/** What `inspectRobots` is given besides the URLs: the form's user agent and delay, the settings' policy. */
export interface InspectRobotsOptions {
  userAgent: string;
  configuredDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  maxCrawlDelaySeconds: number;
  signal: AbortSignal;
}

/** What "Run test crawl" passes on: the form's user agent and delay, and a page cap. */
export interface TestCrawlRequest {
  userAgent: string;
  delaySeconds: number;
  delayFrom: DelayFrom;
  /** min(the plan's total pages, the `crawlPlanner.maxPages` setting). */
  maxPages: number;
}

/**
 * What the planner needs from the rest of the extension. Everything that touches the network, commands
 * or settings is injected, so the view holds no policy of its own.
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
  /** One line to the extension's output channel. */
  log(message: string): void;
  /** Fires when a `crawlPlanner.*` setting (or trust) changes; the planner re-plans and re-posts. */
  onDidChangeSettings?(listener: () => void): { dispose(): void };
  /** Fires when a test crawl in this window ends; the planner shows how it ended and what it did not follow. */
  onDidEndCrawl?(listener: (crawl: CrawlResultView) => void): { dispose(): void };
}

/** Where the form is saved between sessions (the extension's workspaceState under one key). */
export interface FormStore {
  get(): unknown;
  update(form: PlannerForm): PromiseLike<void>;
}

export interface ControllerIo {
  store: FormStore;
  writeClipboard(text: string): PromiseLike<void>;
}

/** The form before the user has typed anything: empty fields take the settings and the plan's defaults. */
export function defaultForm(settings: PlannerViewSettings): PlannerForm {
  return {
    seeds: '',
    pagesMode: 'total',
    pages: 1000,
    rate: null,
    workers: null,
    delaySeconds: null,
    delayFrom: settings.delayFrom,
    latencySeconds: null,
    userAgent: '',
    useRobots: false,
  };
}

type Post = (message: HostToWebview) => PromiseLike<unknown> | void;

export class PlannerController {
  private form: PlannerForm;
  private computation: PlanComputation | undefined;
  private robots: RobotsState = { state: 'off' };
  private robotsView: RobotsView | undefined;
  private robotsRun = 0;
  private robotsAbort: AbortController | undefined;
  private lastCrawl: CrawlResultView | undefined;
  private post: Post | undefined;
  private ready = false;
  private disposed = false;
  /** How many `ready` messages were answered with a state the webview received. */
  private readyAnswers = 0;
  /** The current plan's pages as last computed (undefined: no plan), and who hears when they change. */
  private plannedPages: number | undefined;
  private readonly pagesListeners = new Set<() => void>();
  private readyWaiters: Array<() => void> = [];
  private readonly subscriptions: Array<{ dispose(): void }> = [];

  constructor(
    private readonly deps: PlannerViewDeps,
    private readonly io: ControllerIo,
  ) {
    const saved = parsePlannerForm(io.store.get());
    this.form = 'error' in saved ? defaultForm(this.settings()) : saved;
    if (deps.onDidChangeSettings) this.subscriptions.push(deps.onDidChangeSettings(() => this.settingsChanged()));
    if (deps.onDidEndCrawl) this.subscriptions.push(deps.onDidEndCrawl((crawl) => this.crawlEnded(crawl)));
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
    this.handle(message);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.robotsAbort?.abort();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.pagesListeners.clear();
    this.detach();
  }

  // ------------------------------------------------------------------------------------------
  // For commands

  /** The current plan as the `estimate --json` document, or undefined when there is no plan. */
  currentPlanJson(): string | undefined {
    const c = this.current();
    return c.plan === null ? undefined : JSON.stringify(estimateDocument(c.plan, c.invalid), null, 2);
  }

  /** The current valid seed URLs, in order, without repeats. */
  currentSeeds(): string[] {
    return [...new Set(this.current().seeds.map((s) => s.url))];
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

  /** The form as the planner holds it. */
  currentForm(): PlannerForm {
    return { ...this.form };
  }

  // ------------------------------------------------------------------------------------------

  private handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        if (message.form) this.setForm(message.form);
        void this.postState().then((delivered) => {
          if (!delivered) return;
          this.readyAnswers++;
          for (const waiter of this.readyWaiters.splice(0)) waiter();
        });
        if (this.form.useRobots && this.robots.state === 'off') this.startRobots();
        break;
      case 'formChanged': {
        const wasOn = this.form.useRobots;
        this.setForm(message.form);
        if (!this.form.useRobots && wasOn) this.stopRobots();
        this.send({ type: 'planResult', result: this.current().view });
        if (this.form.useRobots && !wasOn) this.startRobots();
        break;
      }
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
      default:
        assertNever(message);
    }
  }

  private settings(): PlannerViewSettings {
    return this.deps.getSettings();
  }

  private current(): PlanComputation {
    if (this.computation === undefined) {
      const useDelays = this.form.useRobots && this.robots.state === 'done' && this.robotsView !== undefined;
      this.computation = computePlan(this.form, this.settings(), useDelays ? crawlDelaysFrom(this.robotsView!) : {});
      const pages = this.computation.plan?.totalPages;
      if (pages !== this.plannedPages) {
        this.plannedPages = pages;
        // After this turn: a listener may ask for the pages again (robots.txt CodeLens refresh).
        if (this.pagesListeners.size > 0) queueMicrotask(() => this.pagesListeners.forEach((listener) => listener()));
      }
    }
    return this.computation;
  }

  private invalidate(): void {
    this.computation = undefined;
  }

  private setForm(form: PlannerForm): void {
    this.form = form;
    this.invalidate();
    Promise.resolve(this.io.store.update(form)).catch((err: unknown) => this.deps.log(`Planner view: could not save the form: ${describe(err)}`));
  }

  /** Posts `message` once the webview is ready; resolves to whether it was delivered (a post that fails is logged). */
  private send(message: HostToWebview): Promise<boolean> {
    if (!this.ready || this.post === undefined) return Promise.resolve(false);
    const failed = (err: unknown): false => {
      this.deps.log(`Planner view: could not post ${message.type}: ${describe(err)}`);
      return false;
    };
    try {
      // webview.postMessage resolves to false when the webview could not take it (it is not live).
      return Promise.resolve(this.post(message)).then((delivered) => delivered !== false, failed);
    } catch (err) {
      return Promise.resolve(failed(err));
    }
  }

  /** Everything the webview shows; resolves to whether the state message was delivered. */
  private postState(): Promise<boolean> {
    const state = this.send({
      type: 'state',
      form: this.form,
      settings: this.settings(),
      trusted: this.deps.isTrusted(),
      result: this.current().view,
      robots: this.robots,
    });
    if (this.lastCrawl) void this.send({ type: 'crawlResult', crawl: this.lastCrawl });
    return state;
  }

  private crawlEnded(crawl: CrawlResultView): void {
    if (this.disposed) return;
    this.lastCrawl = crawl;
    this.send({ type: 'crawlResult', crawl });
  }

  private notice(level: NoticeLevel, message: string): void {
    if (level === 'error') this.deps.log(`Planner view: ${message}`);
    this.send({ type: 'notice', level, message });
  }

  private settingsChanged(): void {
    if (this.disposed) return;
    this.invalidate();
    this.send({ type: 'settings', settings: this.settings(), trusted: this.deps.isTrusted() });
    this.send({ type: 'planResult', result: this.current().view });
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
    this.send({ type: 'planResult', result: this.current().view });
  }

  private startRobots(): void {
    this.robotsRun++;
    this.robotsAbort?.abort();
    this.robotsAbort = undefined;
    if (!this.deps.isTrusted()) {
      this.robotsFailed('robots.txt is fetched only in a trusted workspace. Trust this workspace to check robots.txt.');
      return;
    }
    const { urls, omittedOrigins } = robotsTargets(this.current().seeds);
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
    let pending: PromiseLike<RobotsInspection>;
    try {
      pending = this.deps.inspectRobots(urls, {
        userAgent,
        configuredDelaySeconds: effectiveDelay(this.form, settings),
        crawlDelayPolicy: settings.crawlDelayPolicy,
        maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
        signal: abort.signal,
      });
    } catch (err) {
      pending = Promise.reject(err);
    }
    Promise.resolve(pending).then(
      (inspection) => {
        if (run !== this.robotsRun || this.disposed) return;
        this.robotsAbort = undefined;
        const view = toRobotsView(inspection, userAgent, omittedOrigins);
        this.robotsView = view;
        this.robots = { state: 'done', robots: view };
        this.invalidate();
        this.send({ type: 'robotsResult', robots: view });
        this.send({ type: 'planResult', result: this.current().view });
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
    this.guard('run the test crawl', () => this.deps.runTestCrawl(seeds, options));
  }

  private copyPlan(): void {
    const json = this.currentPlanJson();
    if (json === undefined) {
      const why = this.current().view.problems[0]?.message ?? 'there is no plan yet.';
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
    const known = new Set([...this.current().view.origins, ...(this.robotsView?.origins.map((o) => o.origin) ?? [])]);
    if (!known.has(origin)) {
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

function describe(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}
