/**
 * The planner's calibration step: the end of a test crawl in this window (shown in the sidebar), what it
 * measured, and what the plan is calibrated with now: the last test crawl's measurements, a crawl report read
 * from a file, or nothing (the typed values).
 */
import { calibrationFromReport } from '../../core/calibrate/fromCrawlReport';
import type { CrawlReport } from '../../core/crawl/crawlReport';
import type { CalibrationState, CrawlResultView } from '../../shared/planner/viewModel';
import type { StepHost } from './deps';
import { errorText } from './deliver';
import type { HeldCalibration } from './estimates';

export class CalibrationStep {
  private lastCrawl: CrawlResultView | undefined;
  /** What the last test crawl in this window measured (absent: none did). */
  private crawlCalibration: HeldCalibration | undefined;
  /** The calibration the plan uses now (absent: the typed values). */
  private calibration: HeldCalibration | undefined;

  constructor(private readonly host: StepHost) {}

  /** The calibration the plan uses now. */
  get using(): HeldCalibration | undefined {
    return this.calibration;
  }

  /** How the last test crawl in this window ended (undefined: none ended yet). */
  get crawlResult(): CrawlResultView | undefined {
    return this.lastCrawl;
  }

  /** Where calibration stands now. */
  state(): CalibrationState {
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
   * Plans with what a test crawl measured: the last one in this window (`crawl`), a report read from a file, or
   * nothing (`off`). Throws when `crawl` is asked for and no test crawl measured anything yet.
   */
  use(source: 'crawl' | 'off' | HeldCalibration): void {
    if (source === 'crawl' && this.crawlCalibration === undefined) {
      throw new Error(
        'no test crawl in this window has measured anything yet: run a test crawl first (or choose a crawl report)',
      );
    }
    this.set(source === 'off' ? undefined : source === 'crawl' ? this.crawlCalibration : source);
  }

  /** The sidebar's choice: the last test crawl's measurements, or the typed values (a notice when none measured). */
  choose(source: 'crawl' | 'off'): void {
    if (source === 'crawl' && this.crawlCalibration === undefined) {
      this.host.notice('error', 'No test crawl in this window has measured anything yet: run a test crawl first.');
      return;
    }
    this.set(source === 'crawl' ? this.crawlCalibration : undefined);
  }

  /** Asks for a crawl report and plans with what it measured. */
  async chooseReport(): Promise<void> {
    const { deps } = this.host;
    if (deps.pickCalibrationReport === undefined) throw new Error('reading a report is not available here');
    const held = await deps.pickCalibrationReport();
    if (held !== undefined) this.set(held);
  }

  /** A test crawl in this window ended: shown, and what it measured is offered (and used, when the last one's was). */
  crawlEnded(crawl: CrawlResultView, report: { report: CrawlReport; file?: string } | undefined): void {
    if (this.host.isDisposed()) return;
    this.lastCrawl = crawl;
    this.host.send({ type: 'crawlResult', crawl });
    if (report === undefined) return;
    let calibration;
    try {
      calibration = calibrationFromReport(report.report, report.file);
    } catch (err) {
      // A crawl that got no page answered (stopped at once, every host unreachable) measured nothing.
      this.host.log(`${crawl.name}: nothing to calibrate from: ${errorText(err)}`);
      return;
    }
    this.crawlCalibration = { source: 'crawl', label: crawl.name, calibration };
    // Planning with the last test crawl's measurements: a newer test crawl replaces the older one's.
    if (this.calibration?.source === 'crawl') this.set(this.crawlCalibration);
    else this.host.send({ type: 'calibration', calibration: this.state() });
  }

  private set(held: HeldCalibration | undefined): void {
    this.calibration = held;
    this.host.invalidate();
    this.host.send({ type: 'calibration', calibration: this.state() });
    this.host.postPlan();
  }
}
