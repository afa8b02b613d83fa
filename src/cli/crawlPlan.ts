/**
 * `crawl --plan ESTIMATE.json`: the estimate document read back as the crawl it plans (planToRun,
 * src/core/plan/planToRun.ts): its seeds, each host's planned pages as its budget, and its settings as the
 * crawl's flags. Flags the plan sets are refused beside it; hosts it cannot give a budget are left out, each
 * with a line saying why and what to plan it with. A file that cannot be read, is not JSON or is not an
 * estimate document is bad input: one line, exit 2.
 */
import { sanitizeText } from '../core/format/table';
import { planToRun, PlanDocumentError, type HostLeftOut, type PlanToRun } from '../core/plan/planToRun';
import { readJsonFile, UsageError, type Io } from './args';
import type { CRAWL_OPTIONS } from './crawl';
import type { parse } from './args';

type Values = ReturnType<typeof parse<typeof CRAWL_OPTIONS>>['values'];

/** The flags a plan sets: refused beside --plan. */
const SET_BY_PLAN = [
  'seeds-file',
  'pages-per-host',
  'pages-for',
  'delay',
  'delay-from',
  'concurrency',
  'per-host-concurrency',
  'crawl-delay-policy',
  'max-crawl-delay',
  'adaptive',
  'allow-other-hosts',
] as const;

/** The line for a host the crawl leaves out. */
export function leftOutLine(h: HostLeftOut): string {
  const host = sanitizeText(h.host);
  switch (h.why) {
    case 'pages-unknown':
      return `${host}: not crawled: the plan does not know its pages${h.reason ? ` (${sanitizeText(h.reason)})` : ''}; plan it with estimate --pages-for ${host}=N and run that plan`;
    case 'skipped':
      return `${host}: not crawled: the plan skips it (its Crawl-delay is above the cap under --crawl-delay-policy skip)`;
    case 'no-pages':
      return `${host}: not crawled: the plan gives it 0 pages`;
  }
}

function readDocument(path: string): unknown {
  return readJsonFile('plan', path, 'the document that estimate --json wrote');
}

/**
 * Reads `--plan` and returns the plan to run and the flags as the crawl reads them (the plan's settings in
 * place of the flags it sets). Prints a line per host left out, and what the crawl does not keep.
 */
export function readPlanToRun(
  path: string,
  values: Values,
  positionals: readonly string[],
  io: Io,
): { run: PlanToRun; values: Values } {
  if (positionals.length > 0) throw new UsageError('--plan: give no seed URLs with it (the plan has its seeds)');
  for (const flag of SET_BY_PLAN)
    if (values[flag] !== undefined) throw new UsageError(`--${flag}: not with --plan (the plan sets it)`);
  let run: PlanToRun;
  const doc = readDocument(path);
  try {
    run = planToRun(doc);
  } catch (err) {
    if (err instanceof PlanDocumentError) throw new UsageError(`--plan: ${sanitizeText(path)}: ${err.message}`);
    throw err;
  }
  // The plan's politeness unit (docs/how-it-works.md#politeness-units; host for a document written before units).
  const politenessBy = run.politenessBy;
  if (values['politeness-by'] !== undefined && values['politeness-by'] !== politenessBy)
    throw new UsageError(`--politeness-by: not with --plan (the plan keeps politeness by ${politenessBy})`);
  for (const h of run.leftOut) io.err(`crawl-planner crawl: ${leftOutLine(h)}\n`);
  if (run.rate !== null)
    io.err(
      `crawl-planner crawl: note: the plan's global rate (${run.rate}/s) is not kept: a crawl keeps each host's interval only\n`,
    );
  if (run.machines !== null && run.machines > 1)
    io.err(
      `crawl-planner crawl: note: the plan is sharded over ${run.machines} machines; this crawl runs every host\n`,
    );
  const s = run.settings;
  return {
    run,
    values: {
      ...values,
      delay: String(s.delaySeconds),
      'delay-from': s.delayFrom,
      concurrency: String(s.concurrency),
      'per-host-concurrency': String(s.perHostConcurrency),
      'crawl-delay-policy': s.crawlDelayPolicy,
      'max-crawl-delay': String(s.maxCrawlDelaySeconds),
      adaptive: s.adaptive,
      'politeness-by': politenessBy,
    },
  };
}
