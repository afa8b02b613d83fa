/**
 * The extension's composition root (ARCHITECTURE.md §Composition root): activate() makes the shared services
 * (the log, settings access, the running crawls, the contact guard) and registers each feature, one line each,
 * with its folder's `register…(context, deps)` (its index.ts), which owns its commands, providers and
 * disposables. Activation does no network and no heavy work: the net and demo modules are loaded on first use.
 */
import * as vscode from 'vscode';
import { createConfigAccess } from './config';
import { createContactGuard } from './contact';
import { registerCrawl } from './crawl';
import { registerRunningCrawls } from './crawl/runningCrawls';
import { registerDemoHosts } from './demoHosts';
import { SETTINGS } from './ids';
import { createLog } from './log';
import { registerPlanner } from './planner';
import { registerPlanReport } from './planReport';
import { registerRobots } from './robots';
import { registerRobotsTxtEditor } from './robotsTxtEditor';
import { registerSeedsFromCode } from './seedsFromCode';

export function activate(context: vscode.ExtensionContext): void {
  const log = createLog(context);
  const config = createConfigAccess(vscode.workspace);
  const runs = registerRunningCrawls(context);
  const contact = createContactGuard({
    contact: () => config.read().settings.contactUrl,
    state: context.workspaceState,
    ask: (message, ...actions) => vscode.window.showWarningMessage(message, ...actions),
    openSetting: () => vscode.commands.executeCommand('workbench.action.openSettings', SETTINGS.contactUrl),
    log,
  });

  const demo = registerDemoHosts(context, { log });
  const robots = registerRobots(context, { config, contact, log });
  const planner = registerPlanner(context, { config, robots, contact, log, runs, demo });
  registerCrawl(context, { config, log, runs, robots, contact, demo, plannerSeeds: () => planner.currentSeeds() });
  registerPlanReport(context, { planner, log });
  registerSeedsFromCode(context, { view: planner, log });
  registerRobotsTxtEditor(context, { config, robots, contact, log, planner });
  log.info(`Crawl Planner ${String(context.extension.packageJSON.version)} activated`);
}

/** Everything is disposed through context.subscriptions (running crawls stop, demo hosts close). */
export function deactivate(): void {}
