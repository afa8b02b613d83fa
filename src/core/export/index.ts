/**
 * `exportPlan(format, plan, options)`: a plan as files for the crawler that runs it at scale (Scrapy, Crawlee,
 * Nutch, StormCrawler), with notes on how to run it and what the framework does differently. Pure: the
 * caller writes the files. docs/exports.md describes each format.
 */
import { numberProblem, numberProblemText, type NumberLimit } from '../limits';
import { contactProblem } from '../identity';
import { formatNumber } from '../format/duration';
import type { Plan } from '../plan';
import { validateProductToken } from '../robots/token';
import { nutchFiles, seedListsText, stormCrawlerFiles } from './cluster';
import { crawleeFiles, crawleeHowToRun } from './crawlee';
import { differences } from './differences';
import { exportShards, type ExportShards } from './hosts';
import { planData } from './planData';
import { scrapyFiles, scrapyHowToRun } from './scrapy';
import {
  EXPORT_DEFAULTS,
  EXPORT_FORMATS,
  EXPORT_LIMITS,
  ExportInputError,
  type ExportFormat,
  type ExportOptions,
  type ExportResult,
} from './types';

export { CRAWLEE_VERSION } from './crawlee';
export { nutchProperties, stormCrawlerProperties, type ConfProperty, type ConfType } from './cluster';
export { commentBlock, commentLine, jsString, pyString, xmlText, yamlString } from './literals';
export { PLAN_DATA_SCHEMA_VERSION, type PlanData } from './planData';
export { SCRAPY_DOWNLOADER_MIDDLEWARES } from './scrapy';
export * from './types';

function checkNumber(name: string, value: number, limit: NumberLimit): void {
  const problem = numberProblem(value, limit);
  if (problem) throw new ExportInputError(`${name}: ${numberProblemText(problem, String(value), limit)}`);
}

/** A header value may not hold line breaks or other control characters (RFC 9110 §5.5). */
function checkHeader(header: string): void {
  if (header.trim() === '' || /[\u0000-\u001f\u007f]/.test(header))
    throw new ExportInputError('the User-Agent header is empty or has a control character');
}

function leftOutNotes(shards: ExportShards): string[] {
  const notes: string[] = [];
  if (shards.skippedHosts.length > 0) {
    notes.push(
      `${formatNumber(shards.skippedHosts.length)} ${shards.skippedHosts.length === 1 ? 'host is' : 'hosts are'} left out: skipped by the plan for a Crawl-delay above the cap.`,
    );
  }
  if (shards.hostsWithoutPages.length > 0) {
    notes.push(
      `${formatNumber(shards.hostsWithoutPages.length)} ${shards.hostsWithoutPages.length === 1 ? 'host is' : 'hosts are'} left out: the plan gives ${shards.hostsWithoutPages.length === 1 ? 'it' : 'them'} no pages.`,
    );
  }
  const unknown = shards.hostsPagesUnknown;
  if (unknown.length > 0) {
    notes.push(
      `${formatNumber(unknown.length)} ${unknown.length === 1 ? 'host is' : 'hosts are'} left out: ${unknown.length === 1 ? 'its' : 'their'} pages are unknown (${unknown.slice(0, 3).join(', ')}${unknown.length > 3 ? ', …' : ''}); give ${unknown.length === 1 ? 'it a number' : 'each a number'} of pages to export ${unknown.length === 1 ? 'it' : 'them'}.`,
    );
  }
  if (shards.seedsLeftOut > 0)
    notes.push(
      `${formatNumber(shards.seedsLeftOut)} ${shards.seedsLeftOut === 1 ? 'seed is' : 'seeds are'} left out with ${shards.seedsLeftOut === 1 ? 'its host' : 'their hosts'}.`,
    );
  return notes;
}

function howToRun(format: ExportFormat, machines: number): string {
  switch (format) {
    case 'scrapy':
      return scrapyHowToRun(machines);
    case 'crawlee':
      return crawleeHowToRun(machines);
    case 'nutch':
      return `Use: conf/nutch-site.xml as your Nutch conf/nutch-site.xml (or merge its properties), then inject ${seedListsText('nutch', machines)}.`;
    case 'stormcrawler':
      return `Use: crawler-conf.yaml with -conf (or merge its keys into your topology's configuration), then inject ${seedListsText('stormcrawler', machines)}.`;
  }
}

/**
 * The files of `format` for `plan`, made from `options.seeds` (the seeds the plan was made from). Throws
 * {@link ExportInputError} for an unknown format, a bad product token, contact or header, a seed that is not
 * an http(s) URL, or a plan with nothing to crawl.
 */
export function exportPlan(format: ExportFormat, plan: Plan, options: ExportOptions): ExportResult {
  if (!(EXPORT_FORMATS as readonly string[]).includes(format))
    throw new ExportInputError(`unknown format "${String(format)}": one of ${EXPORT_FORMATS.join(', ')}`);
  const tokenProblem = validateProductToken(options.productToken);
  if (tokenProblem !== undefined) throw new ExportInputError(tokenProblem);
  checkHeader(options.userAgentHeader);
  const contact = options.contact?.trim() ?? '';
  if (contact !== '') {
    const bad = contactProblem(contact);
    if (bad !== undefined) throw new ExportInputError(bad);
  }
  const timeoutSeconds = options.timeoutSeconds ?? EXPORT_DEFAULTS.timeoutSeconds;
  const maxRetries = options.maxRetries ?? EXPORT_DEFAULTS.maxRetries;
  checkNumber('timeoutSeconds', timeoutSeconds, EXPORT_LIMITS.timeoutSeconds);
  checkNumber('maxRetries', maxRetries, EXPORT_LIMITS.maxRetries);

  const shards = exportShards(plan, options.seeds);
  if (shards.hosts.length === 0)
    throw new ExportInputError('nothing to export: every host of the plan is skipped or has no pages');
  if (shards.seeds.every((list) => list.length === 0))
    throw new ExportInputError('nothing to export: no seed is on a host of the plan');
  const diffs = differences(format, plan, shards);
  const cluster = {
    productToken: options.productToken,
    ...(contact !== '' ? { contact } : {}),
    timeoutSeconds,
    maxRetries,
  };
  let files;
  switch (format) {
    case 'scrapy':
    case 'crawlee': {
      const data = planData(plan, shards, {
        productToken: options.productToken,
        userAgentHeader: options.userAgentHeader,
        timeoutSeconds,
        maxRetries,
      });
      files = format === 'scrapy' ? scrapyFiles(plan, shards, data, diffs) : crawleeFiles(shards, data, diffs);
      break;
    }
    case 'nutch':
      files = nutchFiles(plan, shards, cluster, diffs);
      break;
    case 'stormcrawler':
      files = stormCrawlerFiles(plan, shards, cluster, diffs);
      break;
  }
  return { format, files, notes: [howToRun(format, shards.machines), ...leftOutNotes(shards), ...diffs] };
}
