/**
 * Reading command arguments. Commands are called from the palette (no arguments), from the planner,
 * from keybindings and from other extensions or tests (arguments of any shape): every argument is
 * checked here before it is used, and a bad one is an error that names it.
 */
import { sanitizeText } from '../core/format/table';
import { numberProblem, numberProblemText, type NumberLimit } from '../core/limits';
import { splitUrlList, validateSeeds, type InvalidSeed, type Seed } from '../core/seeds';

export class CommandArgumentError extends Error {
  override readonly name = 'CommandArgumentError';
}

/** A string (split like any URL list: splitUrlList) or an array of strings. */
export function urlList(name: string, value: unknown): string[] {
  if (typeof value === 'string') return splitUrlList(value);
  if (Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return value.flatMap((v: string) => splitUrlList(v));
  throw new CommandArgumentError(`${name}: give a URL, a list of URLs, or a string of URLs`);
}

/** The seeds of `urls`, or the first problem in words (for an input box's validateInput). */
export function checkUrls(urls: readonly string[]): { seeds: Seed[] } | { problem: string } {
  if (urls.length === 0) return { problem: 'Enter at least one http:// or https:// URL.' };
  const { seeds, invalid } = validateSeeds(urls.map((text, i) => ({ text, line: i + 1 })));
  const bad: InvalidSeed | undefined = invalid[0];
  if (bad) {
    const more = invalid.length > 1 ? ` (and ${invalid.length - 1} more)` : '';
    return { problem: `"${sanitizeText(bad.text).slice(0, 80)}" is ${bad.message}${more}.` };
  }
  return { seeds };
}

/** A plain object, or {} for undefined; anything else is refused. */
export function argObject(command: string, value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new CommandArgumentError(`${command}: the argument must be an object`);
}

/** A number within `limit` (a number or its text: "1,000"), or undefined when absent. */
export function optionalNumber(name: string, value: unknown, limit: NumberLimit): number | undefined {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'string' && value.trim() !== '' ? parseNumberText(value) : value;
  const problem = numberProblem(n, limit);
  if (problem === 'not-finite') throw new CommandArgumentError(`${name}: ${JSON.stringify(value)} is not a number`);
  if (problem !== undefined) throw new CommandArgumentError(`${name}: ${numberProblemText(problem, String(n), limit)}`);
  return n as number;
}

/** "1,000,000", "1_000", "1e6", " 42 " → number; NaN when it is not one. */
export function parseNumberText(text: string): number {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (!/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(t)) return Number.NaN;
  return Number(t);
}

export function optionalChoice<T extends string>(name: string, value: unknown, choices: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new CommandArgumentError(`${name}: ${JSON.stringify(value)} must be one of ${choices.join(', ')}`);
}

export function optionalBoolean(name: string, value: unknown): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  throw new CommandArgumentError(`${name}: ${JSON.stringify(value)} must be true or false`);
}
