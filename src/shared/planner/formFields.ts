/**
 * The planner's fields as typed (RawForm, from form.ts) read into the PlannerForm that is planned: numbers
 * parsed and checked with the plan's own limits. The webview reads them to mark bad fields and send
 * `formChanged`; the extension reads the fields it keeps (a reload shows them). Pure.
 */
import { parseDeadlineText } from '../../core/plan/parseDuration';
import { DEFAULT_SIMULATION_SETTINGS, simulationNumberProblem, type SimulationSettings } from './viewModel';
import {
  formNumberProblem,
  hostPagesProblem,
  userAgentProblem,
  type FormNumberField,
  type PlannerForm,
  type RawForm,
} from './form';

export type RawField = keyof RawForm;
export type FieldErrors = Partial<Record<RawField, string>>;

/** The raw fields holding numbers, and the PlannerForm field each becomes. */
export const NUMBER_INPUTS: ReadonlyArray<
  readonly [
    RawField & ('pages' | 'rate' | 'workers' | 'machines' | 'delay' | 'latency'),
    Exclude<FormNumberField, 'deadlineSeconds'>,
  ]
> = [
  ['pages', 'pages'],
  ['rate', 'rate'],
  ['workers', 'workers'],
  ['machines', 'machines'],
  ['delay', 'delaySeconds'],
  ['latency', 'latencySeconds'],
];

/** Plain decimals as the CLI takes them: `1`, `0.25`, `.5`, `1e3`, `1,000` (thousands commas allowed). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i;

/** A number field's text: empty, a finite number, or not a number. */
export function parseDecimal(text: string): number | 'empty' | 'invalid' {
  const t = text.trim();
  if (t === '') return 'empty';
  // "1,000,000" is how the plan prints numbers; accept it back when the commas group digits by three.
  const plain = /^[+-]?\d{1,3}(,\d{3})+(\.\d*)?$/.test(t) ? t.replace(/,/g, '') : t;
  if (!DECIMAL.test(plain)) return 'invalid';
  const n = Number(plain);
  return Number.isFinite(n) ? n : 'invalid';
}

/** One host's pages as typed: empty (the host takes the other hosts' number), its pages, or why not. */
export function readHostPages(text: string): number | 'empty' | { problem: string } {
  const value = parseDecimal(text);
  if (value === 'empty') return 'empty';
  if (value === 'invalid') return { problem: 'not a number' };
  const problem = hostPagesProblem(value);
  return problem === undefined ? value : { problem };
}

/** The deadline as typed: empty (none), its seconds, or why not (parseDeadlineText, as `--deadline` reads it). */
export function readDeadline(text: string): number | 'empty' | { problem: string } {
  if (text.trim() === '') return 'empty';
  const read = parseDeadlineText(text);
  return 'problem' in read ? { problem: read.problem } : read.seconds;
}

/**
 * Reads the raw form: the PlannerForm to send when every field is fine, and a message per bad field.
 * Empty number fields are null (the setting or the plan's default applies); `pages` may be empty too, the
 * extension then says it needs a number. A host's own pages left empty are no number of its own; a bad one
 * is reported under `pagesByHost`, naming the host. `changedSince` is not part of the plan: the sizing reads it.
 */
export function readForm(raw: RawForm): { form: PlannerForm | undefined; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const uaProblem = userAgentProblem(raw.userAgent);
  if (uaProblem !== undefined) errors.userAgent = uaProblem;
  const numbers = {} as Record<FormNumberField, number | null>;
  for (const [input, field] of NUMBER_INPUTS) {
    const value = parseDecimal(raw[input]);
    if (value === 'empty') {
      numbers[field] = null;
    } else if (value === 'invalid') {
      errors[input] = 'not a number';
    } else {
      const problem = formNumberProblem(field, value, raw.pagesMode);
      if (problem === undefined) numbers[field] = value;
      else errors[input] = problem;
    }
  }
  const deadline = readDeadline(raw.deadline);
  if (typeof deadline === 'object') errors.deadline = deadline.problem;
  else numbers.deadlineSeconds = deadline === 'empty' ? null : deadline;
  const pagesByHost: Record<string, number> = {};
  for (const [host, text] of Object.entries(raw.pagesByHost)) {
    const pages = readHostPages(text);
    if (typeof pages === 'object') errors.pagesByHost ??= `${host}: ${pages.problem}`;
    else if (pages !== 'empty') pagesByHost[host] = pages;
  }
  if (Object.keys(errors).length > 0) return { form: undefined, errors };
  return {
    form: {
      pagesMode: raw.pagesMode,
      pagesByHost,
      delayFrom: raw.delayFrom,
      userAgent: raw.userAgent,
      useRobots: raw.useRobots,
      checkServers: raw.checkServers,
      politenessBy: raw.politenessBy,
      ...numbers,
    },
    errors,
  };
}

/** The raw fields for a form the extension sent (empty text for null); `changedSince` is not the form's. */
export function formToRaw(form: PlannerForm, changedSince = ''): RawForm {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    pagesMode: form.pagesMode,
    pages: text(form.pages),
    pagesByHost: Object.fromEntries(Object.entries(form.pagesByHost).map(([host, n]) => [host, String(n)])),
    rate: text(form.rate),
    workers: text(form.workers),
    machines: text(form.machines),
    deadline: form.deadlineSeconds === null ? '' : formatDeadline(form.deadlineSeconds),
    delay: text(form.delaySeconds),
    delayFrom: form.delayFrom,
    latency: text(form.latencySeconds),
    userAgent: form.userAgent,
    useRobots: form.useRobots,
    checkServers: form.checkServers,
    politenessBy: form.politenessBy,
    changedSince,
  };
}

/**
 * The raw fields for a form the extension changed (sitemap sizing, a deadline option), keeping the text as
 * typed of every field whose value did not change ("1d12h" stays "1d12h", a host's "1,000" stays "1,000").
 */
export function formToRawKeeping(form: PlannerForm, previous: RawForm | undefined): RawForm {
  const raw = formToRaw(form, previous?.changedSince ?? '');
  if (previous === undefined) return raw;
  const before = readFields(previous);
  for (const [input, field] of NUMBER_INPUTS) if (before.numbers[field] === form[field]) raw[input] = previous[input];
  if (before.numbers.deadlineSeconds === form.deadlineSeconds) raw.deadline = previous.deadline;
  for (const [host, n] of Object.entries(form.pagesByHost)) {
    const typed = previous.pagesByHost[host];
    if (typed !== undefined && readHostPages(typed) === n) raw.pagesByHost[host] = typed;
  }
  return raw;
}

/** Each number field's value as typed, ignoring the others' problems (null: empty or not valid). */
function readFields(raw: RawForm): { numbers: Record<FormNumberField, number | null> } {
  const numbers = {} as Record<FormNumberField, number | null>;
  for (const [input, field] of NUMBER_INPUTS) {
    const value = parseDecimal(raw[input]);
    numbers[field] =
      typeof value === 'number' && formNumberProblem(field, value, raw.pagesMode) === undefined ? value : null;
  }
  const deadline = readDeadline(raw.deadline);
  numbers.deadlineSeconds = typeof deadline === 'number' ? deadline : null;
  return { numbers };
}

/** A deadline as the field shows it: whole days, hours or minutes as "2d", "36h", "90m", else seconds. */
export function formatDeadline(seconds: number): string {
  for (const [unit, size] of [
    ['w', 604_800],
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
  ] as const) {
    if (seconds >= size && Number.isInteger(seconds / size)) return `${seconds / size}${unit}`;
  }
  return String(seconds);
}

/** Whether two forms hold the same values (whatever their keys' order). */
export function sameForm(a: PlannerForm, b: PlannerForm): boolean {
  const keys = Object.keys(a) as Array<keyof PlannerForm>;
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => (key === 'pagesByHost' ? sameRecord(a.pagesByHost, b.pagesByHost) : a[key] === b[key]));
}

function sameRecord(a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && a[k] === b[k]);
}

/**
 * Reads the Simulate choice's Runs and Seed fields: the settings, or each field's problem (the CLI's --runs
 * and --seed limits). Empty fields take the defaults (SIMULATION_DEFAULTS).
 */
export function readSimulationFields(
  enabled: boolean,
  runs: string,
  seed: string,
): { settings?: SimulationSettings; errors: { runs?: string; seed?: string } } {
  const errors: { runs?: string; seed?: string } = {};
  const value = (field: 'runs' | 'seed', text: string): number | undefined => {
    const parsed = parseDecimal(text);
    if (parsed === 'empty') return DEFAULT_SIMULATION_SETTINGS[field];
    const problem = parsed === 'invalid' ? 'not a number' : simulationNumberProblem(field, parsed);
    if (problem === undefined) return parsed as number;
    errors[field] = problem;
    return undefined;
  };
  const r = value('runs', runs);
  const s = value('seed', seed);
  return r === undefined || s === undefined ? { errors } : { settings: { enabled, runs: r, seed: s }, errors };
}
