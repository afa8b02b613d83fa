/**
 * The sidebar planner's side of the extension: the deps it is built with (settings, trust, robots.txt
 * through the shared cache, and the commands it triggers), and the two commands that delegate to it.
 *
 * `crawlPlanner.openPlanner()` reveals the view and resolves to true once it shows the planner's state
 * (false when the view did not load within 10 s). `crawlPlanner.copyPlanJson()` copies the planner's
 * current plan as the `estimate --json` document; `crawlPlanner.copyPlanJson({ urls, pages, … })`
 * (the estimate command's arguments) plans those instead. Both resolve to the JSON text copied.
 */
import * as vscode from 'vscode';
import type { ConfigAccess } from '../config';
import { COMMANDS } from '../ids';
import type { Log } from '../log';
import type { RobotsService } from '../robots/service';
import type { RunningCrawls } from '../task/runningCrawls';
import { toCrawlResultView } from '../../shared/protocol';
import type { PlannerViewApi, PlannerViewDeps } from '../view/plannerView';
import { estimateFromArgs } from './estimate';
import { runCommand } from './run';

export interface PlannerViewDepsInput {
  config: ConfigAccess;
  robots: RobotsService;
  log: Log;
  runs: RunningCrawls;
}

/** What the planner view is built with (its type is the view's own). */
export function createPlannerViewDeps(deps: PlannerViewDepsInput): PlannerViewDeps {
  return {
    getSettings: () => {
      const { userAgent, defaultDelaySeconds, delayFrom, maxCrawlDelaySeconds, crawlDelayPolicy, maxPages } = deps.config.read().settings;
      return { userAgent, defaultDelaySeconds, delayFrom, maxCrawlDelaySeconds, crawlDelayPolicy, maxPages };
    },
    isTrusted: () => vscode.workspace.isTrusted,
    inspectRobots: (urls, options) =>
      deps.robots.inspect({
        urls,
        productToken: options.userAgent,
        configuredDelaySeconds: options.configuredDelaySeconds,
        crawlDelayPolicy: options.crawlDelayPolicy,
        maxCrawlDelaySeconds: options.maxCrawlDelaySeconds,
        signal: options.signal,
      }),
    runTestCrawl: (seeds, options) =>
      vscode.commands.executeCommand(COMMANDS.runTestCrawl, {
        seeds,
        userAgent: options.userAgent,
        delay: options.delaySeconds,
        delayFrom: options.delayFrom,
        maxPages: options.maxPages,
      }),
    openRobots: (origin, line) => vscode.commands.executeCommand(COMMANDS.openRobotsTxt, origin, line),
    log: (message) => deps.log.info(message),
    onDidEndCrawl: (listener) =>
      deps.runs.onDidEnd((end) => {
        if (end.summary) listener(toCrawlResultView(end.name, end.exitCode, end.summary));
      }),
    onDidChangeSettings: (listener) => {
      const subscriptions = [deps.config.onDidChange(listener), vscode.workspace.onDidGrantWorkspaceTrust(listener)];
      return { dispose: () => subscriptions.forEach((s) => s.dispose()) };
    },
  };
}

export interface PlannerCommandsDeps {
  view: PlannerViewApi;
  config: ConfigAccess;
  log: Log;
}

export function registerPlannerCommands(context: vscode.ExtensionContext, deps: PlannerCommandsDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.openPlanner, () => runCommand(deps.log, 'Open Planner', () => Promise.resolve(deps.view.reveal()))),
    vscode.commands.registerCommand(COMMANDS.copyPlanJson, (arg?: unknown) =>
      runCommand(deps.log, 'Copy Plan as JSON', async () => {
        let json: string | undefined;
        if (arg !== undefined) {
          json = JSON.stringify(estimateFromArgs(arg, deps.config.read().settings).document, null, 2);
        } else {
          json = deps.view.currentPlanJson();
          if (json === undefined) {
            const choice = await vscode.window.showInformationMessage('There is no plan yet: enter seeds and pages in the planner.', 'Open Planner');
            if (choice === 'Open Planner') await deps.view.reveal();
            return undefined;
          }
        }
        await vscode.env.clipboard.writeText(json);
        vscode.window.setStatusBarMessage('$(check) Crawl plan copied as JSON', 3000);
        return json;
      }),
    ),
  );
}
