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
import { parseChangedSince } from '../../core/sitemaps/lastmod';
import { addressOverrides, resolveHttpOptions, type ConfigAccess } from '../config';
import type { ContactGuard } from '../contact';
import type { DemoHostsService } from '../demoHosts/hosts';
import { COMMANDS, SETTINGS } from '../ids';
import type { Log } from '../log';
import type { RobotsService } from '../robots/service';
import type { RunningCrawls } from '../crawl/runningCrawls';
import { SIMULATION_LIMITS } from '../../core/simulate/options';
import { toCrawlResultView } from '../../shared/planner/viewModel';
import { pickCalibrationReport, readCalibrationReport } from './calibrationFiles';
import type { HeldCalibration } from './estimates';
import { runSimulation } from './simulateRunner';
import type { PlannerViewApi, PlannerViewDeps } from './plannerView';
import { createSeedFiles, seedFileRef } from './seedFiles';
import { sitemapSizingOptions } from './sitemapsResults';
import type { SeedFileRef } from './deps';
import * as path from 'node:path';
import { argObject, CommandArgumentError, optionalBoolean, optionalNumber } from '../commandArgs';
import { estimateFromArgs } from './estimateCommand';
import { runCommand } from '../commandRun';

export interface PlannerViewDepsInput {
  config: ConfigAccess;
  robots: RobotsService;
  /** Asks for a contact before sitemap fetches reach a real host without one (as robots.txt fetches do). */
  contact: ContactGuard;
  log: Log;
  runs: RunningCrawls;
  demo: Pick<DemoHostsService, 'hosts'>;
  /** The extension's folder: the simulation's worker is its dist/simulate.js. */
  extensionUri: vscode.Uri;
}

/** How long a long list's plan waits after `planning` is posted, so that the message goes out first. */
const PLAN_LATER_MS = 10;

/** What the planner view is built with (its type is the view's own). */
export function createPlannerViewDeps(deps: PlannerViewDepsInput): PlannerViewDeps {
  return {
    getSettings: () => {
      const { userAgent, defaultDelaySeconds, delayFrom, maxCrawlDelaySeconds, crawlDelayPolicy, maxPages } =
        deps.config.read().settings;
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
    lookUpAddresses: async (hosts, options) => {
      const reading = deps.config.read();
      // The resolver (and node:dns) load on first use: activation does no I/O.
      const { lookUpSeedAddresses } = await import('../../net/seedAddresses.js');
      deps.log.info(`shared servers: looking up ${hosts.length} seed host(s)`);
      const addresses = await lookUpSeedAddresses(hosts, addressOverrides(reading.settings), {
        lookUp: true,
        notLookedUp: 'not looked up',
        signal: options.signal,
        onProgress: options.onProgress,
      });
      return { addresses, settingProblems: reading.problems.filter((p) => p.startsWith(`${SETTINGS.resolve}:`)) };
    },
    addressSettings: () => JSON.stringify(deps.config.read().settings.resolve),
    runTestCrawl: (seeds, options) =>
      vscode.commands.executeCommand(COMMANDS.runTestCrawl, {
        seeds,
        userAgent: options.userAgent,
        delay: options.delaySeconds,
        delayFrom: options.delayFrom,
        maxPages: options.maxPages,
        ...(options.pagesFor ? { pagesFor: options.pagesFor } : {}),
        ...(options.politenessBy ? { politenessBy: options.politenessBy } : {}),
      }),
    openRobots: (origin, line) => vscode.commands.executeCommand(COMMANDS.openRobotsTxt, origin, line),
    openReport: () => vscode.commands.executeCommand(COMMANDS.openPlanReport),
    exportPlan: () => vscode.commands.executeCommand(COMMANDS.exportPlan),
    sizeFromSitemaps: async (urls, options) => {
      await deps.contact.check(urls, 'sitemap fetch');
      const s = deps.config.read().settings;
      const [{ userAgentHeader }, { sizeFromSitemaps }] = await Promise.all([
        import('../../net/userAgent.js'),
        import('../../net/sitemaps.js'),
      ]);
      const header = userAgentHeader(options.userAgent, s.contactUrl);
      // The robots.txt cache the planner's robots.txt check uses: a robots.txt read there is not fetched again.
      const cache = await deps.robots.cacheFor(header);
      deps.log.info(`sitemaps: sizing ${urls.length} origin(s) as ${options.userAgent}`);
      return sizeFromSitemaps(
        urls,
        sitemapSizingOptions(options, {
          userAgentHeader: header,
          robotsTimeoutSeconds: s.robotsTxtTimeoutSeconds,
          cache,
          http: resolveHttpOptions(s),
        }),
        options.signal,
      );
    },
    files: createSeedFiles(),
    expectedLocalHosts: () => new Set((deps.demo.hosts ?? []).map((h) => new URL(h.origin).host)),
    defer: (work) => void setTimeout(work, PLAN_LATER_MS),
    log: (message) => deps.log.info(message),
    onDidEndCrawl: (listener) =>
      deps.runs.onDidEnd((end) => {
        if (!end.summary) return;
        const file =
          end.reportUri === undefined
            ? undefined
            : end.reportUri.scheme === 'file'
              ? vscode.workspace.asRelativePath(end.reportUri, false)
              : end.reportUri.toString(true);
        listener(
          toCrawlResultView(end.name, end.exitCode, end.summary),
          end.report === undefined ? undefined : { report: end.report, ...(file === undefined ? {} : { file }) },
        );
      }),
    pickCalibrationReport: () => pickCalibrationReport(deps.config.read().settings.reportFolder),
    simulate: (plan, options, signal) =>
      runSimulation(
        { file: vscode.Uri.joinPath(deps.extensionUri, 'dist', 'simulate.js').fsPath },
        plan,
        options,
        signal,
      ),
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

/**
 * A file or folder named by a command argument: a `file:`/other URI string, or a path (absolute, or relative to
 * the first workspace folder). `what` names it in the error. Throws CommandArgumentError.
 */
export function pathArgumentUri(what: string, arg: unknown): vscode.Uri {
  const text = typeof arg === 'string' ? arg : arg instanceof vscode.Uri ? arg.toString() : undefined;
  if (text === undefined || text.trim() === '' || text.length > 8192)
    throw new CommandArgumentError(`${what}: give a path or a URI`);
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(text)) return vscode.Uri.parse(text, true);
  if (path.isAbsolute(text)) return vscode.Uri.file(text);
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder === undefined) throw new CommandArgumentError(`${what}: "${text}" is relative and no folder is open`);
  return vscode.Uri.joinPath(folder, text);
}

/** A seeds file named by an argument (see pathArgumentUri). */
export function seedsFileUri(arg: unknown): vscode.Uri {
  return pathArgumentUri('the seeds file', arg);
}

export function registerPlannerCommands(context: vscode.ExtensionContext, deps: PlannerCommandsDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.calibrateFromReport, (arg?: unknown) =>
      runCommand(deps.log, 'Calibrate from Crawl Report', async () => {
        let held: HeldCalibration | undefined;
        if (arg === undefined) held = await pickCalibrationReport(deps.config.read().settings.reportFolder);
        else {
          // The file is the argument: one that is not a crawl report is a bad argument (the caller learns why).
          const uri = pathArgumentUri('the crawl report', arg);
          held = await readCalibrationReport(uri).catch((err: unknown) => {
            throw new CommandArgumentError(err instanceof Error ? err.message : String(err));
          });
        }
        if (held === undefined) return undefined;
        const used = deps.view.useCalibration(held);
        if (arg === undefined) await deps.view.reveal();
        return used;
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.planWithTestCrawl, (arg?: unknown) =>
      runCommand(deps.log, 'Plan with What the Test Crawl Measured', async () => {
        const on = optionalBoolean('the argument', arg) ?? true;
        const used = deps.view.useCalibration(on ? 'crawl' : 'off');
        if (arg === undefined) await deps.view.reveal();
        return used;
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.simulatePlan, (arg?: unknown) =>
      runCommand(deps.log, 'Simulate Plan', async () => {
        if (arg === false) {
          deps.view.stopSimulating();
          return null;
        }
        const args = argObject(COMMANDS.simulatePlan, arg);
        const unknown = Object.keys(args).filter((k) => k !== 'runs' && k !== 'seed');
        if (unknown.length > 0)
          throw new CommandArgumentError(`unknown argument: ${unknown.join(', ')} (known: runs, seed)`);
        const runs = optionalNumber('runs', args.runs, SIMULATION_LIMITS.runs);
        const seed = optionalNumber('seed', args.seed, SIMULATION_LIMITS.seed);
        const ended = await deps.view.simulateNow({
          ...(runs === undefined ? {} : { runs }),
          ...(seed === undefined ? {} : { seed }),
        });
        if (arg === undefined) await deps.view.reveal();
        if (ended.state === 'error') throw new Error(ended.message);
        if (ended.state !== 'done')
          throw new Error('there is no plan to simulate: enter seeds and pages in the planner');
        return ended.simulation;
      }),
    ),
  );
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.loadSeedsFile, (arg?: unknown) =>
      runCommand(deps.log, 'Load Seeds from File', async () => {
        let ref: SeedFileRef | undefined;
        if (arg === undefined) {
          ref = await createSeedFiles().pick();
          if (ref === undefined) return undefined;
        } else {
          ref = seedFileRef(seedsFileUri(arg));
        }
        await deps.view.useSeedsFile(ref);
        const seeds = deps.view.currentSeedsView();
        if (arg === undefined) await deps.view.reveal();
        return seeds.source === 'file' ? seeds.file : undefined;
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.sizeFromSitemaps, (arg?: unknown) =>
      runCommand(deps.log, 'Size Pages from Sitemaps', async () => {
        const args = arg === undefined ? undefined : argObject('Size Pages from Sitemaps', arg);
        const changedSince = args?.changedSince ?? '';
        if (typeof changedSince !== 'string')
          throw new CommandArgumentError('changedSince: a date (2024-05-01) or a duration (30d)');
        if (changedSince.trim() !== '') {
          const read = parseChangedSince(changedSince, Date.now());
          if ('problem' in read) throw new CommandArgumentError(`changedSince: ${read.problem}`);
        }
        if (args === undefined) await deps.view.reveal();
        const state = await deps.view.sizeFromSitemaps(changedSince);
        if (state.state === 'error') throw new Error(state.message);
        return state;
      }),
    ),
    vscode.commands.registerCommand(COMMANDS.openPlanner, () =>
      runCommand(deps.log, 'Open Planner', () => Promise.resolve(deps.view.reveal())),
    ),
    vscode.commands.registerCommand(COMMANDS.copyPlanJson, (arg?: unknown) =>
      runCommand(deps.log, 'Copy Plan as JSON', async () => {
        let json: string | undefined;
        if (arg !== undefined) {
          json = JSON.stringify(estimateFromArgs(arg, deps.config.read().settings).document, null, 2);
        } else {
          json = deps.view.currentPlanJson();
          if (json === undefined) {
            const choice = await vscode.window.showInformationMessage(
              'There is no plan yet: enter seeds and pages in the planner.',
              'Open Planner',
            );
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
