/**
 * Shared command-line plumbing: option parsing with one-line errors and exit code 2 for bad input,
 * never a stack trace.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readFileSync, statSync } from 'node:fs';
import { numberProblem, numberProblemText, type NumberLimit } from '../core/limits';
import { sanitizeText } from '../core/format/table';
import { seedLines as linesOfText } from '../core/seeds';

/** Bad input from the user: printed as one line, exit code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../core/exitCodes';

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

/**
 * Parses a numeric option strictly: the whole string must be a finite decimal number within `limit`
 * ("abc", "1e308" beyond max, "Infinity", "", "0x10" are refused with the rule they broke). The text is
 * quoted when it is not a usable number (`--pages: "1.5" must be a whole number`) and shown as typed
 * when it is out of range (`--pages: 0 must be at least 1`).
 */
export function parseNumber(name: string, raw: string | undefined, limit: NumberLimit): number | undefined {
  if (raw === undefined) return undefined;
  const text = raw.trim();
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text)) {
    throw new UsageError(`--${name}: "${raw}" is not a number`);
  }
  const value = Number(text);
  const problem = numberProblem(value, limit);
  if (problem !== undefined) {
    const shown = problem === 'not-finite' || problem === 'not-whole' ? `"${raw}"` : raw;
    throw new UsageError(`--${name}: ${numberProblemText(problem, shown, limit)}`);
  }
  return value;
}

/** One of a fixed set of words. */
export function parseChoice<T extends string>(
  name: string,
  raw: string | undefined,
  choices: readonly T[],
): T | undefined {
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
  return [...seedLines(positionals, seedsFile)];
}

/**
 * The lines of `readSeedLines` one at a time, so that 100,000 of them are never all held at once
 * (`estimate` validates them as they come). The file is read, or refused, when this is called.
 */
export function seedLines(positionals: string[], seedsFile: string | undefined): Iterable<SeedLine> {
  const file = seedsFile === undefined ? undefined : lineFile('seeds-file', seedsFile);
  return (function* () {
    for (let i = 0; i < positionals.length; i++) yield { text: positionals[i]!, line: i + 1, source: 'argument' };
    if (file) yield* file;
  })();
}

/** The source name of lines read from standard input (`-`). */
export const STDIN_SOURCE = 'stdin';

/**
 * The JSON document in the file given to `--<option>` (a BOM dropped). A directory, a file that cannot be read,
 * or one that is not JSON is a UsageError; `what` names the document to give instead ("the report that crawl
 * --report wrote").
 */
export function readJsonFile(option: string, path: string, what: string): unknown {
  const shown = sanitizeText(path);
  let text: string;
  try {
    if (statSync(path).isDirectory()) throw new UsageError(`--${option}: ${shown} is a directory`);
    text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(
      `--${option}: cannot read ${shown}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`--${option}: ${shown} is not JSON (give ${what})`);
  }
}

/** All the lines of a list file given to `--<option>` (see `lineFile`). */
export function readLineFile(option: string, path: string): SeedLine[] {
  return [...lineFile(option, path)];
}

/**
 * The lines of a list file given to `--<option>`, one at a time: one entry per line, blank lines and `#`
 * comments skipped, a BOM dropped; `-` reads standard input. The file is read when this is called; one
 * that cannot be read is a UsageError.
 */
export function lineFile(option: string, path: string): Iterable<SeedLine> {
  let content: string;
  const stdin = path === '-';
  try {
    content = readFileSync(stdin ? 0 : path, 'utf8');
  } catch (err) {
    throw new UsageError(
      `--${option}: cannot read ${stdin ? 'standard input' : path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const source = stdin ? STDIN_SOURCE : path;
  // The one line rule (src/core/seeds.ts): every line carries `source`, as SeedLine says.
  return linesOfText(content, source) as Iterable<SeedLine>;
}

/** A writer for stdout/stderr, injected so commands can be run in-process by tests. */
export interface Io {
  /** false: the output's buffer is full (a slow pipe); a long output awaits `drain()` before writing on. */
  out(text: string): boolean | void;
  /** Resolves when the output can take more (after `out` returned false). */
  drain?(): Promise<void>;
  err(text: string): void;
  /** Whether stdout is a colour terminal. */
  color: boolean;
}
