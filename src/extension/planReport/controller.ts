/**
 * The plan report's host side without vscode: it validates every message from the report webview, keeps a
 * ReportTable of the planner's current plan (rebuilt when the plan changes), answers row requests from it,
 * and exports. `panel.ts` wires it to a WebviewPanel; tests drive it with fakes.
 */
import { formatNumber } from '../../core/format/duration';
import { jsonPieces } from '../../core/format/json';
import { estimateDocument, type Plan } from '../../core/plan';
import type { SeedsCheck } from '../planner/planning';
import { assertNever } from '../../shared/messageChecks';
import type { NoticeLevel } from '../../shared/planner/viewModel';
import {
  parseReportMessage,
  type HostToReport,
  type ReportQuery,
  type ReportToHost,
} from '../../shared/planReport/messages';
import { deliver } from '../planner/deliver';
import { reportView, ReportTable } from './table';
import type { Simulation } from '../../core/simulate/types';
import type { SimulationState } from '../../shared/planner/viewModel';
import { reportSimulationView, ReportTimeline, simulationStatusText } from './timeline';

/** What the report needs from the planner. */
export interface ReportSource {
  currentPlan(): { plan: Plan | null; problems: ReadonlyArray<{ field: string; message: string }>; seeds: SeedsCheck };
  /** Where the seeds come from, for the header: "the seeds box" or a file's name. */
  seedsFrom(): string;
  /** The simulation of the current plan, once done. */
  currentSimulation?(): { plan: Plan; simulation: Simulation } | undefined;
  /** Where the planner's simulation stands (for the section's line while there is none to draw). */
  simulationState?(): SimulationState;
}

export interface ReportControllerDeps {
  source: ReportSource;
  /**
   * Asks where to save and writes the pieces there; resolves to where it went (for the notice), or undefined
   * when the user cancelled.
   */
  save(format: 'csv' | 'json', pieces: Iterable<string>): PromiseLike<string | undefined>;
  log(message: string): void;
}

type Post = (message: HostToReport) => PromiseLike<unknown> | void;

/** A JSON document in pieces (100,000 hosts: about 40 MB, never one string), with a final newline. */
function* jsonLines(value: unknown): Generator<string> {
  yield* jsonPieces(value);
  yield '\n';
}

export class ReportController {
  private post: Post | undefined;
  private ready = false;
  /** Bumped for every plan the report is sent; row requests for another plan are answered with nothing. */
  private planNumber = 0;
  private table: ReportTable | undefined;
  private tablePlan: Plan | null = null;
  private readyAnswers = 0;
  private readyWaiters: Array<() => void> = [];
  /** Numbers the simulations sent for a plan; the timeline of the one shown. */
  private simulationNumber = 0;
  private timeline: ReportTimeline | undefined;
  /** What the last `simulation` message said (plan, simulation, status), so that the same is not sent twice. */
  private simulationSent = '';

  constructor(private readonly deps: ReportControllerDeps) {}

  attach(post: Post): void {
    this.post = post;
    this.ready = false;
  }

  detach(): void {
    this.post = undefined;
    this.ready = false;
  }

  /** How many `ready` messages were answered with a report. */
  get answeredReadies(): number {
    return this.readyAnswers;
  }

  /** Resolves once a `ready` is answered after `answeredReadies` was `count`. */
  readyAnswered(count: number): Promise<void> {
    if (this.readyAnswers > count) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** The number of the plan the report shows (each new plan gets the next). */
  get plan(): number {
    return this.planNumber;
  }

  /** The planner's plan may have changed: send the new one (when it did). */
  planChanged(): void {
    if (!this.ready) return;
    const { plan } = this.deps.source.currentPlan();
    if (plan === this.tablePlan && this.table !== undefined) {
      // The same plan: its simulation may have ended meanwhile.
      this.postSimulation();
      return;
    }
    void this.postReport();
  }

  /** The planner's simulation changed (started, done, failed, off): send it (for the plan shown). */
  simulationChanged(): void {
    if (!this.ready) return;
    this.postSimulation();
  }

  /** The simulation the report shows (its number and timeline), or undefined. */
  get shownSimulation(): { number: number; hosts: number } | undefined {
    return this.timeline === undefined ? undefined : { number: this.simulationNumber, hosts: this.timeline.total };
  }

  receive(raw: unknown): void {
    const message = parseReportMessage(raw);
    if ('error' in message) {
      this.deps.log(`Plan report: ignored an invalid message: ${message.error}`);
      return;
    }
    this.handle(message);
  }

  private handle(message: ReportToHost): void {
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.simulationSent = '';
        void this.postReport().then((delivered) => {
          if (!delivered) return;
          this.readyAnswers++;
          for (const waiter of this.readyWaiters.splice(0)) waiter();
        });
        break;
      case 'rows': {
        if (message.plan !== this.planNumber || this.table === undefined) {
          void this.send({
            type: 'rows',
            plan: message.plan,
            request: message.request,
            total: 0,
            offset: message.offset,
            rows: [],
          });
          break;
        }
        const { total, rows } = this.table.rows(message.query, message.offset, message.count);
        void this.send({
          type: 'rows',
          plan: this.planNumber,
          request: message.request,
          total,
          offset: message.offset,
          rows,
        });
        break;
      }
      case 'export':
        this.export(message.format, message.query);
        break;
      case 'timeline': {
        const timeline = this.timeline;
        const current =
          message.plan === this.planNumber && message.simulation === this.simulationNumber && timeline !== undefined;
        void this.send({
          type: 'timeline',
          plan: message.plan,
          simulation: message.simulation,
          request: message.request,
          total: current ? timeline.total : 0,
          offset: message.offset,
          hosts: current ? timeline.rows(message.offset, message.count) : [],
        });
        break;
      }
      default:
        assertNever(message);
    }
  }

  private currentTable(): ReportTable | undefined {
    const { plan } = this.deps.source.currentPlan();
    if (plan !== this.tablePlan || (plan !== null && this.table === undefined)) {
      this.tablePlan = plan;
      this.table = plan === null ? undefined : new ReportTable(plan);
    }
    return this.table;
  }

  private postReport(): Promise<boolean> {
    const current = this.deps.source.currentPlan();
    const table = this.currentTable();
    this.planNumber++;
    this.timeline = undefined;
    const sent = this.send({
      type: 'report',
      plan: this.planNumber,
      report: table === undefined ? null : reportView(table.plan, this.deps.source.seedsFrom()),
      problems: current.problems.map((p) => p.message),
    });
    this.postSimulation();
    return sent;
  }

  /**
   * The simulation of the plan shown: its band and a new timeline, or why there is none. Sent when it differs
   * from what was last sent (a plan that did not change sends nothing); never when the source has no simulation.
   */
  private postSimulation(): void {
    if (this.deps.source.currentSimulation === undefined) return;
    const table = this.table;
    const sim = this.deps.source.currentSimulation();
    let message: HostToReport;
    if (table === undefined || sim === undefined || sim.plan !== table.plan) {
      this.timeline = undefined;
      const state = this.deps.source.simulationState?.() ?? { state: 'off' };
      message = {
        type: 'simulation',
        plan: this.planNumber,
        simulation: null,
        status: table === undefined ? '' : simulationStatusText(state),
      };
    } else {
      if (this.timeline?.simulation !== sim.simulation) {
        this.simulationNumber++;
        this.timeline = new ReportTimeline(sim.simulation, table.plan.bindingHost);
      }
      message = {
        type: 'simulation',
        plan: this.planNumber,
        simulation: reportSimulationView(sim.simulation, table.plan, this.simulationNumber),
        status: '',
      };
    }
    const key = `${message.plan}|${message.simulation?.number ?? '-'}|${message.status}`;
    if (key === this.simulationSent) return;
    this.simulationSent = key;
    void this.send(message);
  }

  private export(format: 'csv' | 'json', query: ReportQuery): void {
    const table = this.currentTable();
    if (table === undefined) {
      this.notice('error', 'Nothing to export: there is no plan.');
      return;
    }
    const seeds = this.deps.source.currentPlan().seeds.validation;
    const pieces: Iterable<string> =
      format === 'csv' ? table.csv(query) : jsonLines(estimateDocument(table.plan, seeds.invalid, seeds));
    const rows = format === 'csv' ? table.view(query).length : table.plan.hosts.length;
    Promise.resolve(this.deps.save(format, pieces)).then(
      (where) => {
        if (where !== undefined)
          this.notice(
            'info',
            `Saved ${formatNumber(rows)} ${rows === 1 ? 'host' : 'hosts'} as ${format.toUpperCase()}: ${where}`,
          );
      },
      (err: unknown) => this.notice('error', `Could not export: ${err instanceof Error ? err.message : String(err)}`),
    );
  }

  private notice(level: NoticeLevel, message: string): void {
    if (level === 'error') this.deps.log(`Plan report: ${message}`);
    void this.send({ type: 'notice', level, message });
  }

  private send(message: HostToReport): Promise<boolean> {
    if (!this.ready || this.post === undefined) return Promise.resolve(false);
    return deliver(this.post, message, (why) => this.deps.log(`Plan report: ${why}`));
  }
}
