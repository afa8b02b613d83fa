/**
 * The planner's fields as typed (RawForm, from protocol.ts) read into the PlannerForm that is planned: numbers
 * parsed and checked with the plan's own limits. The webview reads them to mark bad fields and send
 * `formChanged`; the extension reads the fields it keeps (a reload shows them). Pure.
 */
import {
  DEFAULT_SIMULATION_SETTINGS,
  formNumberProblem,
  simulationNumberProblem,
  userAgentProblem,
  type FormNumberField,
  type PlannerForm,
  type RawForm,
  type SimulationSettings,
} from './protocol';

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


/** Whether two forms hold the same values (whatever their keys' order). */
export function sameForm(a: PlannerForm, b: PlannerForm): boolean {
  return (Object.keys(a) as Array<keyof PlannerForm>).every((key) => a[key] === b[key]) && Object.keys(a).length === Object.keys(b).length;
}

/**
 * Reads the Simulate choice's Runs and Seed fields: the settings, or each field's problem (the CLI's --runs
 * and --seed limits). Empty fields take the defaults (SIMULATION_DEFAULTS).
 */
export function readSimulationFields(enabled: boolean, runs: string, seed: string): { settings?: SimulationSettings; errors: { runs?: string; seed?: string } } {
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
