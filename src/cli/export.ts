/**
 * `crawl-planner export --format scrapy|crawlee|nutch|stormcrawler [--out DIR] SEEDS... [plan options]`: the
 * plan `estimate` prints for the same seeds and options, written as files for the crawler that runs it at
 * scale (docs/exports.md). A thin adapter: the options and the plan are estimate's (`planFromOptions`), the
 * files come from the core's `exportPlan`, and this writes them.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  EXPORT_DEFAULTS,
  EXPORT_FORMATS,
  EXPORT_LIMITS,
  ExportInputError,
  exportPathParts,
  exportPlan,
  type ExportResult,
} from '../core/export';
import { formatPlanText } from '../core/format/planText';
import { sanitizeText } from '../core/format/table';
import { realHosts } from '../core/identity';
import { userAgentHeader } from '../net/userAgent';
import { EXIT_FAILED, EXIT_OK, parse, parseChoice, parseNumber, UsageError, type Io } from './args';
import { checkContact, contactOption } from './contact';
import { ESTIMATE_HELP } from './estimate';
import { planFromOptions } from './planFromOptions';
import { PLAN_OPTIONS } from './planOptions';
import { productTokenOption } from './robots';

const OPTIONS = {
  ...PLAN_OPTIONS,
  format: { type: 'string' },
  out: { type: 'string' },
  force: { type: 'boolean' },
  'request-timeout': { type: 'string' },
  'max-retries': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** estimate's plan options (all but its own, the simulation and the output), from its help text: one list, so the two commands never describe them differently. */
function planOptionsHelp(): string {
  const start = ESTIMATE_HELP.indexOf('Pages (one of):');
  const end = ESTIMATE_HELP.indexOf('Simulation:');
  return ESTIMATE_HELP.slice(start, end).trimEnd();
}

export function exportHelp(): string {
  return `Usage: crawl-planner export --format ${EXPORT_FORMATS.join('|')} [--out DIR] [options] <seed-url>...

The plan that "crawl-planner estimate" prints for the same seeds and options, as files for the crawler that
runs it: a Scrapy project, a Crawlee script, Nutch's nutch-site.xml or StormCrawler's crawler-conf.yaml, with
seed lists (one per machine with --machines). Each export says what the framework does differently.

Export:
  --format F                ${EXPORT_FORMATS.join(' | ')} (required)
  --out DIR                 the folder to write; default crawl-plan-<format>. It must not exist or be empty
  --force                   write into a folder that is not empty (files of the same name are replaced)
  --user-agent TOKEN        the exported crawler's product token, also without --robots
  --contact URL             who runs the crawl, in the exported crawler's User-Agent header, also without --robots
  --require-contact         refuse to export for real hosts (not loopback) without --contact
  --request-timeout S       the bound on one request, seconds; default ${EXPORT_DEFAULTS.timeoutSeconds}
  --max-retries N           retries per URL after the first attempt; default ${EXPORT_DEFAULTS.maxRetries}
  -h, --help                this help

${planOptionsHelp()}
`;
}

/** Where a file of the export goes (exportPathParts refuses a path that would leave the folder). */
function target(dir: string, file: string): string {
  return path.join(dir, ...exportPathParts(file));
}

function checkOut(dir: string, force: boolean): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(dir);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new UsageError(`--out: ${sanitizeText(dir)} cannot be read (${code ?? (err as Error).message})`);
  }
  if (entries.length > 0 && !force)
    throw new UsageError(`--out: ${sanitizeText(dir)} is not empty; give another folder, or --force to write into it`);
}

function write(dir: string, result: ExportResult): void {
  for (const file of result.files) {
    const to = target(dir, file.path);
    try {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, file.content);
    } catch (err) {
      throw new UsageError(
        `--out: cannot write ${sanitizeText(to)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  }
}

export async function runExport(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(argv, OPTIONS);
  if (values.help) {
    io.out(exportHelp());
    return EXIT_OK;
  }
  if (values.format === undefined) throw new UsageError(`--format is required: one of ${EXPORT_FORMATS.join(', ')}`);
  const format = parseChoice('format', values.format, EXPORT_FORMATS)!;
  const timeoutSeconds =
    parseNumber('request-timeout', values['request-timeout'], EXPORT_LIMITS.timeoutSeconds) ??
    EXPORT_DEFAULTS.timeoutSeconds;
  const maxRetries =
    parseNumber('max-retries', values['max-retries'], EXPORT_LIMITS.maxRetries) ?? EXPORT_DEFAULTS.maxRetries;
  const productToken = productTokenOption(values['user-agent']);
  const contact = contactOption(values.contact);
  const out = values.out ?? `crawl-plan-${format}`;
  if (out.trim() === '') throw new UsageError('--out: empty folder name');
  checkOut(out, Boolean(values.force));

  const outcome = await planFromOptions(values, positionals, io, {
    command: 'export',
    text: true,
    identityAlways: true,
  });
  if (outcome.kind === 'no-allowed-seeds') {
    io.err('crawl-planner export: nothing to export: robots.txt disallows every seed\n');
    return EXIT_FAILED;
  }
  // The exported crawler sends this header to every host it crawls (with --robots, estimate's step has warned).
  if (!values.robots)
    checkContact('export', contact, realHosts(outcome.seeds.map((s) => s.url)), Boolean(values['require-contact']), io);
  io.out(formatPlanText(outcome.plan, outcome.invalid.length, io.color));

  let result: ExportResult;
  try {
    result = exportPlan(format, outcome.plan, {
      seeds: outcome.seeds,
      productToken,
      userAgentHeader: userAgentHeader(productToken, contact),
      ...(contact !== '' ? { contact } : {}),
      timeoutSeconds,
      maxRetries,
    });
  } catch (err) {
    if (err instanceof ExportInputError) {
      io.err(`crawl-planner export: ${sanitizeText(err.message)}\n`);
      return EXIT_FAILED;
    }
    throw err;
  }
  write(out, result);
  const lines = ['', `Exported for ${format} to ${sanitizeText(out)}: ${result.files.length} files`];
  for (const file of result.files) lines.push(`  ${sanitizeText(file.path)}`);
  lines.push('', ...result.notes.map((note) => `- ${sanitizeText(note)}`), '');
  io.out(lines.join('\n'));
  return EXIT_OK;
}
