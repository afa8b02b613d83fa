/**
 * The planner's host side without vscode: it composes the planner's steps (the seeds, robots.txt, sitemaps,
 * simulation, calibration, the deadline; each in its own file, and the three that fetch or compute hold a
 * cancellable run), keeps the form, plans it (currentPlan.ts), saves and restores it (savedState.ts), and routes
 * every message from the webview, validated first, to the step that owns it (router.ts). It is what the
 * commands, the view, the plan report and seeds from code call. `plannerView.ts` wires it to a WebviewView;
 * tests drive it with fakes.
 */
import type { Simulation } from '../../core/simulate/types';
import type { Plan } from '../../core/plan';
import type {
  CalibrationState,
  PlanResultView,
  SeedsView,
  SimulationState,
  SitemapsState,
} from '../../shared/planner/viewModel';
import type { PlannerForm, RawForm } from '../../shared/planner/form';
import { parseWebviewMessage } from '../../shared/planner/messages';
import { formToRawKeeping } from '../../shared/planner/formFields';
import type { PlanComputation, SeedsCheck } from './planning';
import { CalibrationStep } from './calibrationStep';
import { CurrentPlan } from './currentPlan';
import { DeadlineStep } from './deadline';
import type { ControllerIo, PlannerExport, PlannerViewDeps, SeedFileRef, StepHost } from './deps';
import type { HeldCalibration } from './estimates';
import { RobotsStep } from './robotsStep';
import { ServersStep } from './serversStep';
import { route, type PlannerRoutes, type PlannerSteps } from './router';
import { defaultForm, SavedPlannerGate, savedPlanner, type RestoredPlanner } from './savedState';
import { SeedsSource } from './seedsSource';
import { SimulationStep } from './simulationStep';
import { SitemapsStep } from './sitemapsStep';
import { WebviewLink, type Post } from './webviewLink';

export class PlannerController {
  private form: PlannerForm;
  /** The fields as last typed (undefined before anything was). */
  private fields: RawForm | undefined;
  private disposed = false;
  private readonly subscriptions: Array<{ dispose(): void }> = [];
  private readonly webview: WebviewLink;
  private readonly gate: SavedPlannerGate;
  private readonly steps: PlannerSteps;
  private readonly plan: CurrentPlan;
  private readonly routes: PlannerRoutes;

  constructor(
    private readonly deps: PlannerViewDeps,
    io: ControllerIo,
  ) {
    const log = (message: string): void => deps.log(`Planner view: ${message}`);
    this.form = defaultForm(deps.getSettings());
    this.webview = new WebviewLink(log);
    this.gate = new SavedPlannerGate(io.store, log, (saved) => this.restore(saved));
    const host: StepHost = {
      deps,
      log,
      send: (message) => this.webview.send(message),
      notice: (level, message) => this.webview.notice(level, message),
      guard: (what, action) => this.webview.guard(what, action),
      form: () => this.form,
      dropped: () => this.steps.deadline.hosts,
      current: () => this.plan.get(),
      invalidate: () => this.plan.invalidate(),
      postPlan: () => this.plan.post(),
      save: () => this.save(),
      changeForm: (form) => this.changeForm(form),
      isDisposed: () => this.disposed,
    };
    const steps: PlannerSteps = {
      seeds: new SeedsSource(host),
      robots: new RobotsStep(host),
      servers: new ServersStep(host),
      sitemaps: new SitemapsStep(host),
      simulation: new SimulationStep(host),
      calibration: new CalibrationStep(host),
      deadline: new DeadlineStep(host, () => this.plan.number),
    };
    this.steps = steps;
    this.plan = new CurrentPlan(
      host,
      steps,
      () => this.gate.read(),
      () => steps.simulation.stale(),
    );
    this.routes = {
      ...steps,
      host,
      io,
      webview: this.webview,
      postState: () => this.postState(),
      keepFields: (fields) => {
        this.fields = fields;
        this.save();
      },
      setForm: (form) => this.setForm(form),
      currentSeeds: () => this.currentSeeds(),
      currentPlanJson: () => this.currentPlanJson(),
    };
    if (deps.onDidChangeSettings) this.subscriptions.push(deps.onDidChangeSettings(() => this.settingsChanged()));
    if (deps.onDidEndCrawl)
      this.subscriptions.push(deps.onDidEndCrawl((crawl, report) => steps.calibration.crawlEnded(crawl, report)));
  }

  // ------------------------------------------------------------------------------------------
  // The webview's life

  /** A (new) webview is showing the planner; nothing is posted until it says `ready`. */
  attach(post: Post): void {
    this.webview.attach(post);
  }

  /** A webview has said `ready` and been posted the state since it was attached. */
  get isReady(): boolean {
    return this.webview.isReady;
  }

  /** How many `ready` messages were answered so far (each with a state the webview received). */
  get answeredReadies(): number {
    return this.webview.answeredReadies;
  }

  /** Resolves once a `ready` is answered after `answeredReadies` was `count` (at once if one already was). */
  readyAnswered(count: number): Promise<void> {
    return this.webview.readyAnswered(count);
  }

  /** The webview is gone (its view was disposed). */
  detach(): void {
    this.webview.detach();
  }

  /** The view became visible again: re-post everything (a retained webview may have missed updates). */
  visible(): void {
    if (this.webview.isReady) this.postState();
  }

  /** Every message from the webview comes through here, validated before anything else happens. */
  receive(raw: unknown): void {
    if (this.disposed) return;
    const message = parseWebviewMessage(raw);
    if ('error' in message) {
      this.deps.log(`Planner view: ignored an invalid message: ${message.error}`);
      return;
    }
    this.gate.read();
    if (this.gate.restored) route(message, this.routes);
    else this.gate.hold(() => route(message, this.routes));
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.gate.dispose();
    const { robots, servers, simulation, sitemaps, seeds } = this.steps;
    for (const step of [robots, servers, simulation, sitemaps, seeds]) step.dispose();
    for (const s of this.subscriptions.splice(0)) s.dispose();
    this.plan.dispose();
    this.detach();
  }

  // ------------------------------------------------------------------------------------------
  // For commands and the plan report

  /** The current plan as the `estimate --json` document, or undefined when there is no plan. */
  currentPlanJson(): string | undefined {
    return this.plan.json();
  }

  /** The current plan and the seeds it was made from (null plan: none, `problems` say why). */
  currentPlan(): { plan: Plan | null; problems: PlanComputation['problems']; seeds: SeedsCheck } {
    const c = this.plan.get();
    return { plan: c.plan, problems: c.problems, seeds: c.seeds };
  }

  /** The current plan's seed URLs (valid, on hosts not dropped), in order, without repeats. */
  currentSeeds(): string[] {
    return [...new Set(this.plan.plannedSeeds().map((s) => s.url))];
  }

  /**
   * What Export Plan writes: the plan the sidebar shows (its form, seeds, robots.txt Crawl-delays, dropped
   * hosts) and the seeds it was made from; or why there is none.
   */
  exportInput(): PlannerExport | { problem: string } {
    return this.plan.exportInput();
  }

  /**
   * Sizes the seed hosts from their sitemaps as the sidebar's button does (the Size from Sitemaps command);
   * resolves to how it ended: `done` with the counts, or `error` (or `off` when it was stopped).
   */
  sizeFromSitemaps(changedSince = ''): Promise<SitemapsState> {
    this.gate.read();
    if (this.gate.restored) return this.steps.sitemaps.start(changedSince);
    return new Promise((resolve) => this.gate.whenRestored(() => resolve(this.steps.sitemaps.start(changedSince))));
  }

  /** The pages of the current plan (in total, over every host), or undefined when there is no plan. */
  currentPlanPages(): number | undefined {
    return this.plan.get().plan?.totalPages;
  }

  /** Fires after the current plan's pages change (a plan made, changed or gone). */
  onDidChangePlannedPages(listener: () => void): { dispose(): void } {
    return this.plan.onDidChangePlannedPages(listener);
  }

  /** Fires when the plan may have changed (the form, the seeds, robots.txt or a setting): ask `currentPlan()` again. */
  onDidChangePlan(listener: () => void): { dispose(): void } {
    return this.plan.onDidChangePlan(listener);
  }

  /** The form as the planner holds it. */
  currentForm(): PlannerForm {
    this.gate.read();
    return { ...this.form };
  }

  /** Where the seeds come from now, as the webview is sent it. */
  currentSeedsView(): SeedsView {
    this.gate.read();
    return this.steps.seeds.view();
  }

  // ------------------------------------------------------------------------------------------
  // Calibration and simulation (for the commands and the plan report)

  /** Where calibration stands now. */
  calibrationState(): CalibrationState {
    return this.steps.calibration.state();
  }

  /**
   * Plans with what a test crawl measured: the last one in this window (`crawl`), a report read from a file,
   * or nothing (`off`: the typed values again). Throws when `crawl` is asked for and no test crawl measured
   * anything yet. Returns what the plan now takes (the sidebar's view of it), or null when off.
   */
  useCalibration(source: 'crawl' | 'off' | HeldCalibration): PlanResultView['calibration'] {
    this.gate.read();
    this.steps.calibration.use(source);
    return this.plan.view().calibration;
  }

  /** The simulation of the current plan, once done (undefined while it runs, when off, or for an older plan). */
  currentSimulation(): { plan: Plan; simulation: Simulation } | undefined {
    return this.steps.simulation.resultFor(this.plan.get().plan);
  }

  /** Where the simulation stands. */
  simulationState(): SimulationState {
    return this.steps.simulation.state;
  }

  /** Fires when the simulation of the plan changes (started, done, failed, off). */
  onDidChangeSimulation(listener: () => void): { dispose(): void } {
    return this.steps.simulation.onDidChange(listener);
  }

  /**
   * Turns Simulate on with `options` (the saved runs and seed where not given) and simulates the current plan;
   * resolves with how it ended (`off`: there is no plan to simulate).
   */
  simulateNow(options: { runs?: number; seed?: number } = {}): Promise<SimulationState> {
    this.gate.read();
    return this.steps.simulation.now(options);
  }

  /** Turns Simulate off (the runs and seed are kept). */
  stopSimulating(): void {
    this.gate.read();
    this.steps.simulation.choose({ ...this.steps.simulation.settings, enabled: false }, false);
  }

  /** Makes `ref` the seeds' source (the Load Seeds from File command with an argument); resolves once it is read. */
  useSeedsFile(ref: SeedFileRef): Promise<void> {
    this.gate.read();
    return this.steps.seeds.useFile(ref);
  }

  /**
   * Seeds from code (docs/extension.md §Seeds from code): `text` becomes the box's seeds (a seeds file in use is
   * let go; undefined keeps the box's text), `form` sets those numbers of the form (the fields show them),
   * `notice` says so in the sidebar. The seeds go through the same check as typed ones (seed hygiene included).
   * Resolves once the plan is made.
   */
  async useSeedsText(text: string | undefined, form: Partial<PlannerForm> = {}, notice?: string): Promise<void> {
    this.gate.read();
    if (!this.gate.restored) await new Promise<void>((resolve) => this.gate.whenRestored(resolve));
    if (this.disposed) return;
    this.steps.seeds.replaceText(text);
    const next = { ...this.form, ...form };
    if (Object.keys(form).length > 0) this.fields = formToRawKeeping(next, this.fields);
    this.setForm(next);
    void this.webview.send({ type: 'seeds', seeds: this.steps.seeds.view() });
    if (this.fields !== undefined) void this.webview.send({ type: 'formSet', form: this.form, fields: this.fields });
    if (notice !== undefined) this.webview.notice('info', notice);
    this.plan.post();
  }

  // ------------------------------------------------------------------------------------------
  // The plan

  private restore(saved: RestoredPlanner | undefined): void {
    if (saved !== undefined) {
      this.form = saved.form;
      this.fields = saved.fields;
      if (saved.simulation !== undefined) this.steps.simulation.restore(saved.simulation);
      this.steps.deadline.restore(saved.dropHosts ?? []);
      this.steps.sitemaps.restore(saved.pagesUnknown ?? {});
      this.steps.seeds.restore(saved.seedsText, saved.seedsFile);
    }
    this.plan.invalidate();
  }

  private setForm(form: PlannerForm): void {
    this.form = form;
    this.plan.invalidate();
    this.save();
  }

  /** The extension changes the form: kept, saved, planned, and the webview shown the new fields. */
  private changeForm(form: PlannerForm): void {
    this.fields = formToRawKeeping(form, this.fields);
    this.setForm(form);
    this.webview.send({ type: 'formSet', form: this.form, fields: this.fields });
    this.plan.post();
  }

  private save(): void {
    this.gate.save(
      savedPlanner({
        form: this.form,
        fields: this.fields,
        seedsText: this.steps.seeds.text,
        seedsFile: this.steps.seeds.fileRef,
        simulation: this.steps.simulation.settings,
        dropHosts: this.steps.deadline.hosts,
        pagesUnknown: this.steps.sitemaps.unknownPages(),
      }),
    );
  }

  /** Everything the webview shows; resolves to whether the state message was delivered. */
  private postState(): Promise<boolean> {
    const state = this.webview.send({
      type: 'state',
      form: this.form,
      fields: this.fields ?? null,
      seeds: this.steps.seeds.view(),
      settings: this.deps.getSettings(),
      trusted: this.deps.isTrusted(),
      result: this.plan.view(),
      robots: this.steps.robots.state,
      servers: this.steps.servers.state,
      calibration: this.steps.calibration.state(),
      simulationSettings: this.steps.simulation.settings,
      simulation: this.steps.simulation.state,
      sitemaps: this.steps.sitemaps.state,
    });
    const crawl = this.steps.calibration.crawlResult;
    if (crawl) void this.webview.send({ type: 'crawlResult', crawl });
    return state;
  }

  private settingsChanged(): void {
    if (this.disposed) return;
    this.plan.invalidate();
    this.webview.send({ type: 'settings', settings: this.deps.getSettings(), trusted: this.deps.isTrusted() });
    this.plan.post();
    this.steps.servers.settingsChanged();
  }
}
