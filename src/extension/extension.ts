/**
 * The extension's composition root (ARCHITECTURE.md §Composition root): each feature is a `register…(context, deps)` that
 * owns its disposables; activate() only wires them. Activation does no network and no heavy work: the
 * net and demo modules are loaded on first use.
 */
import * as vscode from 'vscode';
import { registerCrawlCommands } from './crawl/commands';
import { registerDemoCommands } from './demoHosts/commands';
import { registerEstimateCommand } from './planner/estimateCommand';
import { registerExportCommand } from './planner/exportCommand';
import { createPlannerViewDeps, registerPlannerCommands } from './planner/commands';
import { registerRobotsCommands } from './robots/commands';
import { createConfigAccess } from './config';
import { createContactGuard } from './contact';
import { registerDemoHosts } from './demoHosts/hosts';
import { SETTINGS } from './ids';
import { createLog } from './log';
import { registerPlanReport } from './planReport/panel';
import { registerRobotsService } from './robots/service';
import { createRobotsTxtDeps, registerRobotsTxtFeatures } from './robotsTxtEditor';
import { registerCrawlStatusBar } from './crawl/statusBar';
import { registerRunningCrawls } from './crawl/runningCrawls';
import { registerCrawlTasks } from './crawl/taskProvider';
import { registerPlannerView } from './planner/plannerView';
import { registerSeedsFromCode } from './seedsFromCode';

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog(context);
  const config = createConfigAccess(vscode.workspace);
  const runs = registerRunningCrawls(context);
  const demo = registerDemoHosts(context, { log });
  const contact = createContactGuard({
    contact: () => config.read().settings.contactUrl,
    state: context.workspaceState,
    ask: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
    openSetting: () => vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.contactUrl),
    log,
  });
  const robots = registerRobotsService(context, { config, contact, log });
  const view = registerPlannerView(
    context,
    createPlannerViewDeps({ config, robots, contact, log, runs, demo, extensionUri: context.extensionUri }),
  );
  const seeds = { demoSeeds: () => demo.seeds, plannerSeeds: () => view.currentSeeds(), state: context.workspaceState };
  const isTrusted = () => vscode.workspace.isTrusted;
  const tasks = registerCrawlTasks(context, {
    config,
    log,
    runs,
    robots,
    contact,
    seeds,
    isTrusted,
    storageUri: context.globalStorageUri,
  });
  registerCrawlStatusBar(context, { runs });
  registerCrawlCommands(context, { tasks, runs, demo, log, seeds });
  registerEstimateCommand(context, { config, log });
  registerRobotsCommands(context, { robots, log });
  registerDemoCommands(context, { demo, log });
  registerPlannerCommands(context, { view, config, log });
  registerExportCommand(context, { view, config, log });
  registerPlanReport(context, { planner: view, log });
  registerSeedsFromCode(context, { view, log, storageUri: context.storageUri ?? context.globalStorageUri });
  registerRobotsTxtFeatures(
    context,
    createRobotsTxtDeps({
      config,
      robots,
      contact,
      log,
      plannedPages: () => view.currentPlanPages(),
      onDidChangePlannedPages: (listener) => view.onDidChangePlannedPages(listener),
    }),
  );
  log.info(`Crawl Planner ${String(context.extension.packageJSON.version)} activated`);
}

/** Everything is disposed through context.subscriptions (running crawls stop, demo hosts close). */
export function deactivate(): void {}
