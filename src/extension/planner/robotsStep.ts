/**
 * The planner's robots.txt step ("Use robots.txt"): the seed origins' robots.txt read through the injected
 * `inspectRobots`, whose Crawl-delays feed the plan. A newer check supersedes the one running (aborted, its
 * result dropped); turning the step off does too.
 */
import type { RobotsState, RobotsView } from '../../shared/planner/viewModel';
import { CancellableRun, started } from './cancellableRun';
import type { StepHost } from './deps';
import { errorText } from './deliver';
import { effectiveDelay, effectiveUserAgent } from './planning';
import { crawlDelaysFrom, robotsTargets, toRobotsView } from './robotsResults';

export class RobotsStep {
  private robots: RobotsState = { state: 'off' };
  /** The last check's view (kept while a newer one loads: the origins it shows can still be opened). */
  private robotsView: RobotsView | undefined;
  private readonly run = new CancellableRun();

  constructor(private readonly host: StepHost) {}

  /** Where the step stands, as the webview is sent it. */
  get state(): RobotsState {
    return this.robots;
  }

  /** The finished check's view (undefined while off, loading or failed). */
  doneView(): RobotsView | undefined {
    return this.robots.state === 'done' ? this.robotsView : undefined;
  }

  /** The Crawl-delays the plan takes: the finished check's, while "Use robots.txt" is on. */
  crawlDelays(): Record<string, number> {
    const view = this.doneView();
    return this.host.form().useRobots && view !== undefined ? crawlDelaysFrom(view) : {};
  }

  /** Whether the last check shows `origin` (a message may open only origins the planner shows). */
  shows(origin: string): boolean {
    return this.robotsView?.origins.some((o) => o.origin === origin) ?? false;
  }

  /** The webview is (re)loaded: with "Use robots.txt" on and nothing checked yet, checks. */
  ready(): void {
    if (this.host.form().useRobots && this.robots.state === 'off') this.start();
  }

  /** The webview asks for a check again. */
  requested(): void {
    if (!this.host.form().useRobots) {
      this.host.log('robots.txt was requested with "Use robots.txt" off; ignored.');
      return;
    }
    this.start();
  }

  /** Checks the seed origins' robots.txt; the run before is superseded. */
  start(): void {
    this.run.cancel();
    if (!this.host.deps.isTrusted()) {
      this.failed('robots.txt is fetched only in a trusted workspace. Trust this workspace to check robots.txt.');
      return;
    }
    const { urls, omittedOrigins } = robotsTargets(this.host.current().seeds.validation.seeds);
    if (urls.length === 0) {
      this.failed('No valid seed URL to check robots.txt for.');
      return;
    }
    const form = this.host.form();
    const settings = this.host.deps.getSettings();
    const userAgent = effectiveUserAgent(form, settings);
    const run = this.run.start();
    const origins = new Set(urls.map((u) => new URL(u).origin)).size;
    this.robots = { state: 'loading', origins };
    this.host.send({ type: 'robotsPending', origins });
    started(() =>
      this.host.deps.inspectRobots(urls, {
        userAgent,
        configuredDelaySeconds: effectiveDelay(form, settings),
        crawlDelayPolicy: settings.crawlDelayPolicy,
        maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
        signal: run.signal,
      }),
    ).then(
      (inspection) => {
        if (!run.finish() || this.host.isDisposed()) return;
        const view = toRobotsView(inspection, userAgent, omittedOrigins);
        this.robotsView = view;
        this.robots = { state: 'done', robots: view };
        this.host.invalidate();
        this.host.send({ type: 'robotsResult', robots: view });
        this.host.postPlan();
      },
      (err: unknown) => {
        if (!run.finish() || this.host.isDisposed()) return;
        this.host.log(`robots.txt check failed: ${errorText(err)}`);
        this.failed(`robots.txt check failed: ${errorText(err)}`);
      },
    );
  }

  /** "Use robots.txt" turned off: the check running is stopped and the plan no longer takes its delays. */
  stop(): void {
    this.run.cancel();
    this.robots = { state: 'off' };
    this.robotsView = undefined;
    this.host.invalidate();
  }

  dispose(): void {
    this.run.dispose();
  }

  private failed(message: string): void {
    this.robots = { state: 'error', message };
    this.robotsView = undefined;
    this.host.invalidate();
    this.host.send({ type: 'robotsError', message });
    this.host.postPlan();
  }
}
