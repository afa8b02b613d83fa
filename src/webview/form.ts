/**
 * The planner form as typed (raw strings, kept in the webview's getState) and as sent (PlannerForm,
 * numbers parsed and checked with the same rules the extension checks them with). The seeds are not here:
 * the extension keeps them (`seedsChanged`), so the saved state stays small whatever the list's length.
 * Pure: no DOM, so the unit tests run it in node.
 */
import type { DelayFrom } from '../core/plan';
import {
  formNumberProblem,
  userAgentProblem,
  type FormNumberField,
  type PagesMode,
  type PlannerForm,
} from '../shared/protocol';

/** The form's fields exactly as the inputs hold them. */
export interface RawForm {
  pagesMode: PagesMode;
  pages: string;
  rate: string;
  workers: string;
  delay: string;
  delayFrom: DelayFrom;
  latency: string;
  userAgent: string;
  useRobots: boolean;
}

export type RawField = keyof RawForm;
export type FieldErrors = Partial<Record<RawField, string>>;

/** The raw fields holding numbers, and the PlannerForm field each becomes. */
export const NUMBER_INPUTS: ReadonlyArray<readonly [RawField & ('pages' | 'rate' | 'workers' | 'delay' | 'latency'), FormNumberField]> = [
  ['pages', 'pages'],
  ['rate', 'rate'],
  ['workers', 'workers'],
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

/**
 * Reads the raw form: the PlannerForm to send when every field is fine, and a message per bad field.
 * Empty number fields are null (the setting or the plan's default applies); `pages` may be empty too, the
 * extension then says it needs a number.
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
  if (Object.keys(errors).length > 0) return { form: undefined, errors };
  return {
    form: {
      pagesMode: raw.pagesMode,
      delayFrom: raw.delayFrom,
      userAgent: raw.userAgent,
      useRobots: raw.useRobots,
      ...numbers,
    },
    errors,
  };
}

/** The raw fields for a form the extension sent (empty text for null). */
export function formToRaw(form: PlannerForm): RawForm {
  const text = (n: number | null) => (n === null ? '' : String(n));
  return {
    pagesMode: form.pagesMode,
    pages: text(form.pages),
    rate: text(form.rate),
    workers: text(form.workers),
    delay: text(form.delaySeconds),
    delayFrom: form.delayFrom,
    latency: text(form.latencySeconds),
    userAgent: form.userAgent,
    useRobots: form.useRobots,
  };
}

/** What the webview keeps in getState/setState (small: the seeds are the extension's). */
export interface SavedState {
  v: 2;
  raw: RawForm;
  /** The origin chosen for "Open robots.txt". */
  origin?: string;
}

const MAX_SAVED_FIELD = 256;

/**
 * Reads back getState(): this version's state, or an earlier one's (its seeds, which the extension has,
 * are dropped). Anything unexpected (a damaged value) is dropped.
 */
export function parseSavedState(value: unknown): SavedState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if ((v.v !== 1 && v.v !== 2) || typeof v.raw !== 'object' || v.raw === null) return undefined;
  const r = v.raw as Record<string, unknown>;
  const str = (key: string, max = MAX_SAVED_FIELD) => (typeof r[key] === 'string' && (r[key] as string).length <= max ? (r[key] as string) : undefined);
  const pages = str('pages');
  const rate = str('rate');
  const workers = str('workers');
  const delay = str('delay');
  const latency = str('latency');
  const userAgent = str('userAgent', 4096);
  const { pagesMode, delayFrom, useRobots } = r;
  if (
    pages === undefined ||
    rate === undefined ||
    workers === undefined ||
    delay === undefined ||
    latency === undefined ||
    userAgent === undefined ||
    (pagesMode !== 'total' && pagesMode !== 'perHost') ||
    (delayFrom !== 'start' && delayFrom !== 'end') ||
    typeof useRobots !== 'boolean'
  ) {
    return undefined;
  }
  const raw: RawForm = { pagesMode, pages, rate, workers, delay, delayFrom, latency, userAgent, useRobots };
  return typeof v.origin === 'string' && v.origin.length <= 2048 ? { v: 2, raw, origin: v.origin } : { v: 2, raw };
}
