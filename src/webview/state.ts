/**
 * Everything the planner webview knows, in one object: what the extension sent, what is typed, what waits to
 * be sent and the timers that will send it. `main.ts` makes it once; each section (src/webview/sections/)
 * renders from it, and its events write to it. The extension holds the seeds and the truth about the plan
 * (docs/extension.md §Decisions, State); this is the page's copy. Pure: no DOM, so the decisions below are
 * unit-tested in node.
 */
import type { PlannerForm, RawForm } from '../shared/planner/form';
import { sameForm } from '../shared/planner/formFields';
import type {
  CalibrationState,
  CrawlResultView,
  PlannerViewSettings,
  PlanResultView,
  RobotsState,
  SeedsView,
  ServersState,
  SimulationSettings,
  SimulationState,
  SitemapsState,
} from '../shared/planner/viewModel';
import type { SavedState } from './form';
import type { TableSort } from './model/plan';

/** The pause after an edit before the form (or the Simulate settings) is sent. */
export const FORM_DEBOUNCE_MS = 250;
/** A seeds text longer than this is sent after a short pause (and when the box loses focus), not on every key. */
export const SEEDS_SEND_NOW_CHARS = 64 * 1024;
export const SEEDS_DEBOUNCE_MS = 150;
/** The pause in typing before the extension is asked for the origins that match. */
export const ORIGIN_SEARCH_MS = 120;
/** How long a notice stays. */
export const NOTICE_MS = 6000;

export type Timer = ReturnType<typeof setTimeout>;

/**
 * The timers that will send what waits (the form, the seeds box's text, the Simulate settings, an origin search)
 * and the one that clears the notice.
 */
export interface Timers {
  form?: Timer;
  seeds?: Timer;
  simulation?: Timer;
  origins?: Timer;
  notice?: Timer;
}

/** The seeds box: its text, and what the extension has of it. */
export interface SeedsBox {
  /** The box holds the extension's seeds (after the first `state`); until then it is read-only. */
  loaded: boolean;
  /** The seeds' source as the extension sent it (or as the box's text was last sent). */
  view: SeedsView;
  /** The box's text as it is now. */
  text: string;
  /** The seeds text the extension was last sent (or sent us): what a refused edit goes back to. */
  kept: string;
  /** The refusal of the last paste, shown until the next edit. */
  refusal: string | undefined;
}

/** The origin picker: a search box over the seed origins. */
export interface OriginPicker {
  /** The origin chosen for "Open robots.txt" (kept in the saved state). */
  chosen: string | undefined;
  /** The search box's text. */
  query: string;
  /** The list: open or not, the options listed and the active one (-1: none). */
  open: boolean;
  options: string[];
  active: number;
}

/** The Simulate choice and its fields, as typed. */
export interface SimulationFields {
  enabled: boolean;
  runs: string;
  seed: string;
}

export interface PlannerState {
  // From the extension
  /** The first `state` came: it set the fields (the extension keeps them); later ones leave what is typed alone. */
  stateSeen: boolean;
  settings: PlannerViewSettings | undefined;
  trusted: boolean;
  result: PlanResultView | undefined;
  robots: RobotsState;
  servers: ServersState;
  sitemaps: SitemapsState;
  calibration: CalibrationState;
  simulation: SimulationState;
  /** The Simulate settings the extension holds (what a reload shows), or those last sent to it. */
  simulationSettings: SimulationSettings | undefined;
  lastCrawl: CrawlResultView | undefined;

  // What is typed
  /** The form's fields as typed; `pagesByHost` holds each host's own pages, hosts the list does not show too. */
  fields: RawForm;
  seeds: SeedsBox;
  origins: OriginPicker;
  simulationFields: SimulationFields;
  /** The host table's order (clicks on its headings). */
  sort: TableSort;

  // What waits, and what is drawn
  /** The valid form not sent yet (it goes when the pause ends, or before any action). */
  pendingForm: PlannerForm | undefined;
  timers: Timers;
  /** The hosts the "pages by host" list was built for (rebuilt only when they change: typing keeps its focus). */
  hostPagesKey: string | undefined;
}

/** What a page just loaded shows in its inputs. */
export interface OnScreen {
  fields: RawForm;
  simulationFields: SimulationFields;
  seedsText: string;
  originQuery: string;
}

/** The state of a page just loaded: what its inputs show, the origin this view saved, nothing from the extension yet. */
export function createPlannerState(onScreen: OnScreen, saved: SavedState | undefined): PlannerState {
  return {
    stateSeen: false,
    settings: undefined,
    trusted: true,
    result: undefined,
    robots: { state: 'off' },
    servers: { state: 'off' },
    sitemaps: { state: 'off' },
    calibration: { crawl: null, using: null },
    simulation: { state: 'off' },
    simulationSettings: undefined,
    lastCrawl: undefined,
    fields: onScreen.fields,
    seeds: {
      loaded: false,
      view: { source: 'text', text: '' },
      text: onScreen.seedsText,
      kept: '',
      refusal: undefined,
    },
    origins: { chosen: saved?.origin, query: onScreen.originQuery, open: false, options: [], active: -1 },
    simulationFields: onScreen.simulationFields,
    sort: { key: 'plan', descending: false },
    pendingForm: undefined,
    timers: {},
    hostPagesKey: undefined,
  };
}

/** What the page keeps in getState/setState: the fields as typed and the origin chosen. */
export function savedState(state: Pick<PlannerState, 'fields' | 'origins'>): SavedState {
  const origin = state.origins.chosen;
  return origin === undefined ? { v: 2, raw: state.fields } : { v: 2, raw: state.fields, origin };
}

/**
 * Whether the seeds the extension sent with `state` replace the box's: a (re)loaded view shows what the
 * extension holds, and so does a change of source or a file; a box edited since is not overwritten.
 */
export function takesSeeds(box: Pick<SeedsBox, 'loaded' | 'view'>, incoming: SeedsView): boolean {
  return !box.loaded || box.view.source !== incoming.source || incoming.source === 'file';
}

/** The box's text to send the extension, or undefined: the box holds its seeds, is the source, and changed. */
export function seedsToSend(box: SeedsBox): string | undefined {
  if (!box.loaded || box.view.source !== 'text' || box.text === box.kept) return undefined;
  return box.text;
}

/** Whether an edited seeds text goes at once, or after {@link SEEDS_DEBOUNCE_MS} (a long text). */
export function sendsSeedsNow(text: string): boolean {
  return text.length <= SEEDS_SEND_NOW_CHARS;
}

/** Whether the Simulate settings in a `state` replace the fields: yes, unless an edit of them waits to be sent. */
export function takesSimulationSettings(state: Pick<PlannerState, 'simulationSettings' | 'timers'>): boolean {
  return state.simulationSettings === undefined || state.timers.simulation === undefined;
}

/**
 * After the first `state`: the form the fields make when it is not the one the extension planned (typed and
 * kept, but the view went before the pause ended), to plan now; else undefined.
 */
export function formToPlan(typed: PlannerForm | undefined, planned: PlannerForm): PlannerForm | undefined {
  return typed !== undefined && !sameForm(typed, planned) ? typed : undefined;
}
