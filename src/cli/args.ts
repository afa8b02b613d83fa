/**
 * Shared command-line plumbing: option parsing with one-line errors and exit code 2 for bad input,
 * never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readFileSync } from 'node:fs';

/** Bad input from the user: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;

export type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * node:util parseArgs, with its errors turned into one-line UsageErrors. "--rate -1" is read as
 * "--rate=-1" (parseArgs refuses a dash-led value as ambiguous), so a negative number gets the same
 * range message either way.
 */
export function parse<O extends Options>(argv: string[], options: O) {
  try {
    return parseArgs({ args: joinNegativeValues(argv, options), options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = (err as Error).message.replace(/\. To specify a positional argument.*$/s, '');
    throw new UsageError(message.replace(/\s*\n\s*/g, ' '));
  }
}

function joinNegativeValues(argv: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return out.concat(argv.slice(i));
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : '';
    const next = argv[i + 1];
    const takesValue = Object.hasOwn(options, name) && options[name]!.type === 'string';
    if (takesValue && next !== undefined && /^-(\d|\.\d|inf|nan)/i.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

export interface NumberRule {
  /** Smallest allowed value (inclusive unless `minExclusive`). */
  min?: number;
  minExclusive?: boolean;
  /** Largest allowed value; anything above is "absurd". */
  max?: number;
  integer?: boolean;
}

/**
 * Parses a numeric option strictly: the whole string must be a finite decimal number ("abc", "1e308"
 * beyond max, "Infinity", "", "0x10" are refused with the rule they broke).
 */
export function parseNumber(name: string, raw: string | undefined, rule: NumberRule = {}): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    throw new UsageError(`--${name}: "${raw}" is not a number`);
  }
  const value = Number(text);
  if (!Number.isFinite(value)) throw new UsageError(`--${name}: "${raw}" is not a finite number`);
  if (rule.integer && !Number.isInteger(value)) throw new UsageError(`--${name}: "${raw}" must be a whole number`);
  if (rule.min !== undefined) {
    if (rule.minExclusive ? value <= rule.min : value < rule.min) {
      throw new UsageError(`--${name}: ${raw} must be ${rule.minExclusive ? 'greater than' : 'at least'} ${rule.min}`);
    }
  }
  if (rule.max !== undefined && value > rule.max) {
    throw new UsageError(`--${name}: ${raw} is too large (at most ${rule.max.toLocaleString('en-US')})`);
  }
  return value;
}

/** One of a fixed set of words. */
export function parseChoice<T extends string>(name: string, raw: string | undefined, choices: readonly T[]): T | undefined {
  if (raw === undefined) return undefined;
  if ((choices as readonly string[]).includes(raw)) return raw as T;
  throw new UsageError(`--${name}: "${raw}" must be one of ${choices.join(', ')}`);
}

/** A seed line with its 1-based line number (1 for command-line arguments, counted in order). */
export interface SeedLine {
  text: string;
  line: number;
  source: string;
}

/** Where a seed line came from, for messages: "argument 2" or "seeds.txt line 4". */
export function seedLocation(line: number, source: string | undefined): string {
  return source === undefined || source === 'argument' ? `argument ${line}` : `${source} line ${line}`;
}

/**
 * Seeds from the command line and from `--seeds-file` (one URL per line; blank lines and `#` comments
 * are skipped). A missing file is a UsageError.
 */
export function readSeedLines(positionals: string[], seedsFile: string | undefined): SeedLine[] {
  const lines: SeedLine[] = positionals.map((text, i) => ({ text, line: i + 1, source: 'argument' }));
  if (seedsFile !== undefined) lines.push(...readLineFile('seeds-file', seedsFile));
  return lines;
}

/** The source name of lines read from standard input (`-`). */
export const STDIN_SOURCE = 'stdin';

/**
 * The lines of a list file given to `--<option>`: one entry per line, blank lines and `#` comments
 * skipped, a BOM dropped; `-` reads standard input. A file that cannot be read is a UsageError.
 */
export function readLineFile(option: string, path: string): SeedLine[] {
  let content: string;
  const stdin = path === '-';
  try {
    content = readFileSync(stdin ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(`--${option}: cannot read ${stdin ? 'standard input' : path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const source = stdin ? STDIN_SOURCE : path;
  const lines: SeedLine[] = [];
  content.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/).forEach((raw, i) => {
    const text = raw.replace(/(^|\s)#.*$/, '').trim();
    if (text !== '') lines.push({ text, line: i + 1, source });
  });
  return lines;
}

/** A writer for stdout/stderr, injected so commands can be run in-process by tests. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
  /** Whether stdout is a colour terminal. */
  color: boolean;
}
