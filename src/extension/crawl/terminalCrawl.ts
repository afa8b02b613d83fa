/**
 * One test crawl in a terminal: the same steps and the same lines as `crawl-planner crawl` (plan text,
 * then one line per event from the shared formatter, then `Report: <path>`), written to a sink with
 * `\r\n` line ends. The Pseudoterminal (crawlPseudoterminal.ts) only adapts this to VS Code.
 *
 * Before anything touches the network: a crawl asked for by the workspace (tasks.json) refuses to run
 * until the workspace is trusted, and the options are validated (exit code 2 when they are bad, as
 * the CLI's). The crawl's exit code is the session's: 0 ran to its end, 1 ended early or hosts were
 * dropped (or it failed).
 */
import * as vscode from 'vscode';
import type { CrawlSummary } from '../../core/crawl/events';
import type { CrawlReport } from '../../core/crawl/crawlReport';
import { colors } from '../../core/format/ansi';
import { createCrawlFormatter, toTerminal } from '../../core/format/crawlLines';
import { holdLinesUntilPlan } from '../../core/format/heldLines';
import { formatHostComparison } from '../../core/format/hostComparisonText';
import { formatPlanText } from '../../core/format/planText';
import { EXIT_FAILED, EXIT_USAGE } from '../../core/exitCodes';
import { sanitizeText } from '../../core/format/table';
import { resolveHttpOptions, type ConfigAccess } from '../config';
import { ContactRequiredError, type ContactGuard } from '../contact';
import type { RobotsService } from '../robots/service';
import { errorMessage, logCrawlEvent, type Log } from '../log';
import type { RunningCrawls } from './runningCrawls';
import { resolveCrawlTask, TaskDefinitionError, type ResolvedCrawlTask } from './definition';
import { displayPath, reportTarget, writeReport } from './reportFile';

export interface TerminalSink {
  /** Text with `\r\n` line ends. */
  write(text: string): void;
  /** Terminal columns, when known. */
  columns(): number | undefined;
}

export interface TerminalCrawlRequest {
  /** The task definition (or the command's arguments as one). */
  definition: unknown;
  /** True when the workspace supplied the definition (tasks.json): it needs workspace trust. */
  fromWorkspace: boolean;
  /** The workspace folder for settings and the report, when there is one. */
  folder: vscode.WorkspaceFolder | undefined;
  /** Shown in the status bar and the log. */
  name: string;
}

export interface TerminalCrawlOutcome {
  exitCode: number;
  reportUri?: vscode.Uri;
  /** The crawl's summary, when it ran. */
  summary?: CrawlSummary;
  /** The report, when the crawl ran (written to `reportUri`, or not when that failed). */
  report?: CrawlReport;
}

export interface TerminalCrawlDeps {
  config: ConfigAccess;
  log: Log;
  runs: RunningCrawls;
  robots: RobotsService;
  /** Asks for a contact before a crawl reaches a real host without one. */
  contact: ContactGuard;
  /** Where reports go without a workspace folder (context.globalStorageUri). */
  storageUri: vscode.Uri;
  isTrusted(): boolean;
}

export interface TerminalCrawl {
  done: Promise<TerminalCrawlOutcome>;
  /** Stop: no new requests; in-flight ones end within the timeout; the report is still written. */
  stop(): void;
}

const { red, bold, dim } = colors(true);

export function startTerminalCrawl(
  request: TerminalCrawlRequest,
  deps: TerminalCrawlDeps,
  sink: TerminalSink,
): TerminalCrawl {
  const out = (...lines: string[]) => sink.write(toTerminal(lines));
  const abort = new AbortController();
  let stopSession: (() => void) | undefined;
  let stopping = false;

  const stop = () => {
    if (stopping) return;
    stopping = true;
    abort.abort();
    stopSession?.();
  };

  const run = async (): Promise<TerminalCrawlOutcome> => {
    // 1. Workspace trust: nothing the workspace supplied runs in Restricted Mode.
    if (request.fromWorkspace && !deps.isTrusted()) {
      out(
        red('This crawlPlanner task comes from the workspace (tasks.json), and the workspace is not trusted.'),
        'Crawl Planner runs no crawl a workspace defines in Restricted Mode. Trust the workspace',
        '(Workspaces: Manage Workspace Trust) and run the task again, or start a test crawl yourself',
        'with "Crawl Planner: Run Test Crawl".',
      );
      deps.log.warn(`${request.name}: refused, the workspace is not trusted`);
      return { exitCode: EXIT_FAILED };
    }

    // 2. Options: the definition over the settings, validated before any I/O.
    const reading = deps.config.read(request.folder?.uri);
    for (const p of reading.problems) deps.log.warn(`Settings: ${p}`);
    for (const key of reading.ignoredWorkspaceValues)
      deps.log.info(`Settings: the workspace value of ${key} is ignored in Restricted Mode`);
    let task: ResolvedCrawlTask;
    try {
      task = resolveCrawlTask(request.definition, reading.settings);
    } catch (err) {
      const message = err instanceof TaskDefinitionError ? err.message : errorMessage(err);
      out(red(`Invalid crawlPlanner task: ${sanitizeText(message)}`));
      deps.log.error(`${request.name}: invalid task: ${message}`);
      return { exitCode: EXIT_USAGE };
    }
    const { options } = task;
    const target = reportTarget({
      ...(task.report !== undefined ? { report: task.report } : {}),
      reportFolder: reading.settings.reportFolder,
      folder: request.folder?.uri,
      storage: deps.storageUri,
      at: new Date(),
    });

    const handle = deps.runs.begin(request.name, options.maxPages, stop);
    const finish = (outcome: TerminalCrawlOutcome): TerminalCrawlOutcome => {
      handle.end(outcome);
      deps.log.info(
        `${request.name}: exit code ${outcome.exitCode}${outcome.reportUri ? `, report ${outcome.reportUri.toString(true)}` : ''}`,
      );
      return outcome;
    };

    try {
      const hosts = [...new Set(options.seeds.map((s) => new URL(s).host))];
      out(
        bold(
          `Crawl Planner test crawl: ${options.seeds.length} seed${options.seeds.length === 1 ? '' : 's'} on ${hosts.length} host${hosts.length === 1 ? '' : 's'}, at most ${options.maxPages} pages, as ${options.userAgent}`,
        ),
        dim('Ctrl+C stops it (the report is still written).'),
        '',
      );
      deps.log.info(
        `${request.name}: starting (${options.seeds.length} seeds, max ${options.maxPages} pages, user agent ${options.userAgent})`,
      );

      // 3. No request to a real host without a contact unless the user said so (robots.txt fetches included).
      try {
        await deps.contact.check(options.seeds, request.name);
      } catch (err) {
        if (!(err instanceof ContactRequiredError)) throw err;
        out(red(sanitizeText(err.message)));
        return finish({ exitCode: EXIT_USAGE });
      }

      // 4. The crawl and its plan together: each host starts as soon as its own robots.txt (its first
      // request) is in; the plan is printed once every seed's is, and the live lines wait for it.
      const { userAgentHeader } = await import('../../net/userAgent.js');
      const robotsCache = await deps.robots.cacheFor(userAgentHeader(options.userAgent, options.contactUrl));
      const session = await import('../../net/crawlSession.js');
      if (stopping) {
        out('Stopped before the crawl started.');
        return finish({ exitCode: EXIT_FAILED });
      }

      // 5. The crawl: the CLI's formatter, one event at a time.
      const formatter = createCrawlFormatter({
        color: true,
        startedAt: Date.now(),
        hosts,
        ...(sink.columns() !== undefined ? { width: sink.columns() } : {}),
      });
      const live = holdLinesUntilPlan((lines: string[]) => sink.write(toTerminal(lines)));
      const crawl = session.startPlannedCrawl(options, {
        robotsCache,
        // crawlPlanner.resolve: every connection to a host it names goes to its address (docs/extension.md#settings).
        http: resolveHttpOptions(reading.settings),
        onEvent: (event) => {
          logCrawlEvent(deps.log, event);
          if (event.type === 'progress') handle.progress(event);
          else if (event.type === 'blocking-suspected') handle.blocking(event);
          const lines = formatter.format(event);
          if (lines.length === 0) return;
          live.write(lines);
        },
      });
      const planPrinted = live.printPlan(crawl.plan, (plan) =>
        out(...formatPlanText(plan, 0, true).replace(/\n$/, '').split('\n'), ''),
      );
      stopSession = () => {
        out('', dim(`Stopping: no new requests; in-flight ones end within ${options.timeoutSeconds} s.`));
        crawl.stop();
      };
      if (stopping) stopSession();
      const result = await crawl.done;
      await planPrinted;
      // With page budgets (the sidebar's Run test crawl), each host planned against actual, as the CLI prints it.
      const perHost = result.report.comparison.hosts;
      if (perHost) out('', ...formatHostComparison(perHost));

      // 6. The report.
      try {
        await writeReport(target, result.report);
      } catch (err) {
        out(
          red(
            `Could not write the report to ${sanitizeText(displayPath(target, request.folder?.uri))}: ${sanitizeText(errorMessage(err))}`,
          ),
        );
        deps.log.error(`${request.name}: report not written: ${errorMessage(err)}`);
        return finish({ exitCode: EXIT_FAILED, summary: result.summary, report: result.report });
      }
      out('', `Report: ${sanitizeText(displayPath(target, request.folder?.uri))}`);
      return finish({ exitCode: result.exitCode, reportUri: target, summary: result.summary, report: result.report });
    } catch (err) {
      if (stopping && abort.signal.aborted && isAbort(err)) {
        out('Stopped before the crawl started.');
        return finish({ exitCode: EXIT_FAILED });
      }
      out(red(`The test crawl failed: ${sanitizeText(errorMessage(err))}`));
      deps.log.error(`${request.name}: failed: ${err instanceof Error && err.stack ? err.stack : errorMessage(err)}`);
      return finish({ exitCode: EXIT_FAILED });
    }
  };

  return { done: run(), stop };
}

function isAbort(err: unknown): boolean {
  return (
    err instanceof Error && (err.name === 'AbortError' || err.name === 'TimeoutError' || /abort/i.test(err.message))
  );
}
