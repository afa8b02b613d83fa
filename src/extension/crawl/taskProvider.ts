/**
 * The `crawlPlanner` task type: a TaskProvider that offers a "test crawl" task when seeds are known
 * (the running demo hosts, the planner's seeds), and resolveTask so that tasks declared in tasks.json
 * run the same way. Every task runs through CustomExecution in a CrawlPseudoterminal.
 *
 * Trust: a definition that came from tasks.json, or a provided task that tasks.json customised, counts
 * as supplied by the workspace (startTerminalCrawl refuses it in Restricted Mode). A test crawl started from
 * a command in Restricted Mode (VS Code does not run tasks there) runs in a plain extension terminal.
 */
import * as vscode from 'vscode';
import { CATEGORY, TASK_TYPE } from '../ids';
import { startTerminalCrawl, type TerminalCrawlDeps, type TerminalCrawlOutcome } from './terminalCrawl';
import { CrawlPseudoterminal } from './crawlPseudoterminal';
import { definitionFrom, sameDefinition, type CrawlTaskDefinition } from './definition';

export interface CrawlTaskDeps extends TerminalCrawlDeps {
  /** Where the seeds offered as tasks come from. */
  seeds: SeedSources;
}

export interface StartedCrawl {
  /** Where it runs. */
  via: 'task' | 'terminal';
  /** Settles when the crawl ends; undefined when it never started (e.g. the task was not run). */
  outcome: Promise<TerminalCrawlOutcome | undefined>;
}

export interface CrawlTasks {
  /** A task for a definition (for `Tasks: Run Task`, or executeTask). */
  createTask(
    definition: CrawlTaskDefinition,
    name: string,
    scope?: vscode.WorkspaceFolder,
    onDone?: (o: TerminalCrawlOutcome) => void,
  ): vscode.Task;
  /** Starts a test crawl the user asked for: as a task when VS Code can run one, else in an extension terminal. */
  run(definition: CrawlTaskDefinition, name: string): Promise<StartedCrawl>;
}

type Origin = 'extension' | 'tasks.json';

function firstFolder(): vscode.WorkspaceFolder | undefined {
  return vscode.workspace.workspaceFolders?.[0];
}

function folderOf(scope: vscode.Task['scope']): vscode.WorkspaceFolder | undefined {
  return typeof scope === 'object' && scope !== null && 'uri' in scope ? scope : firstFolder();
}

export function registerCrawlTasks(context: vscode.ExtensionContext, deps: CrawlTaskDeps): CrawlTasks {
  const execution = (
    definition: vscode.TaskDefinition,
    origin: Origin,
    name: string,
    folder: vscode.WorkspaceFolder | undefined,
    onDone?: (o: TerminalCrawlOutcome) => void,
  ) =>
    new vscode.CustomExecution(async (resolved) => {
      // A provided task runs its own definition; if tasks.json changed it, the workspace supplied it.
      const fromWorkspace = origin === 'tasks.json' || !sameDefinition(resolved, definition);
      const request = { definition: fromWorkspace ? resolved : definition, fromWorkspace, folder, name };
      return new CrawlPseudoterminal((sink) => startTerminalCrawl(request, deps, sink), {
        ...(onDone ? { onDone } : {}),
        closeOnExit: true,
      });
    });

  const createTask = (
    definition: CrawlTaskDefinition,
    name: string,
    scope?: vscode.WorkspaceFolder,
    onDone?: (o: TerminalCrawlOutcome) => void,
  ) => {
    const folder = scope ?? firstFolder();
    const task = new vscode.Task(
      definition,
      folder ?? vscode.TaskScope.Workspace,
      name,
      CATEGORY,
      execution(definition, 'extension', name, folder, onDone),
      [],
    );
    task.detail = `${definition.seeds.length} seed${definition.seeds.length === 1 ? '' : 's'}: ${definition.seeds.slice(0, 3).join(' ')}${definition.seeds.length > 3 ? ' …' : ''}`;
    task.presentationOptions = {
      reveal: vscode.TaskRevealKind.Always,
      panel: vscode.TaskPanelKind.Dedicated,
      clear: true,
      focus: false,
    };
    return task;
  };

  const provider: vscode.TaskProvider = {
    provideTasks() {
      return knownSeeds(deps.seeds).map(({ label, seeds }) =>
        createTask(definitionFrom({ seeds }), `test crawl: ${label}`),
      );
    },
    resolveTask(task) {
      if (task.definition.type !== TASK_TYPE) return undefined;
      const folder = folderOf(task.scope);
      // The same definition object, as the API asks; the scope as tasks.json gave it.
      const scope = task.scope ?? vscode.TaskScope.Workspace;
      const resolved = new vscode.Task(
        task.definition,
        scope,
        task.name,
        CATEGORY,
        execution(task.definition, 'tasks.json', task.name, folder),
        [],
      );
      resolved.presentationOptions = task.presentationOptions;
      return resolved;
    },
  };
  context.subscriptions.push(vscode.tasks.registerTaskProvider(TASK_TYPE, provider));

  const runInTerminal = (definition: CrawlTaskDefinition, name: string): StartedCrawl => {
    let settle!: (o: TerminalCrawlOutcome | undefined) => void;
    const outcome = new Promise<TerminalCrawlOutcome | undefined>((resolve) => (settle = resolve));
    const request = { definition, fromWorkspace: false, folder: firstFolder(), name };
    // Closing the terminal stops the crawl (or, before it started, settles with exit code 1).
    const pty = new CrawlPseudoterminal((sink) => startTerminalCrawl(request, deps, sink), {
      onDone: settle,
      closeOnExit: false,
    });
    const terminal = vscode.window.createTerminal({
      name: `${CATEGORY}: ${name}`,
      pty,
      iconPath: new vscode.ThemeIcon('globe'),
    });
    terminal.show(true);
    return { via: 'terminal', outcome };
  };

  const run = async (definition: CrawlTaskDefinition, name: string): Promise<StartedCrawl> => {
    // VS Code runs tasks only in a trusted workspace with a folder; otherwise use an extension terminal.
    if (!vscode.workspace.isTrusted || !firstFolder()) return runInTerminal(definition, name);
    let settle!: (o: TerminalCrawlOutcome | undefined) => void;
    const outcome = new Promise<TerminalCrawlOutcome | undefined>((resolve) => (settle = resolve));
    const task = createTask(definition, name, undefined, settle);
    const started = await vscode.tasks.executeTask(task);
    const ended = vscode.tasks.onDidEndTask((e) => {
      if (e.execution === started) {
        ended.dispose();
        settle(undefined); // no-op when the crawl already reported its outcome
      }
    });
    void outcome.then(() => ended.dispose());
    return { via: 'task', outcome };
  };

  return { createTask, run };
}

// ---------------------------------------------------------------------------------------------------
// Seeds worth offering as tasks

/** workspaceState key of the seeds the last test crawl ran with (typed in, or from the planner). */
export const LAST_SEEDS_KEY = 'crawlPlanner.lastSeeds';

export interface SeedSources {
  demoSeeds(): string[];
  plannerSeeds(): string[];
  state: vscode.Memento;
}

/** The seed sets offered as "test crawl: …" tasks: the demo hosts, the planner's seeds, the last crawl's. */
export function knownSeeds(sources: SeedSources): Array<{ label: string; seeds: string[] }> {
  const sets: Array<{ label: string; seeds: string[] }> = [];
  const demo = sources.demoSeeds();
  if (demo.length > 0) sets.push({ label: 'demo hosts', seeds: demo });
  const planner = sources.plannerSeeds();
  if (planner.length > 0) sets.push({ label: 'planner seeds', seeds: planner });
  const last = sources.state.get<unknown>(LAST_SEEDS_KEY);
  if (
    Array.isArray(last) &&
    last.length > 0 &&
    last.every((s) => typeof s === 'string') &&
    last.join(' ') !== planner.join(' ')
  ) {
    sets.push({ label: 'last seeds', seeds: last as string[] });
  }
  return sets;
}

export function rememberSeeds(state: vscode.Memento, seeds: readonly string[]): void {
  void state.update(LAST_SEEDS_KEY, seeds.slice(0, 1000));
}
