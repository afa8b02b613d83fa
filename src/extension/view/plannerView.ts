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

export type { InspectRobotsOptions, PlannerViewDeps, TestCrawlOptions } from './controller';
export type { PlannerSettings } from '../../shared/protocol';

/** What commands may ask of the planner. */
export interface PlannerViewApi {
  /** Shows and focuses the sidebar view. */
  reveal(): Thenable<void>;
  /** The current plan as the `estimate --json` document (pretty-printed), or undefined without a plan. */
  currentPlanJson(): string | undefined;
  /** The current valid seed URLs, in order, without repeats. */
  currentSeeds(): string[];
}

export type PlannerView = vscode.Disposable & PlannerViewApi;

/** workspaceState key of the saved form (the fallback when the webview's own state is gone). */
export const FORM_STATE_KEY = 'crawlPlanner.plannerForm';

class PlannerViewProvider implements vscode.WebviewViewProvider {
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
    this.controller.attach((message) => view.webview.postMessage(message));
    const subscriptions = [
      view.webview.onDidReceiveMessage((message: unknown) => this.controller.receive(message)),
      view.onDidChangeVisibility(() => {
        if (view.visible) this.controller.visible();
      }),
    ];
    view.onDidDispose(() => {
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
  const registration = vscode.window.registerWebviewViewProvider(VIEWS.planner, new PlannerViewProvider(context.extensionUri, controller), {
    webviewOptions: { retainContextWhenHidden: false },
  });
  let disposed = false;
  const view: PlannerView = {
    reveal: async () => {
      await vscode.commands.executeCommand(`${VIEWS.planner}.focus`);
    },
    currentPlanJson: () => controller.currentPlanJson(),
    currentSeeds: () => controller.currentSeeds(),
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
