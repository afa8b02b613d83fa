/**
 * What the planner saves between sessions and how it is read back: the saved formats (this version's, v2, and
 * the form an earlier version saved with its seeds inside it), what a save writes, and the gate that reads the
 * saved planner once, when the planner is first needed (not at activation, which does no file I/O: a long seeds
 * text and a seeds file are files), holding the webview's messages until it is read.
 */
import {
  DEFAULT_SIMULATION_SETTINGS,
  parseSimulationSettings,
  type PlannerViewSettings,
  type SimulationSettings,
} from '../../shared/planner/viewModel';
import {
  hostKeyProblem,
  parsePlannerForm,
  parseRawForm,
  type PlannerForm,
  type RawForm,
} from '../../shared/planner/form';
import { MAX_PAGES_BY_HOST, seedsStoreProblem } from '../../shared/planner/limits';
import { readForm } from '../../shared/planner/formFields';
import type { PagesUnknown } from '../../core/plan/types';
import { DEFAULT_POLITENESS_BY } from '../../core/servers/units';
import type { SeedFileRef } from './deps';
import { errorText } from './deliver';

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
  /** The hosts the last sitemap sizing could not count, with why: their pages stay unknown until the form gives them a number. */
  pagesUnknown?: Record<string, PagesUnknown>;
}

/** A saved planner read back. */
export type RestoredPlanner = Omit<SavedPlanner, 'v'>;

/** Where the planner is saved (workspace state, the box's long text in a file under the extension's storage). */
export interface PlannerStore {
  /** The saved value (unchecked), at once or when read. */
  load(): unknown;
  save(state: SavedPlanner): PromiseLike<void>;
}

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
    checkServers: false,
    politenessBy: DEFAULT_POLITENESS_BY,
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

/** Saved hosts whose pages are unknown ({ host: { code, reason } }, at most MAX_PAGES_BY_HOST), or undefined. */
function parsePagesUnknown(raw: unknown): Record<string, PagesUnknown> | undefined {
  if (!isRecord(raw)) return undefined;
  const entries = Object.entries(raw);
  if (entries.length > MAX_PAGES_BY_HOST) return undefined;
  const out: Record<string, PagesUnknown> = {};
  for (const [host, why] of entries) {
    if (hostKeyProblem(host) !== undefined || !isRecord(why)) return undefined;
    const { code, reason } = why;
    if (typeof code !== 'string' || typeof reason !== 'string' || code.length > 100 || reason.length > 2000)
      return undefined;
    out[host] = { code, reason };
  }
  return out;
}

/**
 * Reads a saved planner back: this version's, or the form an earlier version saved (its seeds inside it).
 * Anything damaged gives undefined: the defaults apply.
 */
export function parseSavedPlanner(raw: unknown): RestoredPlanner | undefined {
  if (!isRecord(raw)) return undefined;
  if (raw.v === 2) {
    const form = parsePlannerForm(raw.form);
    if ('error' in form || typeof raw.seedsText !== 'string' || seedsStoreProblem(raw.seedsText) !== undefined)
      return undefined;
    const saved: RestoredPlanner = { form, seedsText: raw.seedsText };
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
    const pagesUnknown = parsePagesUnknown(raw.pagesUnknown);
    if (pagesUnknown !== undefined && Object.keys(pagesUnknown).length > 0) saved.pagesUnknown = pagesUnknown;
    return saved;
  }
  // Saved before the seeds left the form: { seeds, ...form }.
  const { seeds, ...rest } = raw;
  const form = parsePlannerForm(rest);
  if ('error' in form || typeof seeds !== 'string' || seedsStoreProblem(seeds) !== undefined) return undefined;
  return { form, seedsText: seeds };
}

/** What the planner holds that is saved. */
export interface HeldPlanner {
  form: PlannerForm;
  fields: RawForm | undefined;
  seedsText: string;
  seedsFile: SeedFileRef | undefined;
  simulation: SimulationSettings;
  dropHosts: readonly string[];
  pagesUnknown: Readonly<Record<string, PagesUnknown>>;
}

/** What a save writes: what is held, leaving out what is absent or the default (Simulate off, default runs and seed). */
export function savedPlanner(held: HeldPlanner): SavedPlanner {
  const state: SavedPlanner = { v: 2, form: held.form, seedsText: held.seedsText };
  if (held.fields !== undefined) state.fields = held.fields;
  if (held.seedsFile !== undefined) state.seedsFile = held.seedsFile;
  const sim = held.simulation;
  if (sim.enabled || sim.runs !== DEFAULT_SIMULATION_SETTINGS.runs || sim.seed !== DEFAULT_SIMULATION_SETTINGS.seed) {
    state.simulation = { ...sim };
  }
  if (held.dropHosts.length > 0) state.dropHosts = [...held.dropHosts];
  if (Object.keys(held.pagesUnknown).length > 0) state.pagesUnknown = { ...held.pagesUnknown };
  return state;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Reads the saved planner once, when first asked to, and saves. Until it is read, the webview's messages are
 * held (`hold`) and so is what waits for it (`whenRestored`): once it is read and `restore` has applied it, the
 * messages are handled in order, then the rest.
 */
export class SavedPlannerGate {
  private started = false;
  private done = false;
  private closed = false;
  private readonly held: Array<() => void> = [];
  private readonly after: Array<() => void> = [];

  constructor(
    private readonly store: PlannerStore,
    private readonly log: (message: string) => void,
    private readonly restore: (saved: RestoredPlanner | undefined) => void,
  ) {}

  /** Whether the saved planner has been read (and applied). */
  get restored(): boolean {
    return this.done;
  }

  /** Reads what was saved, the first time it is called. */
  read(): void {
    if (this.started) return;
    this.started = true;
    let saved: unknown;
    try {
      saved = this.store.load();
    } catch (err) {
      this.log(`could not read the saved planner: ${errorText(err)}`);
    }
    if (isThenable(saved)) {
      Promise.resolve(saved).then(
        (value) => this.finishRead(value),
        (err: unknown) => {
          this.log(`could not read the saved planner: ${errorText(err)}`);
          this.finishRead(undefined);
        },
      );
    } else {
      this.finishRead(saved);
    }
  }

  /** A message that came before the saved planner was read: handled once it is, before what `whenRestored` holds. */
  hold(message: () => void): void {
    this.held.push(message);
  }

  /** Runs `then` once the saved planner is read and its held messages are handled. */
  whenRestored(then: () => void): void {
    this.after.push(then);
  }

  /** Saves `state`; a failure is logged. */
  save(state: SavedPlanner): void {
    let pending: PromiseLike<void>;
    try {
      pending = this.store.save(state);
    } catch (err) {
      pending = Promise.reject(err);
    }
    Promise.resolve(pending).catch((err: unknown) => this.log(`could not save the planner: ${errorText(err)}`));
  }

  /** The planner is gone: a read that comes later is not applied, and nothing held runs. */
  dispose(): void {
    this.closed = true;
    this.held.length = 0;
    this.after.length = 0;
  }

  private finishRead(raw: unknown): void {
    if (this.closed) return;
    this.restore(parseSavedPlanner(raw));
    this.done = true;
    for (const message of this.held.splice(0)) message();
    for (const then of this.after.splice(0)) then();
  }
}
