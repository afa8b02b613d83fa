/**
 * The planner's current plan: made from the form, the seeds, robots.txt's Crawl-delays, the hosts a sitemap sizing
 * could not count, the dropped hosts and the calibration when first asked after a change (each plan numbered: a deadline's options name the plan they
 * belong to), what the sidebar is sent of it, and who hears when it changes. A long list is planned after a
 * `planning` message has gone out.
 */
import type { PlanResultView } from '../../shared/planner/viewModel';
import { estimateDocument } from '../../core/plan';
import type { PlannerExport, StepHost } from './deps';
import { computePlan, effectiveUserAgent, planResultView, type PlanComputation } from './planning';
import type { PlannerSteps } from './router';

/** From this many seeds a plan is made after a `planning` message, so the view can say it is working. */
export const PLAN_LATER_SEEDS = 10_000;

/** The steps the plan is made from (and the simulation, whose result goes into its document). */
export type PlanSteps = Pick<PlannerSteps, 'seeds' | 'robots' | 'servers' | 'sitemaps' | 'calibration' | 'simulation'>;

export class CurrentPlan {
  private computation: PlanComputation | undefined;
  private resultView: PlanResultView | undefined;
  private planNumber = 0;
  private planLater = false;
  /** The current plan's pages as last computed (undefined: no plan), and who hears when they change. */
  private plannedPages: number | undefined;
  private readonly pagesListeners = new Set<() => void>();
  private readonly planListeners = new Set<() => void>();

  /**
   * The plan is made from `host`'s form and dropped hosts and from `steps`, after `readSaved` (the plan is of what
   * was saved); `stale` hears every change before the plan's listeners do.
   */
  constructor(
    private readonly host: StepHost,
    private readonly steps: PlanSteps,
    private readonly readSaved: () => void,
    private readonly stale: () => void,
  ) {}

  /** The number of the plan made last. */
  get number(): number {
    return this.planNumber;
  }

  /** The plan of what the planner holds now (made when first asked after a change). */
  get(): PlanComputation {
    this.readSaved();
    if (this.computation === undefined) {
      const { seeds, robots, servers, sitemaps, calibration } = this.steps;
      const checked = seeds.check();
      this.computation = computePlan(
        this.host.form(),
        checked,
        this.host.deps.getSettings(),
        robots.crawlDelays(),
        this.host.dropped(),
        calibration.using?.calibration,
        sitemaps.unknownPages(),
        servers.planAddresses(checked.hosts),
      );
      servers.planned(checked.hosts);
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

  /** What the sidebar is sent of the plan. */
  view(): PlanResultView {
    const c = this.get();
    this.resultView ??= planResultView(
      c,
      this.steps.robots.doneView(),
      this.host.form(),
      this.planNumber,
      this.steps.calibration.using,
    );
    return this.resultView;
  }

  /** What goes into the plan changed: it is made again when next asked, and who listens hears it. */
  invalidate(): void {
    this.computation = undefined;
    this.resultView = undefined;
    this.stale();
    if (this.planListeners.size > 0) this.planListeners.forEach((listener) => listener());
  }

  /**
   * Posts the plan for the current form and seeds. A long list is planned after a `planning` message has gone
   * out (the view says so meanwhile); requests that come in while one waits are answered by it.
   */
  post(): void {
    const defer = this.host.deps.defer;
    if (this.computation !== undefined || defer === undefined) {
      this.host.send({ type: 'planResult', result: this.view() });
      return;
    }
    const seeds = this.steps.seeds.check().validation.seeds.length;
    if (seeds < PLAN_LATER_SEEDS) {
      this.host.send({ type: 'planResult', result: this.view() });
      return;
    }
    this.host.send({ type: 'planning', seeds });
    if (this.planLater) return;
    this.planLater = true;
    defer(() => {
      this.planLater = false;
      if (this.host.isDisposed()) return;
      this.host.send({ type: 'planResult', result: this.view() });
    });
  }

  /** The plan as the `estimate --json` document (with its simulation, once done), or undefined without a plan. */
  json(): string | undefined {
    const c = this.get();
    if (c.plan === null) return undefined;
    const simulation = this.steps.simulation.resultFor(c.plan)?.simulation ?? null;
    // The CLI's document: `estimate --calibrate` gives its `calibration` (in the plan), `--simulate` its `simulation`.
    return JSON.stringify(
      { ...estimateDocument(c.plan, c.seeds.validation.invalid, c.seeds.validation), simulation },
      null,
      2,
    );
  }

  /** The valid seeds whose host is not dropped: the seeds the plan was made from. */
  plannedSeeds(): ReadonlyArray<{ url: string; host: string; origin: string }> {
    const seeds = this.get().seeds.validation.seeds;
    const hosts = this.host.dropped();
    if (hosts.length === 0) return seeds;
    const dropped = new Set(hosts);
    return seeds.filter((s) => !dropped.has(s.host));
  }

  /** What Export Plan writes: the plan and the seeds it was made from, or why there is none. */
  exportInput(): PlannerExport | { problem: string } {
    const c = this.get();
    if (c.plan === null) return { problem: c.problems[0]?.message ?? 'There is no plan yet.' };
    return {
      plan: c.plan,
      seeds: this.plannedSeeds().map((s) => ({ url: s.url, host: s.host })),
      productToken: effectiveUserAgent(this.host.form(), this.host.deps.getSettings()),
    };
  }

  /** Fires after the current plan's pages change (a plan made, changed or gone). */
  onDidChangePlannedPages(listener: () => void): { dispose(): void } {
    this.pagesListeners.add(listener);
    return { dispose: () => this.pagesListeners.delete(listener) };
  }

  /** Fires when the plan may have changed. */
  onDidChangePlan(listener: () => void): { dispose(): void } {
    this.planListeners.add(listener);
    return { dispose: () => this.planListeners.delete(listener) };
  }

  dispose(): void {
    this.pagesListeners.clear();
    this.planListeners.clear();
  }
}
