/**
 * The plan report (`crawlPlanner.openPlanReport`): a webview panel in the editor area with every host of the
 * planner's plan, a thin adapter over {@link ReportController}. One panel per window; it follows the planner
 * (a new plan is sent when the form, the seeds, robots.txt or a setting changes it). Not retained when hidden:
 * the webview keeps its search, filter, order and scroll in getState and asks again. Strict CSP with a fresh
 * nonce per document, resources only from `dist/` and `media/` (docs/extension.md §The plan report).
 */
import { createWriteStream } from 'node:fs';
import * as vscode from 'vscode';
import { PLAN_REPORT_PANEL } from '../ids';
import type { Log } from '../log';
import { makeNonce } from '../planner/html';
import type { PlannerViewApi } from '../planner/plannerView';
import { ReportController } from './controller';
import { getReportHtml } from './html';

/** How long `open` waits for the report webview to say `ready`. */
export const REPORT_READY_TIMEOUT_MS = 10_000;
/** A burst of plan changes (typing) is sent as one report after this quiet time. */
const PLAN_CHANGE_MS = 200;

export interface PlanReportDeps {
  planner: Pick<
    PlannerViewApi,
    | 'currentPlan'
    | 'onDidChangePlan'
    | 'currentSeedsView'
    | 'currentSimulation'
    | 'simulationState'
    | 'onDidChangeSimulation'
  >;
  log: Log;
}

export interface PlanReport extends vscode.Disposable {
  /** Opens (or shows) the report; resolves to true once it shows the current plan, false when it did not load in time. */
  open(): Promise<boolean>;
}

/** Writes the pieces to `target`: streamed to a local file, else gathered and written through the file system API. */
async function writePieces(target: vscode.Uri, pieces: Iterable<string>): Promise<void> {
  if (target.scheme === 'file') {
    const out = createWriteStream(target.fsPath);
    const done = new Promise<void>((resolve, reject) => {
      out.on('finish', resolve);
      out.on('error', reject);
    });
    for (const piece of pieces)
      if (!out.write(piece))
        await Promise.race([new Promise<void>((resolve) => out.once('drain', () => resolve())), done]);
    out.end();
    return done;
  }
  const encoder = new TextEncoder();
  const chunks = [...pieces].map((p) => encoder.encode(p));
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  await vscode.workspace.fs.writeFile(target, all);
}

/** The plan report's panel (one per window, made when first opened) and its controller. */
export function createPlanReport(context: vscode.ExtensionContext, deps: PlanReportDeps): PlanReport {
  const controller = new ReportController({
    source: {
      currentPlan: () => deps.planner.currentPlan(),
      seedsFrom: () => {
        const seeds = deps.planner.currentSeedsView();
        return seeds.source === 'file' ? seeds.file.label : 'the seeds box';
      },
      currentSimulation: () => deps.planner.currentSimulation(),
      simulationState: () => deps.planner.simulationState(),
    },
    save: async (format, pieces) => {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `crawl-plan.${format}`;
      const target = await vscode.window.showSaveDialog({
        title:
          format === 'csv' ? 'Export the hosts shown as CSV' : 'Export the plan as JSON (the estimate --json document)',
        saveLabel: 'Export',
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
        filters: format === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      });
      if (target === undefined) return undefined;
      await writePieces(target, pieces);
      return vscode.workspace.asRelativePath(target);
    },
    log: (message) => deps.log.info(message),
  });

  let panel: vscode.WebviewPanel | undefined;
  let timer: NodeJS.Timeout | undefined;
  const planChanged = deps.planner.onDidChangePlan(() => {
    if (panel === undefined) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      controller.planChanged();
    }, PLAN_CHANGE_MS);
  });

  // A simulation that ends (or starts) is sent as it happens, after any report of its plan.
  const simulationChanged = deps.planner.onDidChangeSimulation(() => {
    if (panel !== undefined && timer === undefined) controller.simulationChanged();
  });

  const create = (): vscode.WebviewPanel => {
    const dist = vscode.Uri.joinPath(context.extensionUri, 'dist');
    const media = vscode.Uri.joinPath(context.extensionUri, 'media');
    const created = vscode.window.createWebviewPanel(PLAN_REPORT_PANEL, 'Crawl Plan Report', vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [dist, media],
      retainContextWhenHidden: false,
    });
    created.iconPath = vscode.Uri.joinPath(media, 'activity.svg');
    created.webview.html = getReportHtml(created.webview, makeNonce(), {
      script: vscode.Uri.joinPath(dist, 'planReport.js'),
      style: vscode.Uri.joinPath(media, 'planReport.css'),
    });
    const post = (message: Parameters<Parameters<ReportController['attach']>[0]>[0]) =>
      created.webview.postMessage(message);
    controller.attach(post);
    const subscriptions = [
      created.webview.onDidReceiveMessage((message: unknown) => controller.receive(message)),
      // Hidden, the webview is gone (not retained); shown again, it loads and says `ready`.
      created.onDidChangeViewState(() => {
        if (!created.visible) controller.attach(post);
      }),
    ];
    created.onDidDispose(() => {
      if (panel === created) panel = undefined;
      controller.detach();
      clearTimeout(timer);
      subscriptions.forEach((s) => s.dispose());
    });
    return created;
  };

  const report: PlanReport = {
    open: async () => {
      const answered = controller.answeredReadies;
      if (panel !== undefined && panel.visible) {
        panel.reveal();
        controller.planChanged();
        return true;
      }
      if (panel === undefined) panel = create();
      else panel.reveal();
      let wait: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>(
        (resolve) => (wait = setTimeout(() => resolve(false), REPORT_READY_TIMEOUT_MS)),
      );
      return Promise.race([controller.readyAnswered(answered).then(() => true), timeout]).finally(() =>
        clearTimeout(wait),
      );
    },
    dispose: () => {
      planChanged.dispose();
      simulationChanged.dispose();
      clearTimeout(timer);
      panel?.dispose();
    },
  };
  return report;
}
