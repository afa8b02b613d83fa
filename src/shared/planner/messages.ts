/**
 * The typed messages between the extension and the planner webview (ARCHITECTURE.md §The webview protocol;
 * the messages are listed in docs/extension.md §Protocol). String-literal `type` unions, no numeric enums;
 * both sides switch exhaustively. The extension trusts nothing that comes from the webview:
 * `parseWebviewMessage` checks every field before any work is done.
 *
 * Pure: no vscode, no DOM, no I/O. Bundled into both the extension and the webview.
 */
import { numberProblem, rangeText } from '../../core/limits';
import {
  assertNever,
  checkMessage,
  hasKnownType,
  type Invalid,
  type MessageFields,
  type MessageHead,
} from '../messageChecks';
import {
  MAX_ORIGIN_CHARS,
  ROBOTS_LINE_LIMIT,
  SEEDS_FILE_LINE_LIMIT,
  MAX_ORIGIN_QUERY_CHARS,
  MAX_CHANGED_SINCE_CHARS,
  DEADLINE_OPTION_LIMIT,
  PLAN_NUMBER_LIMIT,
  seedsStoreProblem,
} from './limits';
import { type PlannerForm, type RawForm, hostKeyProblem, parseRawForm, parsePlannerForm } from './form';
import {
  type PlannerViewSettings,
  type PlanResultView,
  type SitemapsState,
  type SeedsView,
  type RobotsView,
  type RobotsState,
  type ServersState,
  type CrawlResultView,
  type CalibrationState,
  type SimulationSettings,
  type SimulationState,
  parseSimulationSettings,
  type NoticeLevel,
} from './viewModel';

export type HostToWebview =
  /** Everything, after `ready` and whenever the view becomes visible again. */
  /**
   * Everything, after `ready` and whenever the view becomes visible again. `fields`: the fields as last typed
   * (null before anything was typed; `form` is then what they show).
   */
  | {
      type: 'state';
      form: PlannerForm;
      fields: RawForm | null;
      seeds: SeedsView;
      settings: PlannerViewSettings;
      trusted: boolean;
      result: PlanResultView;
      robots: RobotsState;
      servers: ServersState;
      calibration: CalibrationState;
      simulationSettings: SimulationSettings;
      simulation: SimulationState;
      sitemaps: SitemapsState;
    }
  /** The seeds' source changed on the extension's side (a file loaded, changed on disk or gone; back to the box). */
  | { type: 'seeds'; seeds: SeedsView }
  /** A long list is being planned (posted before the work, so the view can say so); a `planResult` follows. */
  | { type: 'planning'; seeds: number }
  /** The plan for the latest form and seeds (after `formChanged`, `seedsChanged`, a file, robots results or a settings change). */
  | { type: 'planResult'; result: PlanResultView }
  /** The seed origins that contain `query` (the answer to `findOrigins`): the first ones, and how many in all. */
  | { type: 'origins'; query: string; origins: string[]; total: number }
  | { type: 'robotsPending'; origins: number }
  | { type: 'robotsResult'; robots: RobotsView }
  | { type: 'robotsError'; message: string }
  /** "Check shared servers": the seed hosts are being looked up (how far), were, or could not be. */
  | { type: 'serversState'; servers: ServersState }
  | { type: 'settings'; settings: PlannerViewSettings; trusted: boolean }
  /**
   * The extension changed the form (sitemap sizing filled each host's pages, a deadline option was applied,
   * seeds from code took a spider's delay and workers):
   * the webview shows these fields, as typed where a value did not change.
   */
  | { type: 'formSet'; form: PlannerForm; fields: RawForm }
  /** Sitemap sizing started, is under way (files read, URLs counted so far), ended, or failed. */
  | { type: 'sitemapsState'; sitemaps: SitemapsState }
  /** A short line for the status area (aria-live): "Plan copied", "No valid seed to crawl". */
  | { type: 'notice'; level: NoticeLevel; message: string }
  /** The last test crawl in this window ended (also re-posted after `state`). */
  | { type: 'crawlResult'; crawl: CrawlResultView }
  /** Calibration changed: a test crawl ended, a report was chosen, or it was turned on or off. */
  | { type: 'calibration'; calibration: CalibrationState }
  /** The simulation of the current plan: started, done, failed, or off (turned off, or the plan changed). */
  | { type: 'simulation'; simulation: SimulationState };

// ---------------------------------------------------------------------------------------------
// What the webview sends

export type WebviewToHost =
  /** The webview is loaded: the extension answers with `state` (the form, the fields and the seeds it keeps). */
  | { type: 'ready' }
  /** A field was edited: every field as typed, sent at once (the extension keeps them; nothing is planned). */
  | { type: 'fieldsEdited'; fields: RawForm }
  /** The form changed (debounced ~250 ms in the webview). Sent only when every field is valid. */
  | { type: 'formChanged'; form: PlannerForm }
  /**
   * The seeds box changed: its whole text, sent at once (a long text: after a short pause and when the box loses
   * focus), whatever the other fields hold, so the extension always has what is typed. Up to
   * `PLANNER_SEED_LIMITS`.storedTextBytes; past the planning limits it is kept, not planned.
   */
  | { type: 'seedsChanged'; text: string }
  /** "Load seeds from file…": the extension asks for a file, which becomes the source. */
  | { type: 'loadSeedsFile' }
  /** "Use seeds.txt": the workspace's seeds.txt becomes the source (a pick when there are several). */
  | { type: 'useWorkspaceSeeds' }
  /** "Use the box": the seeds file is no longer the source; the box's text is again. */
  | { type: 'useSeedsText' }
  /** Open the seeds file in an editor, at a line when given. */
  | { type: 'openSeedsFile'; line?: number }
  /** The origin picker's search: the seed origins containing `query` (answered by `origins`). */
  | { type: 'findOrigins'; query: string }
  /** "Open Plan Report": every host of the plan in an editor tab. */
  | { type: 'openReport' }
  /** Fetch robots.txt for the current seeds again (the Check button, or leaving the seeds field). */
  | { type: 'requestRobots' }
  /** Stop looking the seed hosts up ("Check shared servers" stays on; what was found stays). */
  | { type: 'cancelServers' }
  /** Run a test crawl of the current valid seeds with the current delay and pages. */
  | { type: 'runTestCrawl' }
  /** Copy the current plan (the `estimate --json` document) to the clipboard. */
  | { type: 'copyPlan' }
  /** Open an origin's robots.txt, optionally at a line. The origin must be one of the current seeds'. */
  | { type: 'openRobots'; origin: string; line?: number }
  /** "Plan with what the test crawl measured" on (`crawl`) or off: the typed values again. */
  | { type: 'useCalibration'; source: 'crawl' | 'off' }
  /** "Choose a crawl report…": the extension asks for a report file and plans with what it measured. */
  | { type: 'chooseCalibrationReport' }
  /** The Simulate choice changed (on: the current plan is simulated now and after every change). */
  | { type: 'simulate'; settings: SimulationSettings }

  /**
   * "Size from sitemaps": count each seed host's sitemap URLs and make them its pages (`byHost`); with
   * `changedSince` (a date or a duration back from now, '' for none) only the URLs changed since (a recrawl).
   */
  | { type: 'sizeFromSitemaps'; changedSince: string }
  /** Stop the sizing under way (the form stays as it was). */
  | { type: 'cancelSitemaps' }
  /** Apply option `index` of the deadline of plan `plan` (DeadlineView.plan) to the form and the plan. */
  | { type: 'applyDeadlineOption'; plan: number; index: number }
  /** Plan dropped hosts again: `host`, or every one. */
  | { type: 'restoreHosts'; host?: string }
  /** "Export plan…": runs the Export Plan command on this plan (it asks for the format and the folder). */
  | { type: 'exportPlan' };

export type WebviewMessageType = WebviewToHost['type'];
export type HostMessageType = HostToWebview['type'];

/** An origin the webview may ask to open: `http(s)://host[:port]` exactly, nothing else. */
export function parseOrigin(raw: unknown): string | Invalid {
  if (typeof raw !== 'string') return { error: 'origin: not a string' };
  if (raw.length === 0 || raw.length > MAX_ORIGIN_CHARS) return { error: 'origin: empty or too long' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: 'origin: not a URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'origin: only http and https' };
  if (url.origin !== raw) return { error: 'origin: must be scheme://host[:port] only' };
  return raw;
}

/**
 * Validates a message from the webview. Every field is checked (types, sizes, ranges, URL schemes);
 * anything unknown or extra is refused. The host logs and ignores what comes back as `{ error }`.
 */
export function parseWebviewMessage(input: unknown): WebviewToHost | Invalid {
  return checkMessage(input, WEBVIEW_MESSAGE_FIELDS, webviewMessage);
}

/** The fields each message may carry (besides `type`), checked before its own checks. */
const WEBVIEW_MESSAGE_FIELDS: MessageFields<WebviewToHost> = {
  ready: [],
  fieldsEdited: ['fields'],
  formChanged: ['form'],
  seedsChanged: ['text'],
  openSeedsFile: ['line'],
  findOrigins: ['query'],
  sizeFromSitemaps: ['changedSince'],
  applyDeadlineOption: ['plan', 'index'],
  restoreHosts: ['host'],
  cancelSitemaps: [],
  exportPlan: [],
  loadSeedsFile: [],
  useWorkspaceSeeds: [],
  useSeedsText: [],
  openReport: [],
  requestRobots: [],
  cancelServers: [],
  runTestCrawl: [],
  chooseCalibrationReport: [],
  copyPlan: [],
  useCalibration: ['source'],
  simulate: ['settings'],
  openRobots: ['origin', 'line'],
};

/** A message's own checks, once it has a known type and only that type's fields. */
function webviewMessage(raw: MessageHead<WebviewToHost>): WebviewToHost | Invalid {
  switch (raw.type) {
    case 'ready':
      return { type: 'ready' };
    case 'fieldsEdited': {
      const fields = parseRawForm(raw.fields);
      return fields === undefined
        ? { error: "fieldsEdited: fields are not the form's fields" }
        : { type: 'fieldsEdited', fields };
    }
    case 'formChanged': {
      const form = parsePlannerForm(raw.form);
      return 'error' in form ? { error: `formChanged: ${form.error}` } : { type: 'formChanged', form };
    }
    case 'seedsChanged': {
      if (typeof raw.text !== 'string') return { error: 'seedsChanged: text is not a string' };
      const problem = seedsStoreProblem(raw.text);
      return problem !== undefined ? { error: `seedsChanged: ${problem}` } : { type: 'seedsChanged', text: raw.text };
    }
    case 'openSeedsFile': {
      if (raw.line === undefined) return { type: 'openSeedsFile' };
      if (numberProblem(raw.line, SEEDS_FILE_LINE_LIMIT) !== undefined)
        return { error: `openSeedsFile: line must be ${rangeText(SEEDS_FILE_LINE_LIMIT)}` };
      return { type: 'openSeedsFile', line: raw.line as number };
    }
    case 'findOrigins': {
      if (typeof raw.query !== 'string' || raw.query.length > MAX_ORIGIN_QUERY_CHARS)
        return { error: `findOrigins: query must be a string of at most ${MAX_ORIGIN_QUERY_CHARS} characters` };
      return { type: 'findOrigins', query: raw.query };
    }
    case 'sizeFromSitemaps': {
      if (typeof raw.changedSince !== 'string' || raw.changedSince.length > MAX_CHANGED_SINCE_CHARS) {
        return {
          error: `sizeFromSitemaps: changedSince must be a string of at most ${MAX_CHANGED_SINCE_CHARS} characters`,
        };
      }
      return { type: 'sizeFromSitemaps', changedSince: raw.changedSince };
    }
    case 'applyDeadlineOption': {
      if (numberProblem(raw.plan, PLAN_NUMBER_LIMIT) !== undefined)
        return { error: `applyDeadlineOption: plan must be ${rangeText(PLAN_NUMBER_LIMIT)}` };
      if (numberProblem(raw.index, DEADLINE_OPTION_LIMIT) !== undefined)
        return { error: `applyDeadlineOption: index must be ${rangeText(DEADLINE_OPTION_LIMIT)}` };
      return { type: 'applyDeadlineOption', plan: raw.plan as number, index: raw.index as number };
    }
    case 'restoreHosts': {
      if (raw.host === undefined) return { type: 'restoreHosts' };
      if (typeof raw.host !== 'string' || hostKeyProblem(raw.host) !== undefined)
        return { error: 'restoreHosts: host must be a lower-case host[:port]' };
      return { type: 'restoreHosts', host: raw.host };
    }
    case 'cancelSitemaps':
    case 'exportPlan':
    case 'loadSeedsFile':
    case 'useWorkspaceSeeds':
    case 'useSeedsText':
    case 'openReport':
    case 'requestRobots':
    case 'cancelServers':
    case 'runTestCrawl':
    case 'chooseCalibrationReport':
    case 'copyPlan':
      return { type: raw.type };
    case 'useCalibration': {
      if (raw.source !== 'crawl' && raw.source !== 'off')
        return { error: 'useCalibration: source must be crawl or off' };
      return { type: 'useCalibration', source: raw.source };
    }
    case 'simulate': {
      const settings = parseSimulationSettings(raw.settings);
      return 'error' in settings ? { error: `simulate: ${settings.error}` } : { type: 'simulate', settings };
    }
    case 'openRobots': {
      const origin = parseOrigin(raw.origin);
      if (typeof origin !== 'string') return { error: `openRobots: ${origin.error}` };
      if (raw.line === undefined) return { type: 'openRobots', origin };
      const line = raw.line;
      if (numberProblem(line, ROBOTS_LINE_LIMIT) !== undefined)
        return { error: `openRobots: line must be ${rangeText(ROBOTS_LINE_LIMIT)}` };
      return { type: 'openRobots', origin, line: line as number };
    }
    default:
      return assertNever(raw.type);
  }
}

const HOST_MESSAGE_TYPE_SET = {
  state: true,
  formSet: true,
  sitemapsState: true,
  seeds: true,
  planning: true,
  planResult: true,
  origins: true,
  robotsPending: true,
  robotsResult: true,
  robotsError: true,
  serversState: true,
  settings: true,
  notice: true,
  crawlResult: true,
  calibration: true,
  simulation: true,
} as const satisfies Record<HostMessageType, true>;

/** The message types the webview understands (every one, checked at compile time). */
export const HOST_MESSAGE_TYPES = Object.keys(HOST_MESSAGE_TYPE_SET) as HostMessageType[];

/** The webview's guard on incoming messages: an object with a known `type`. The host is trusted; this catches bugs. */
export function isHostMessage(raw: unknown): raw is HostToWebview {
  return hasKnownType<HostToWebview>(raw, HOST_MESSAGE_TYPE_SET);
}
