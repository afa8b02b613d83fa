/**
 * The planner's form: its fields as the webview holds them (typed text) and as the extension plans them
 * (numbers), and the checks of each. Pure: bundled into both sides.
 */
import { validatePlanInput, type DelayFrom, type PlanInput } from '../../core/plan';
import { DEFAULT_POLITENESS_BY, isPolitenessBy, POLITENESS_BY, type PolitenessBy } from '../../core/servers/units';
import { assertNever, type Invalid, isRecord, unknownKeys } from '../messageChecks';
import { MAX_USER_AGENT_CHARS, MAX_PAGES_BY_HOST, MAX_HOST_CHARS, MAX_CHANGED_SINCE_CHARS } from './limits';

/** Pages in total (spread over the hosts), the same number per host, or each host its own (`pagesByHost`). */
export type PagesMode = 'total' | 'perHost' | 'byHost';
export const PAGES_MODES: readonly PagesMode[] = ['total', 'perHost', 'byHost'];

/**
 * The planner form as the extension sees it: every number already parsed and in range. `null` means
 * "left empty": the setting or the plan's default applies (docs/extension.md §What it shows). The webview keeps the
 * raw text of each field itself (getState/setState), so a half-typed value is never lost. The seeds are not
 * part of it: the extension keeps them (`seedsChanged`, a seeds file), so a list of any length survives.
 */
export interface PlannerForm {
  pagesMode: PagesMode;
  /**
   * Pages in total or per host (by `pagesMode`); null: none given, nothing is planned. In `byHost` mode, the
   * pages of every host without a number of its own (null: 0).
   */
  pages: number | null;
  /**
   * Each host's own pages in `byHost` mode (lower-case `host[:port]` → pages, 0 allowed), as sitemap sizing,
   * a deadline's caps or the user set them; kept, unused, in the other modes. At most {@link MAX_PAGES_BY_HOST}.
   */
  pagesByHost: Record<string, number>;
  /** Target requests per second; null: no global rate. */
  rate: number | null;
  /** Global slots; null: PLAN_DEFAULTS.workers. */
  workers: number | null;
  /** Shard the hosts over this many machines; null: one machine, no sharding. */
  machines: number | null;
  /** The deadline in seconds (typed as a duration: 36h, 2d); null: none. */
  deadlineSeconds: number | null;
  /** The per-host delay in seconds; null: the `crawlPlanner.defaultDelay` setting. */
  delaySeconds: number | null;
  delayFrom: DelayFrom;
  /** Expected response time in seconds; null: PLAN_DEFAULTS.latencySeconds. */
  latencySeconds: number | null;
  /** The User-Agent for robots.txt and the test crawl; '': the `crawlPlanner.userAgent` setting. */
  userAgent: string;
  /** Fetch each seed origin's robots.txt and plan with its Crawl-delay. Off: no network at all. */
  useRobots: boolean;
  /**
   * "Check shared servers": look the seed hosts up (A and AAAA; `crawlPlanner.resolve` first) so the plan finds
   * hosts on one address (docs/extension.md#shared-servers). Off: no lookup, only registered domains are grouped.
   */
  checkServers: boolean;
  /** The politeness unit (docs/how-it-works.md#politeness-units): host (the default), ip or domain. */
  politenessBy: PolitenessBy;
}

/**
 * The form's fields exactly as the inputs hold them: numbers as typed (a half-typed "1,0" too). The webview
 * sends them on every edit (`fieldsEdited`) and the extension keeps them, so a reload shows the screen as it
 * was; `formFields.ts` reads them into a PlannerForm with the same rules on both sides.
 */
export interface RawForm {
  pagesMode: PagesMode;
  pages: string;
  /** Each host's own pages as typed (host → text); an empty text is no number of its own. */
  pagesByHost: Record<string, string>;
  rate: string;
  workers: string;
  machines: string;
  /** Seconds or a duration ("36h", "2d"). */
  deadline: string;
  delay: string;
  delayFrom: DelayFrom;
  latency: string;
  userAgent: string;
  useRobots: boolean;
  checkServers: boolean;
  politenessBy: PolitenessBy;
  /** "Changed since" for sitemap sizing (a date or 7d/30d/365d; '': every URL): not part of the plan. */
  changedSince: string;
}

/** The "Politeness unit" choices as the sidebar words them (docs/extension.md#shared-servers), in POLITENESS_BY's order. */
export const POLITENESS_BY_LABELS: Readonly<Record<PolitenessBy, string>> = {
  host: 'each host',
  ip: 'hosts on one address (ip)',
  domain: 'hosts in one registered domain',
};

/** A number field's text at most (what is typed is kept, not what is valid). */
export const MAX_FIELD_CHARS = 256;
/** The user agent field's text at most (typed; a valid one is at most {@link MAX_USER_AGENT_CHARS}). */
export const MAX_USER_AGENT_FIELD_CHARS = 4096;

/** Why `key` cannot name a host in the form, or undefined: lower-case `host[:port]` as URL.host writes it. */
export function hostKeyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > MAX_HOST_CHARS) return `a host is 1 to ${MAX_HOST_CHARS} characters`;
  if (key === '__proto__' || !/^[a-z0-9._~%!$&'()*+,;=:[\]-]+$/.test(key))
    return `${JSON.stringify(key.slice(0, 40))} is not a lower-case host[:port]`;
  return undefined;
}

/** A host → value record with at most {@link MAX_PAGES_BY_HOST} valid host keys, each value passing `ok`; a fresh object or undefined. */
function parseHostRecord<T>(value: unknown, ok: (v: unknown) => v is T): Record<string, T> | undefined {
  if (!isRecord(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length > MAX_PAGES_BY_HOST) return undefined;
  if (entries.some(([host, v]) => hostKeyProblem(host) !== undefined || !ok(v))) return undefined;
  return Object.fromEntries(entries) as Record<string, T>;
}

const isFieldText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FIELD_CHARS;

/** The fields an earlier version did not have, as an empty form holds them (a saved state from it still reads). */
const RAW_FIELDS_ADDED: Pick<
  RawForm,
  'pagesByHost' | 'machines' | 'deadline' | 'changedSince' | 'checkServers' | 'politenessBy'
> = {
  pagesByHost: {},
  machines: '',
  deadline: '',
  changedSince: '',
  checkServers: false,
  politenessBy: DEFAULT_POLITENESS_BY,
};

/** Checks raw fields: strings within their lengths, the choices among theirs; a fresh object or undefined. */
export function parseRawForm(input: unknown): RawForm | undefined {
  if (!isRecord(input)) return undefined;
  const value: Record<string, unknown> = { ...RAW_FIELDS_ADDED, ...input };
  if (
    unknownKeys(value, [
      'pagesMode',
      'pages',
      'pagesByHost',
      'rate',
      'workers',
      'machines',
      'deadline',
      'delay',
      'delayFrom',
      'latency',
      'userAgent',
      'useRobots',
      'checkServers',
      'politenessBy',
      'changedSince',
    ]) !== undefined
  )
    return undefined;
  const str = (key: string, max = MAX_FIELD_CHARS) =>
    typeof value[key] === 'string' && (value[key] as string).length <= max ? (value[key] as string) : undefined;
  const pages = str('pages');
  const rate = str('rate');
  const workers = str('workers');
  const machines = str('machines');
  const deadline = str('deadline');
  const delay = str('delay');
  const latency = str('latency');
  const userAgent = str('userAgent', MAX_USER_AGENT_FIELD_CHARS);
  const changedSince = str('changedSince', MAX_CHANGED_SINCE_CHARS);
  const pagesByHost = parseHostRecord(value.pagesByHost, isFieldText);
  const { pagesMode, delayFrom, useRobots, checkServers, politenessBy } = value;
  if (
    pages === undefined ||
    pagesByHost === undefined ||
    rate === undefined ||
    workers === undefined ||
    machines === undefined ||
    deadline === undefined ||
    delay === undefined ||
    latency === undefined ||
    userAgent === undefined ||
    changedSince === undefined ||
    !PAGES_MODES.includes(pagesMode as PagesMode) ||
    (delayFrom !== 'start' && delayFrom !== 'end') ||
    typeof useRobots !== 'boolean' ||
    typeof checkServers !== 'boolean' ||
    !isPolitenessBy(politenessBy)
  ) {
    return undefined;
  }
  return {
    pagesMode: pagesMode as PagesMode,
    pages,
    pagesByHost,
    rate,
    workers,
    machines,
    deadline,
    delay,
    delayFrom,
    latency,
    userAgent,
    useRobots,
    checkServers,
    politenessBy,
    changedSince,
  };
}

/** The numeric fields of the form. */
export const FORM_NUMBER_FIELDS = [
  'pages',
  'rate',
  'workers',
  'machines',
  'deadlineSeconds',
  'delaySeconds',
  'latencySeconds',
] as const;
export type FormNumberField = (typeof FORM_NUMBER_FIELDS)[number];

const FORM_KEYS: ReadonlyArray<keyof PlannerForm> = [
  'pagesMode',
  'pages',
  'pagesByHost',
  'rate',
  'workers',
  'machines',
  'deadlineSeconds',
  'delaySeconds',
  'delayFrom',
  'latencySeconds',
  'userAgent',
  'useRobots',
  'checkServers',
  'politenessBy',
];

/**
 * Why `value` is not acceptable for `field`, or undefined. The ranges are the plan's own
 * (`validatePlanInput` over PLAN_LIMITS), so the form, the protocol and the CLI refuse the same values.
 */
export function formNumberProblem(
  field: FormNumberField,
  value: number,
  pagesMode: PagesMode = 'total',
): string | undefined {
  const seeds = [{ host: 'placeholder.invalid' }];
  let input: PlanInput;
  switch (field) {
    case 'pages':
      input = {
        seeds,
        pages:
          pagesMode === 'total'
            ? { total: value }
            : pagesMode === 'perHost'
              ? { perHost: value }
              : { byHost: {}, otherwise: value },
      };
      break;
    case 'rate':
    case 'workers':
    case 'machines':
    case 'deadlineSeconds':
    case 'delaySeconds':
    case 'latencySeconds':
      input = { seeds, pages: { total: 1 }, [field]: value };
      break;
    default:
      return assertNever(field);
  }
  const problem = validatePlanInput(input)[0];
  // "workers: 0 must be at least 1" → "0 must be at least 1": the form labels the field itself.
  return problem === undefined ? undefined : problem.message.replace(/^[^:]*: /, '');
}

/** Why `value` cannot be one host's own pages (0 allowed: the host is planned with none), or undefined. */
export function hostPagesProblem(value: number): string | undefined {
  const problem = validatePlanInput({
    seeds: [{ host: 'placeholder.invalid' }],
    pages: { byHost: { 'placeholder.invalid': value } },
  })[0];
  return problem === undefined ? undefined : problem.message.replace(/^[^:]*: /, '');
}

/** Why a user agent override cannot be used, or undefined. */
export function userAgentProblem(text: string): string | undefined {
  if (text.length > MAX_USER_AGENT_CHARS) return `at most ${MAX_USER_AGENT_CHARS} characters`;
  if (/[\u0000-\u001f\u007f]/.test(text)) return 'no control characters (line breaks, tabs)';
  return undefined;
}

/** The form's fields an earlier version did not have, as an empty form holds them (a saved form from it still reads). */
const FORM_FIELDS_ADDED: Pick<
  PlannerForm,
  'pagesByHost' | 'machines' | 'deadlineSeconds' | 'checkServers' | 'politenessBy'
> = {
  pagesByHost: {},
  machines: null,
  deadlineSeconds: null,
  checkServers: false,
  politenessBy: DEFAULT_POLITENESS_BY,
};

/** Checks a form field by field; returns the form (a fresh object with only known keys) or why not. */
export function parsePlannerForm(input: unknown): PlannerForm | Invalid {
  if (!isRecord(input)) return { error: 'form: not an object' };
  const raw: Record<string, unknown> = { ...FORM_FIELDS_ADDED, ...input };
  const extra = unknownKeys(raw, FORM_KEYS);
  if (extra !== undefined) return { error: `form: unknown field ${JSON.stringify(extra.slice(0, 40))}` };

  const { pagesMode, delayFrom, userAgent, useRobots, checkServers, politenessBy } = raw;
  if (!PAGES_MODES.includes(pagesMode as PagesMode))
    return { error: `form.pagesMode: must be ${PAGES_MODES.join(', ')}` };
  if (delayFrom !== 'start' && delayFrom !== 'end') return { error: 'form.delayFrom: must be start or end' };
  if (typeof userAgent !== 'string') return { error: 'form.userAgent: not a string' };
  const uaProblem = userAgentProblem(userAgent);
  if (uaProblem !== undefined) return { error: `form.userAgent: ${uaProblem}` };
  if (typeof useRobots !== 'boolean') return { error: 'form.useRobots: not a boolean' };
  if (typeof checkServers !== 'boolean') return { error: 'form.checkServers: not a boolean' };
  if (!isPolitenessBy(politenessBy)) return { error: `form.politenessBy: must be ${POLITENESS_BY.join(', ')}` };
  const pagesByHost = parseHostRecord(
    raw.pagesByHost,
    (v): v is number => typeof v === 'number' && hostPagesProblem(v) === undefined,
  );
  if (pagesByHost === undefined)
    return {
      error: `form.pagesByHost: at most ${MAX_PAGES_BY_HOST} lower-case hosts, each with a whole number of pages from 0`,
    };

  const numbers = {} as Record<FormNumberField, number | null>;
  for (const field of FORM_NUMBER_FIELDS) {
    if (!Object.hasOwn(raw, field)) return { error: `form.${field}: missing` };
    const value = raw[field];
    if (value === null) {
      numbers[field] = null;
      continue;
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) return { error: `form.${field}: not a finite number` };
    const problem = formNumberProblem(field, value, pagesMode as PagesMode);
    if (problem !== undefined) return { error: `form.${field}: ${problem}` };
    numbers[field] = value;
  }
  return {
    pagesMode: pagesMode as PagesMode,
    pagesByHost,
    delayFrom,
    userAgent,
    useRobots,
    checkServers,
    politenessBy,
    ...numbers,
  };
}
