/**
 * Crawl Planner: Run Test Crawl and Stop Test Crawl.
 *
 * `crawlPlanner.runTestCrawl({ seeds, maxPages?, maxDepth?, delay?, delayFrom?, concurrency?, timeout?,
 * userAgent?, politenessBy?, report? })` (the task definition's properties; `seeds` may also be a string of URLs)
 * starts a test crawl and resolves when it ends with `{ exitCode, report }` (`report`: the report
 * file's URI as a string), or undefined when it did not run. Without arguments it asks which seeds:
 * the demo hosts (started if needed), the planner's seeds, or URLs typed in.
 *
 * `crawlPlanner.stopTestCrawl()` stops every running test crawl and returns how many.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../ids';
import type { Log } from '../log';
import type { DemoHostsService } from '../demoHosts/hosts';
import type { RunningCrawls } from './runningCrawls';
import { definitionFrom, TASK_PROPERTIES } from './definition';
import { rememberSeeds, type CrawlTasks, type SeedSources } from './taskProvider';
import { argObject, checkUrls, CommandArgumentError, urlList } from '../commandArgs';
import { runCommand } from '../commandRun';
import { askUrls } from '../urlInput';

export interface CrawlCommandsDeps {
  tasks: CrawlTasks;
  runs: RunningCrawls;
  demo: DemoHostsService;
  log: Log;
  /** The planner's seeds, and where the last crawl's seeds are remembered. */
  seeds: SeedSources;
}

export interface RunTestCrawlResult {
  exitCode: number;
  /** The report file's URI, when one was written. */
  report?: string;
}

type SeedChoice = { source: 'demo' | 'planner' | 'enter'; label: string; description?: string; detail?: string };

export function registerCrawlCommands(context: vscode.ExtensionContext, deps: CrawlCommandsDeps): void {
  const askSeeds = async (): Promise<{ seeds: string[]; name: string } | undefined> => {
    const planner = deps.seeds.plannerSeeds();
    const demo = deps.demo.hosts;
    const choices: SeedChoice[] = [
      {
        source: 'demo',
        label: '$(server-process) Demo hosts',
        description: demo ? `${demo.length} hosts running` : 'starts them first',
        detail: 'Loopback hosts that misbehave on purpose: latency, Crawl-delay, 429 with Retry-After, 503s.',
      },
      ...(planner.length > 0
        ? [
            {
              source: 'planner' as const,
              label: '$(list-flat) Planner seeds',
              description: `${planner.length} URL${planner.length === 1 ? '' : 's'}`,
              detail: planner.slice(0, 4).join('  '),
            },
          ]
        : []),
      { source: 'enter', label: '$(edit) Enter seed URLs…' },
    ];
    const picked = await vscode.window.showQuickPick(choices, {
      title: 'Run Test Crawl: which seeds?',
      ignoreFocusOut: true,
    });
    if (!picked) return undefined;
    switch (picked.source) {
      case 'demo': {
        const { hosts } = await deps.demo.start();
        return { seeds: hosts.flatMap((h) => h.seeds), name: 'test crawl: demo hosts' };
      }
      case 'planner':
        return { seeds: planner, name: 'test crawl: planner seeds' };
      case 'enter': {
        const typed = await askUrls({
          title: 'Run Test Crawl',
          prompt: 'Seed URLs, separated by commas or spaces. The crawl stays on their hosts and obeys robots.txt.',
          placeHolder: 'https://www.example.com/',
        });
        return typed === undefined ? undefined : { seeds: typed.urls, name: 'test crawl' };
      }
    }
  };

  const runTestCrawl = async (arg: unknown): Promise<RunTestCrawlResult | undefined> => {
    let args: Record<string, unknown>;
    let name = 'test crawl';
    if (arg === undefined) {
      const chosen = await askSeeds();
      if (!chosen) return undefined;
      args = { seeds: chosen.seeds };
      name = chosen.name;
    } else {
      args = { ...argObject(COMMANDS.runTestCrawl, arg) };
      const unknown = Object.keys(args).filter((k) => !(TASK_PROPERTIES as readonly string[]).includes(k));
      if (unknown.length > 0)
        throw new CommandArgumentError(
          `unknown argument${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')} (known: ${TASK_PROPERTIES.join(', ')})`,
        );
      args.seeds = urlList('seeds', args.seeds);
    }
    const seeds = args.seeds as string[];
    const checked = checkUrls(seeds);
    if ('problem' in checked) throw new CommandArgumentError(`seeds: ${checked.problem}`);
    const demoSeeds = new Set(deps.demo.seeds);
    if (!seeds.every((s) => demoSeeds.has(s))) rememberSeeds(deps.seeds.state, seeds);
    const started = await deps.tasks.run(definitionFrom(args), name);
    deps.log.info(`Run Test Crawl: started in ${started.via === 'task' ? 'a task' : 'an extension terminal'}`);
    const outcome = await started.outcome;
    if (!outcome) return undefined;
    return { exitCode: outcome.exitCode, ...(outcome.reportUri ? { report: outcome.reportUri.toString() } : {}) };
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.runTestCrawl, (arg?: unknown) =>
      runCommand(deps.log, 'Run Test Crawl', () => runTestCrawl(arg)),
    ),
    vscode.commands.registerCommand(COMMANDS.stopTestCrawl, () =>
      runCommand(deps.log, 'Stop Test Crawl', async () => {
        const stopped = deps.runs.stopAll();
        if (stopped === 0) vscode.window.setStatusBarMessage('No test crawl is running.', 3000);
        return stopped;
      }),
    ),
  );
}
