/**
 * The planner's message router: each message from the webview (already checked by parseWebviewMessage) goes to
 * the step that owns it (seeds, robots.txt, sitemaps, simulation, calibration) or to the planner's own changes
 * of the form; actions that may fail are guarded, so a failure is a notice, never a throw.
 */
import { assertNever } from '../../shared/messageChecks';
import type { PlannerForm, RawForm } from '../../shared/planner/form';
import type { WebviewToHost } from '../../shared/planner/messages';
import { copyPlan, openRobots, runTestCrawl } from './buttons';
import type { CalibrationStep } from './calibrationStep';
import type { DeadlineStep } from './deadline';
import type { ControllerIo, StepHost } from './deps';
import { findOrigins } from './planning';
import type { RobotsStep } from './robotsStep';
import type { ServersStep } from './serversStep';
import type { SeedsSource } from './seedsSource';
import type { SimulationStep } from './simulationStep';
import type { SitemapsStep } from './sitemapsStep';
import type { WebviewLink } from './webviewLink';

/** The planner's steps, each in a file of its own. */
export interface PlannerSteps {
  readonly seeds: SeedsSource;
  readonly robots: RobotsStep;
  readonly servers: ServersStep;
  readonly sitemaps: SitemapsStep;
  readonly simulation: SimulationStep;
  readonly calibration: CalibrationStep;
  readonly deadline: DeadlineStep;
}

/** What the router hands messages to: the steps, the webview, and the planner's own changes. */
export interface PlannerRoutes extends PlannerSteps {
  readonly host: StepHost;
  readonly io: ControllerIo;
  readonly webview: WebviewLink;
  /** Posts everything the webview shows; resolves to whether the state message was delivered. */
  postState(): Promise<boolean>;
  /** Keeps the fields as typed (and saves them). */
  keepFields(fields: RawForm): void;
  /** The form from the webview: kept, saved, and planned when next asked. */
  setForm(form: PlannerForm): void;
  /** The current plan's seed URLs, in order, without repeats. */
  currentSeeds(): string[];
  /** The current plan as the `estimate --json` document, or undefined without a plan. */
  currentPlanJson(): string | undefined;
}

/** Hands `message` to the step that owns it. */
export function route(message: WebviewToHost, to: PlannerRoutes): void {
  const { host, webview, seeds, robots, servers } = to;
  switch (message.type) {
    case 'ready':
      webview.answerReady(() => to.postState());
      seeds.shown();
      robots.ready();
      servers.ready();
      break;
    case 'fieldsEdited':
      to.keepFields(message.fields);
      break;
    case 'formChanged': {
      const was = host.form();
      to.setForm(message.form);
      const now = host.form();
      if (!now.useRobots && was.useRobots) robots.stop();
      if (!now.checkServers && was.checkServers) servers.stop();
      host.postPlan();
      if (now.useRobots && !was.useRobots) robots.start();
      if (now.checkServers && !was.checkServers) servers.start();
      break;
    }
    case 'seedsChanged':
      seeds.typed(message.text);
      break;
    case 'loadSeedsFile':
      host.guard('load a seeds file', () => seeds.pickFile());
      break;
    case 'useWorkspaceSeeds':
      host.guard('use seeds.txt', () => seeds.useWorkspaceSeeds());
      break;
    case 'useSeedsText':
      seeds.useText();
      break;
    case 'openSeedsFile':
      host.guard('open the seeds file', () => seeds.openFile(message.line));
      break;
    case 'findOrigins': {
      const found = findOrigins(host.current().seeds.origins, message.query);
      host.send({ type: 'origins', query: message.query, origins: found.origins, total: found.total });
      break;
    }
    case 'openReport':
      host.guard('open the plan report', () => host.deps.openReport?.());
      break;
    case 'requestRobots':
      robots.requested();
      break;
    case 'cancelServers':
      servers.cancel();
      break;
    case 'runTestCrawl':
      runTestCrawl(host, () => to.currentSeeds());
      break;
    case 'copyPlan':
      copyPlan(host, to.currentPlanJson(), (text) => to.io.writeClipboard(text));
      break;
    case 'openRobots':
      openRobots(host, robots, message.origin, message.line);
      break;
    case 'useCalibration':
      to.calibration.choose(message.source);
      break;
    case 'chooseCalibrationReport':
      host.guard('read the crawl report', () => to.calibration.chooseReport());
      break;
    case 'simulate':
      to.simulation.choose(message.settings, false);
      break;
    case 'sizeFromSitemaps':
      void to.sitemaps.start(message.changedSince);
      break;
    case 'cancelSitemaps':
      to.sitemaps.cancel();
      break;
    case 'applyDeadlineOption':
      to.deadline.apply(message.plan, message.index);
      break;
    case 'restoreHosts':
      to.deadline.undrop(message.host);
      break;
    case 'exportPlan':
      if (host.deps.exportPlan === undefined) host.notice('error', 'Export is not available here.');
      else host.guard('export the plan', () => host.deps.exportPlan!());
      break;
    default:
      assertNever(message);
  }
}
