/**
 * The sidebar planner (`crawlPlanner.planner`): a WebviewViewProvider that is a thin adapter over
 * {@link PlannerController}. The webview is not retained when hidden; the controller keeps the form and
 * the results and re-posts them on `ready` and when the view becomes visible (ARCHITECTURE.md §The webview protocol). Strict
 * CSP with a fresh nonce per document, resources only from `dist/` and `media/` (docs/extension.md §Decisions).
 */
import * as vscode from 'vscode';
import type { Plan } from '../../core/plan';
import { VIEWS } from '../ids';
import { PlannerController } from './controller';
import type { PlannerExport, PlannerViewDeps, SeedFileRef } from './deps';
import type { PlannerStore, SavedPlanner } from './savedState';
import { getHtml, makeNonce } from './html';
import type { SeedsCheck } from './planning';
import type { Simulation } from '../../core/simulate/types';
import type {
  CalibrationState,
  PlanResultView,
  SeedsView,
  SimulationState,
  SitemapsState,
} from '../../shared/planner/viewModel';
import type { PlannerForm } from '../../shared/planner/form';
import type { HeldCalibration } from './estimates';

export type {
  InspectRobotsOptions,
  PlannerExport,
  PlannerViewDeps,
  SeedFileRef,
  SizeSitemapsOptions,
  TestCrawlRequest,
} from './deps';

/** What commands may ask of the planner. */
export interface PlannerViewApi {
  /**
   * Shows and focuses the sidebar view; resolves to true once it shows the planner's state (the webview
   * said `ready` and was sent the state), or false when it did not within {@link READY_TIMEOUT_MS}.
   */
  reveal(): Thenable<boolean>;
  /** The current plan as the `estimate --json` document (pretty-printed), or undefined without a plan. */
  currentPlanJson(): string | undefined;
  /** The current valid seed URLs, in order, without repeats. */
  currentSeeds(): string[];
  /** The pages of the current plan, or undefined without one (the robots.txt editor's "time for N pages"). */
  currentPlanPages(): number | undefined;
  /** Fires after the current plan's pages change. */
  onDidChangePlannedPages(listener: () => void): vscode.Disposable;
  /** The current plan (null: none, `problems` say why) and the seeds it was made from: for the plan report. */
  currentPlan(): { plan: Plan | null; problems: ReadonlyArray<{ field: string; message: string }>; seeds: SeedsCheck };
  /** Fires when the plan may have changed (ask `currentPlan()` again). */
  onDidChangePlan(listener: () => void): vscode.Disposable;
  /** Makes a file the seeds' source (Load Seeds from File with an argument); resolves once it is read. */
  useSeedsFile(ref: SeedFileRef): Promise<void>;
  /** Where the seeds come from now: the box's text or a file (its name, size, lines, problem). */
  currentSeedsView(): SeedsView;
  /** Where calibration stands: the last test crawl that can calibrate, and what the plan uses. */
  calibrationState(): CalibrationState;
  /** Plans with the last test crawl's measurements, a report's, or the typed values (`off`); what the plan took. */
  useCalibration(source: 'crawl' | 'off' | HeldCalibration): PlanResultView['calibration'];
  /** Turns Simulate on and simulates the current plan; resolves with how it ended. */
  simulateNow(options?: { runs?: number; seed?: number }): Promise<SimulationState>;
  /** Turns Simulate off (Simulate Plan with `false`). */
  stopSimulating(): void;
  /** The simulation of the current plan, once done. */
  currentSimulation(): { plan: Plan; simulation: Simulation } | undefined;
  /** Where the simulation stands (off, running, done, failed). */
  simulationState(): SimulationState;
  /** Fires when the simulation of the plan changes. */
  onDidChangeSimulation(listener: () => void): vscode.Disposable;
  /** Seeds from code: the box's seeds, form numbers and a notice (PlannerController.useSeedsText). */
  useSeedsText(text: string | undefined, form?: Partial<PlannerForm>, notice?: string): Promise<void>;
  /** The form as the planner holds it. */
  currentForm(): PlannerForm;
  /** The plan as the sidebar shows it and its seeds, for Export Plan; or why there is none. */
  exportInput(): PlannerExport | { problem: string };
  /** Sizes the seed hosts from their sitemaps, as the sidebar's button does; resolves to how it ended. */
  sizeFromSitemaps(changedSince?: string): Promise<SitemapsState>;
}

export type PlannerView = vscode.Disposable & PlannerViewApi;

/** workspaceState key of the saved planner: the form, the seeds box's text, the seeds file in use. */
export const PLANNER_STATE_KEY = 'crawlPlanner.planner';
/** workspaceState key of the form as earlier versions saved it (seeds inside it), read when the above is absent. */
export const FORM_STATE_KEY = 'crawlPlanner.plannerForm';
/** A seeds box text longer than this (in UTF-16 units) is kept in a file under the workspace's storage. */
export const INLINE_SEEDS_CHARS = 64 * 1024;
/** That file's name under `context.storageUri`. */
export const SEEDS_TEXT_FILE = 'planner-seeds.txt';

/**
 * The planner's store: workspace state, with a long seeds text in {@link SEEDS_TEXT_FILE} under the workspace's
 * storage (a window without a folder has none: there it stays in workspace state). Saves are written one at
 * a time, the latest last; one that arrives while another is written replaces any still waiting.
 */
export function createPlannerStore(
  state: vscode.Memento,
  storageUri: vscode.Uri | undefined,
  log: (message: string) => void,
): PlannerStore {
  const textFile = storageUri === undefined ? undefined : vscode.Uri.joinPath(storageUri, SEEDS_TEXT_FILE);
  let writing: Promise<void> | undefined;
  let next: SavedPlanner | undefined;
  const write = async (saved: SavedPlanner): Promise<void> => {
    if (textFile !== undefined && saved.seedsText.length > INLINE_SEEDS_CHARS) {
      try {
        await vscode.workspace.fs.createDirectory(storageUri!);
        await vscode.workspace.fs.writeFile(textFile, new TextEncoder().encode(saved.seedsText));
        await state.update(PLANNER_STATE_KEY, {
          ...saved,
          seedsText: '',
          seedsTextFile: SEEDS_TEXT_FILE,
          seedsTextLength: saved.seedsText.length,
        });
        return;
      } catch (err) {
        log(
          `Planner view: could not write the seeds to ${textFile.fsPath} (${err instanceof Error ? err.message : String(err)}); keeping them in workspace state.`,
        );
      }
    }
    await state.update(PLANNER_STATE_KEY, saved);
  };
  const drain = async (): Promise<void> => {
    while (next !== undefined) {
      const saved = next;
      next = undefined;
      await write(saved);
    }
  };
  return {
    load: () => {
      const saved = state.get<unknown>(PLANNER_STATE_KEY);
      if (typeof saved !== 'object' || saved === null) return state.get<unknown>(FORM_STATE_KEY);
      const { seedsTextFile, seedsTextLength, ...rest } = saved as Record<string, unknown>;
      if (seedsTextFile === undefined) return rest;
      if (textFile === undefined || seedsTextFile !== SEEDS_TEXT_FILE) return { ...rest, seedsText: '' };
      return Promise.resolve(vscode.workspace.fs.readFile(textFile)).then(
        (bytes) => {
          const seedsText = new TextDecoder('utf-8').decode(bytes);
          if (seedsText.length !== seedsTextLength)
            log(
              `Planner view: ${textFile.fsPath} holds ${seedsText.length} characters, ${String(seedsTextLength)} were saved; using the file.`,
            );
          return { ...rest, seedsText };
        },
        (err: unknown) => {
          log(
            `Planner view: could not read the saved seeds from ${textFile.fsPath}: ${err instanceof Error ? err.message : String(err)}`,
          );
          return { ...rest, seedsText: '' };
        },
      );
    },
    save: (saved) => {
      next = saved;
      writing ??= drain().finally(() => (writing = undefined));
      return writing;
    },
  };
}

/** How long `reveal` waits for a (re)loaded webview to say `ready`. */
export const READY_TIMEOUT_MS = 10_000;

class PlannerViewProvider implements vscode.WebviewViewProvider {
  /** The view while it is resolved (undefined before the first show and after it is disposed). */
  view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly controller: PlannerController,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, enableCommandUris: false, localResourceRoots: [dist, media] };
    view.webview.html = getHtml(view.webview, makeNonce(), {
      script: vscode.Uri.joinPath(dist, 'webview.js'),
      style: vscode.Uri.joinPath(media, 'planner.css'),
    });
    this.view = view;
    this.controller.attach((message) => view.webview.postMessage(message));
    const subscriptions = [
      view.webview.onDidReceiveMessage((message: unknown) => this.controller.receive(message)),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.controller.visible();
      }),
    ];
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
      this.controller.detach();
      for (const s of subscriptions) s.dispose();
    });
  }
}

/** Registers the sidebar planner. The returned object is also pushed to `context.subscriptions`. */
export function registerPlannerView(context: vscode.ExtensionContext, deps: PlannerViewDeps): PlannerView {
  const controller = new PlannerController(deps, {
    store: createPlannerStore(context.workspaceState, context.storageUri, deps.log),
    writeClipboard: (text) => vscode.env.clipboard.writeText(text),
  });
  const provider = new PlannerViewProvider(context.extensionUri, controller);
  const registration = vscode.window.registerWebviewViewProvider(VIEWS.planner, provider, {
    webviewOptions: { retainContextWhenHidden: false },
  });
  let disposed = false;
  const view: PlannerView = {
    reveal: async () => {
      // A visible, ready view is not reloaded by the focus; a hidden one is (it is not retained), and
      // its new webview says `ready` again.
      const showing = provider.view?.visible === true && controller.isReady;
      const answered = controller.answeredReadies;
      await vscode.commands.executeCommand(`${VIEWS.planner}.focus`);
      if (showing) return true;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS)));
      return Promise.race([controller.readyAnswered(answered).then(() => true), timeout]).finally(() =>
        clearTimeout(timer),
      );
    },
    currentPlanJson: () => controller.currentPlanJson(),
    currentSeeds: () => controller.currentSeeds(),
    currentPlanPages: () => controller.currentPlanPages(),
    onDidChangePlannedPages: (listener) => new vscode.Disposable(controller.onDidChangePlannedPages(listener).dispose),
    currentPlan: () => controller.currentPlan(),
    onDidChangePlan: (listener) => new vscode.Disposable(controller.onDidChangePlan(listener).dispose),
    useSeedsFile: (ref) => controller.useSeedsFile(ref),
    currentSeedsView: () => controller.currentSeedsView(),
    calibrationState: () => controller.calibrationState(),
    useCalibration: (source) => controller.useCalibration(source),
    simulateNow: (options) => controller.simulateNow(options),
    currentSimulation: () => controller.currentSimulation(),
    stopSimulating: () => controller.stopSimulating(),
    simulationState: () => controller.simulationState(),
    onDidChangeSimulation: (listener) => new vscode.Disposable(controller.onDidChangeSimulation(listener).dispose),
    useSeedsText: (text, form, notice) => controller.useSeedsText(text, form, notice),
    currentForm: () => controller.currentForm(),
    exportInput: () => controller.exportInput(),
    sizeFromSitemaps: (changedSince) => controller.sizeFromSitemaps(changedSince),
    dispose: () => {
      if (disposed) return;
      disposed = true;
      registration.dispose();
      controller.dispose();
    },
  };
  context.subscriptions.push(view);
  return view;
}
