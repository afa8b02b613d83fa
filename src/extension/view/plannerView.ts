/**
 * The sidebar planner (`crawlPlanner.planner`): a WebviewViewProvider that is a thin adapter over
 * {@link PlannerController}. The webview is not retained when hidden; the controller keeps the form and
 * the results and re-posts them on `ready` and when the view becomes visible (ARCHITECTURE.md §The webview protocol). Strict
 * CSP with a fresh nonce per document, resources only from `dist/` and `media/` (docs/extension.md §Decisions).
 */
import * as vscode from 'vscode';
import { VIEWS } from '../ids';
import { PlannerController, type PlannerViewDeps } from './controller';
import { getHtml, makeNonce } from './html';

export type { InspectRobotsOptions, PlannerViewDeps, TestCrawlRequest } from './controller';

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
}

export type PlannerView = vscode.Disposable & PlannerViewApi;

/** workspaceState key of the saved form (the fallback when the webview's own state is gone). */
export const FORM_STATE_KEY = 'crawlPlanner.plannerForm';

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
    store: {
      get: () => context.workspaceState.get<unknown>(FORM_STATE_KEY),
      update: (form) => context.workspaceState.update(FORM_STATE_KEY, form),
    },
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
      return Promise.race([controller.readyAnswered(answered).then(() => true), timeout]).finally(() => clearTimeout(timer));
    },
    currentPlanJson: () => controller.currentPlanJson(),
    currentSeeds: () => controller.currentSeeds(),
    currentPlanPages: () => controller.currentPlanPages(),
    onDidChangePlannedPages: (listener) => new vscode.Disposable(controller.onDidChangePlannedPages(listener).dispose),
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
