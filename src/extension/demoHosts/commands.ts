/**
 * Crawl Planner: Start Demo Hosts and Stop Demo Hosts.
 *
 * `crawlPlanner.startDemoHosts()` starts the loopback demo hosts (or keeps the running ones) and
 * resolves to `{ hosts: [{ name, origin, baseUrl, seeds, description }] }`; a notification offers to
 * crawl them, copy their seeds, or list them in the log. `crawlPlanner.stopDemoHosts()` stops them and
 * resolves to whether any were running. The `demoHostsRunning` context key follows.
 */
import * as vscode from 'vscode';
import type { DemoHostsService, DemoHostSummary } from './hosts';
import { COMMANDS } from '../ids';
import type { Log } from '../log';
import { runCommand } from '../commandRun';

export interface DemoCommandsDeps {
  demo: DemoHostsService;
  log: Log;
}

export function registerDemoCommands(context: vscode.ExtensionContext, deps: DemoCommandsDeps): void {
  const announce = async (hosts: DemoHostSummary[], started: boolean) => {
    const listing = await deps.demo.listing();
    if (listing) deps.log.info(`Demo hosts:\n${listing}`);
    const names = hosts.map((h) => `${h.name} ${h.baseUrl}`).join(', ');
    const choice = await vscode.window.showInformationMessage(
      `${started ? 'Demo hosts started' : 'Demo hosts are running'}: ${names}`,
      'Run Test Crawl',
      'Copy Seeds',
      'Show Hosts',
    );
    if (choice === 'Run Test Crawl') {
      await vscode.commands.executeCommand(COMMANDS.runTestCrawl, { seeds: hosts.flatMap((h) => h.seeds) });
    } else if (choice === 'Copy Seeds') {
      await vscode.env.clipboard.writeText(hosts.flatMap((h) => h.seeds).join('\n'));
    } else if (choice === 'Show Hosts') {
      deps.log.show(true);
    }
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.startDemoHosts, () =>
      runCommand(deps.log, 'Start Demo Hosts', async () => {
        const { hosts, started } = await deps.demo.start();
        void announce(hosts, started);
        return { hosts };
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.stopDemoHosts, () =>
      runCommand(deps.log, 'Stop Demo Hosts', async () => {
        const stopped = await deps.demo.stop();
        if (!stopped) void vscode.window.showInformationMessage('The demo hosts are not running.');
        return stopped;
      }),
    ),
  );
}
