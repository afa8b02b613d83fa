/**
 * Crawl Planner: Estimate Crawl Time.
 *
 * `crawlPlanner.estimate({ urls, pages | pagesPerHost, rate?, workers?, delay?, delayFrom?, latency?,
 * show? })` plans without asking and returns the `estimate --json` document; without arguments it asks
 * for the URLs and the pages (validated as you type) and shows the plan as text, the same text the CLI
 * prints. The settings fill in the delay, how it is measured and the Crawl-delay policy. No network.
 */
import * as vscode from 'vscode';
import { formatPlanText } from '../../core/format/planText';
import { numberProblem } from '../../core/limits';
import {
  estimateDocument,
  plan,
  PLAN_LIMITS,
  PlanInputError,
  type EstimateDocument,
  type PlanInput,
} from '../../core/plan';
import { validateSeeds } from '../../core/seeds';
import type { ConfigAccess, CrawlPlannerSettings } from '../config';
import { COMMANDS } from '../ids';
import type { Log } from '../log';
import {
  argObject,
  CommandArgumentError,
  optionalBoolean,
  optionalChoice,
  optionalNumber,
  parseNumberText,
  urlList,
} from '../commandArgs';
import { runCommand } from '../commandRun';
import { askUrls } from '../urlInput';

export interface EstimateDeps {
  config: ConfigAccess;
  log: Log;
}

export interface EstimateResult {
  document: EstimateDocument;
  /** The plan as the CLI prints it, without colour. */
  text: string;
}

/** Plans from command arguments, the settings filling in the rest. Throws CommandArgumentError. */
export function estimateFromArgs(raw: unknown, settings: CrawlPlannerSettings): EstimateResult {
  const args = argObject(COMMANDS.estimate, raw);
  const urls = urlList('urls', args.urls ?? args.seeds);
  const { seeds, invalid } = validateSeeds(urls.map((text, i) => ({ text, line: i + 1, source: 'argument' })));
  if (seeds.length === 0)
    throw new CommandArgumentError(urls.length === 0 ? 'urls: give at least one URL' : 'urls: no valid http(s) URL');
  const total = optionalNumber('pages', args.pages, PLAN_LIMITS.pages);
  const perHost = optionalNumber('pagesPerHost', args.pagesPerHost, PLAN_LIMITS.pages);
  if (total !== undefined && perHost !== undefined)
    throw new CommandArgumentError('pages and pagesPerHost: give one, not both');
  if (total === undefined && perHost === undefined)
    throw new CommandArgumentError('pages: give the total pages (or pagesPerHost)');
  const input: PlanInput = {
    seeds,
    pages: total !== undefined ? { total } : { perHost: perHost! },
    delaySeconds: optionalNumber('delay', args.delay, PLAN_LIMITS.delaySeconds) ?? settings.defaultDelaySeconds,
    delayFrom: optionalChoice('delayFrom', args.delayFrom, ['start', 'end'] as const) ?? settings.delayFrom,
    crawlDelayPolicy: settings.crawlDelayPolicy,
    maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
  };
  const rate = optionalNumber('rate', args.rate, PLAN_LIMITS.rate);
  if (rate !== undefined) input.rate = rate;
  const workers = optionalNumber('workers', args.workers, PLAN_LIMITS.workers);
  if (workers !== undefined) input.workers = workers;
  const latency = optionalNumber('latency', args.latency, PLAN_LIMITS.latencySeconds);
  if (latency !== undefined) input.latencySeconds = latency;
  try {
    const result = plan(input);
    return { document: estimateDocument(result, invalid), text: formatPlanText(result, invalid.length, false) };
  } catch (err) {
    if (err instanceof PlanInputError) throw new CommandArgumentError(err.message);
    throw err;
  }
}

/** "Pages in total": a whole number from 1 to 10^12, commas allowed. */
function pagesProblem(text: string): string | undefined {
  const problem = numberProblem(parseNumberText(text), PLAN_LIMITS.pages);
  if (problem === 'not-finite' || problem === 'not-whole')
    return 'Enter a whole number of pages, e.g. 10000 or 1,000,000.';
  if (problem !== undefined) return `Enter a number from 1 to ${PLAN_LIMITS.pages.max.toExponential()}.`;
  return undefined;
}

export function registerEstimateCommand(context: vscode.ExtensionContext, deps: EstimateDeps): void {
  // The last answers, offered again next time (this registration's own state).
  let lastUrls = '';
  let lastPages = '10000';

  const show = async (result: EstimateResult, settings: CrawlPlannerSettings) => {
    const d = result.document;
    const head = [
      `Crawl estimate: ${d.totalPages.toLocaleString('en-US')} pages on ${d.hosts.length} host${d.hosts.length === 1 ? '' : 's'} take ${d.totalHuman}.`,
      `Settings: delay ${settings.defaultDelaySeconds} s (${settings.delayFrom === 'start' ? 'start to start' : 'end to start'}), ` +
        `Crawl-delay policy ${settings.crawlDelayPolicy} (cap ${settings.maxCrawlDelaySeconds} s). No robots.txt was fetched; ` +
        "the planner (Crawl Planner: Open Planner) can take each host's Crawl-delay into account.",
      '',
    ];
    const document = await vscode.workspace.openTextDocument({
      language: 'plaintext',
      content: head.join('\n') + result.text,
    });
    await vscode.window.showTextDocument(document, { preview: true });
  };

  const interactive = async (): Promise<EstimateDocument | undefined> => {
    const typed = await askUrls({
      title: 'Estimate Crawl Time (1/2)',
      prompt: 'Seed URLs, separated by commas or spaces',
      placeHolder: 'https://a.example/ https://b.example/',
      value: lastUrls,
    });
    if (typed === undefined) return undefined;
    lastUrls = typed.text;
    const hosts = new Set(validateSeeds(typed.urls.map((text, i) => ({ text, line: i + 1 }))).seeds.map((s) => s.host))
      .size;
    const pagesText = await vscode.window.showInputBox({
      title: 'Estimate Crawl Time (2/2)',
      prompt: `Pages in total, spread evenly over ${hosts} host${hosts === 1 ? '' : 's'}`,
      value: lastPages,
      ignoreFocusOut: true,
      validateInput: (text) => pagesProblem(text) ?? null,
    });
    if (pagesText === undefined) return undefined;
    lastPages = pagesText;
    const settings = deps.config.read().settings;
    const result = estimateFromArgs({ urls: typed.urls, pages: parseNumberText(pagesText) }, settings);
    await show(result, settings);
    return result.document;
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.estimate, (arg?: unknown) =>
      runCommand(deps.log, 'Estimate Crawl Time', async () => {
        if (arg === undefined) return interactive();
        const settings = deps.config.read().settings;
        const result = estimateFromArgs(arg, settings);
        if (optionalBoolean('show', argObject(COMMANDS.estimate, arg).show) !== false) await show(result, settings);
        return result.document;
      }),
    ),
  );
}
