/**
 * What the planner takes from a block of start URLs and the settings around it (docs/extension.md §Seeds from
 * code): the seeds (distinct, in order), the hosts they make, the CodeLens's title, the form's numbers from the
 * framework's settings, and the lines that say what was taken and what was not. Pure.
 */
import { validatePlanInput, type PlanInput } from '../plan';
import { parseSeedUrl } from '../seeds';
import { settingMeaning, type PlannerQuantity } from './settings';
import type { SettingRead, SkippedEntry, SkipReason, StartUrlsBlock } from './types';

/** The seeds of a block: its URLs without repeats, in the order written, and how many hosts they name. */
export function blockSeeds(block: Pick<StartUrlsBlock, 'urls'>): { urls: string[]; hosts: number } {
  const urls = [...new Set(block.urls.map((u) => u.url))];
  const hosts = new Set<string>();
  for (const url of urls) {
    const parsed = parseSeedUrl(url);
    if (!('problem' in parsed)) hosts.add(parsed.host);
  }
  return { urls, hosts: hosts.size };
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** The CodeLens's title: "Plan 4 URLs · 2 hosts"; "No URL to plan in start_urls" when none is a literal. */
export function lensTitle(block: StartUrlsBlock): string {
  const { urls, hosts } = blockSeeds(block);
  if (urls.length === 0) return `No URL to plan in ${block.name}`;
  return `Plan ${plural(urls.length, 'URL')} · ${plural(hosts, 'host')}`;
}

const SKIP_TEXT: Readonly<Record<SkipReason, string>> = {
  'not-literal': 'an expression, not resolved',
  'not-http': 'not an http(s) URL',
  unterminated: 'a string left open',
  'not-a-list': 'a string, not a list',
};

/** "2 entries not read: line 23 (an expression, not resolved), line 25 (not an http(s) URL)"; '' for none. */
export function skippedText(skipped: readonly SkippedEntry[], max = 5): string {
  if (skipped.length === 0) return '';
  const shown = skipped.slice(0, max).map((s) => `line ${s.line} (${SKIP_TEXT[s.reason]})`);
  const more = skipped.length > max ? `, ${skipped.length - max} more` : '';
  return `${plural(skipped.length, 'entry', 'entries')} not read: ${shown.join(', ')}${more}`;
}

/** The form's numbers a framework's settings give (each absent when nothing sets it). */
export interface FormNumbersFromCode {
  delaySeconds?: number;
  workers?: number;
  /** Requests per second in all. */
  rate?: number;
  /** Pages in total. */
  pages?: number;
}

/** A setting as read, with where: `where` is "books.py:12" or "settings.py:11". */
export interface PlacedSetting {
  where: string;
  read: SettingRead;
}

export interface FormFromCode {
  form: FormNumbersFromCode;
  /** "DOWNLOAD_DELAY = 3 (books.py:12) → delay 3 s", one per setting taken. */
  taken: string[];
  /** Settings written but not taken, and why. */
  notTaken: string[];
}

const QUANTITY_TEXT: Readonly<Record<Exclude<PlannerQuantity, 'perHostConcurrency'>, (v: number) => string>> = {
  delaySeconds: (v) => `delay ${v} s`,
  workers: (v) => `workers ${v}`,
  rate: (v) => `rate ${Number(v.toPrecision(6))} req/s`,
  pages: (v) => `pages ${v} in total`,
};

const NOT_READ_TEXT: Readonly<Record<Extract<SettingRead, { notRead: unknown }>['notRead'], string>> = {
  expression: 'not a literal number, not read',
  conditional: 'set inside a block (if, try), not read',
  spread: 'a spread may replace it, not read',
};

/** Why the plan refuses `value` for `quantity` (its own limits), or undefined. */
function planProblem(quantity: keyof FormNumbersFromCode, value: number): string | undefined {
  const input: PlanInput = {
    seeds: [{ host: 'placeholder.invalid' }],
    pages: { total: quantity === 'pages' ? value : 1 },
  };
  if (quantity === 'delaySeconds') input.delaySeconds = value;
  else if (quantity === 'workers') input.workers = value;
  else if (quantity === 'rate') input.rate = value;
  const problem = validatePlanInput(input)[0];
  return problem?.message.replace(/^[^:]*: /, '');
}

/**
 * The form's numbers from settings already resolved to one per name (`resolveSettings`). A setting that is not a
 * literal number, that the form has no place for (Scrapy's CONCURRENT_REQUESTS_PER_DOMAIN: the planner keeps one
 * request in flight per host) or that the plan refuses is said and not taken.
 */
export function formFromSettings(settings: readonly PlacedSetting[]): FormFromCode {
  const out: FormFromCode = { form: {}, taken: [], notTaken: [] };
  for (const { where, read } of settings) {
    const meaning = settingMeaning(read.name);
    if (meaning === undefined) continue;
    if ('notRead' in read) {
      out.notTaken.push(`${read.name} (${where}): ${NOT_READ_TEXT[read.notRead]}`);
      continue;
    }
    const written = `${read.name} = ${read.value} (${where})`;
    const quantity = meaning.quantity;
    if (quantity === 'perHostConcurrency') {
      out.notTaken.push(
        `${written}: not used, the planner keeps one request in flight per host (the delay paces each host's starts either way)`,
      );
      continue;
    }
    if (meaning.zeroIsNone && read.value === 0) {
      out.notTaken.push(`${written}: 0 means no limit`);
      continue;
    }
    const value = meaning.toPlanner(read.value);
    const problem = planProblem(quantity, value);
    if (problem !== undefined) {
      out.notTaken.push(`${written}: ${problem}`);
      continue;
    }
    out.form[quantity] = value;
    out.taken.push(`${written} → ${QUANTITY_TEXT[quantity](value)}`);
  }
  return out;
}
