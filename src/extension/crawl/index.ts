/**
 * Test crawls: the `crawlPlanner` task (taskProvider.ts), Run Test Crawl and Stop Test Crawl (commands.ts), and
 * the status bar item while one runs (statusBar.ts). The running crawls (runningCrawls.ts) are a shared service
 * the composition root makes, since the planner hears from it when a crawl ends.
 */
import * as vscode from 'vscode';
import type { DemoHostsService } from '../demoHosts/hosts';
import { registerCrawlCommands } from './commands';
import { registerCrawlStatusBar } from './statusBar';
import { registerCrawlTasks, type SeedSources } from './taskProvider';
import type { TerminalCrawlDeps } from './terminalCrawl';

export interface CrawlDeps extends Omit<TerminalCrawlDeps, 'storageUri' | 'isTrusted'> {
  demo: DemoHostsService;
  /** The planner's current seeds (offered as a task and in Run Test Crawl). */
  plannerSeeds: SeedSources['plannerSeeds'];
}

export function registerCrawl(context: vscode.ExtensionContext, deps: CrawlDeps): void {
  const { config, log, runs, robots, contact, demo } = deps;
  const seeds: SeedSources = {
    demoSeeds: () => demo.seeds,
    plannerSeeds: deps.plannerSeeds,
    state: context.workspaceState,
  };
  const tasks = registerCrawlTasks(context, {
    config,
    log,
    runs,
    robots,
    contact,
    seeds,
    isTrusted: () => vscode.workspace.isTrusted,
    storageUri: context.globalStorageUri,
  });
  registerCrawlStatusBar(context, { runs });
  registerCrawlCommands(context, { tasks, runs, demo, log, seeds });
}
