/**
 * "Test URLs against this robots.txt": reading the input box, the product token that selects a group,
 * the verdicts with their deciding line, and one mark per deciding line for the editor.
 */
import { explain, groupFor, robotsUrlFor, type RobotsExplanation, type RobotsVerdict } from '../explain';
import type { RobotsFile } from '../robotsFile';
import { namesToken } from './knowledge';
import { clip } from '../../format/text';
import { splitUrlList } from '../../seeds';

/** URLs or paths from an input box, split as every URL list is (splitUrlList); a bare path gets its leading `/`. */
export function splitUrlInput(text: string): string[] {
  return splitUrlList(text).map((s) => (/^[a-z][a-z0-9+.-]*:/i.test(s) || s.startsWith('/') ? s : `/${s}`));
}

/**
 * The robots.txt URL to test `inputs` against when the file's origin is unknown: the origin of the first
 * absolute http(s) URL among them (as the CLI's `--file` mode does); undefined when none is absolute.
 */
export function robotsUrlForInputs(inputs: readonly string[]): string | undefined {
  for (const input of inputs) {
    if (!/^https?:\/\//i.test(input)) continue;
    const robotsUrl = robotsUrlFor(input);
    if (robotsUrl) return robotsUrl;
  }
  return undefined;
}

/**
 * A product token that selects the group at `groupIndex`: its first named token; for a `*` group, the
 * configured token when it falls to `*`, else a token no group names.
 */
export function tokenForGroup(file: RobotsFile, groupIndex: number, productToken: string): string {
  const group = file.groups[groupIndex];
  if (!group) return productToken;
  const named = group.userAgents.find((ua) => !ua.global && ua.token !== '');
  if (named) return named.value.slice(0, named.token.length);
  if (groupFor(file, productToken).matchedBy === 'star') return productToken;
  let candidate = 'AnyOtherCrawler';
  while (file.groups.some((g) => namesToken(g, candidate.toLowerCase()))) candidate += 'X';
  return candidate;
}

export interface UrlCheck {
  /** As typed. */
  input: string;
  explanation: RobotsExplanation;
}

export function checkUrlsAgainstRobots(file: RobotsFile, inputs: readonly string[], productToken: string): UrlCheck[] {
  return inputs.map((input) => ({ input, explanation: explain(file, input, productToken) }));
}

export interface VerdictMark {
  /** The deciding line (1-based). */
  line: number;
  /** `disallowed` when any URL deciding on this line is disallowed. */
  verdict: Exclude<RobotsVerdict, 'not-applicable'>;
  /** The inputs this line decided, as typed. */
  inputs: string[];
  /** A short text to show after the line: "✗ blocks /private/x" or "✓ allows /a, /b". */
  text: string;
}

/** One mark per deciding line, in line order. */
export function verdictMarks(results: readonly UrlCheck[]): VerdictMark[] {
  const byLine = new Map<number, VerdictMark>();
  for (const r of results) {
    const e = r.explanation;
    if (e.line === undefined || e.verdict === 'not-applicable') continue;
    const mark = byLine.get(e.line) ?? { line: e.line, verdict: e.verdict, inputs: [], text: '' };
    mark.inputs.push(r.input);
    if (e.verdict === 'disallowed') mark.verdict = 'disallowed';
    byLine.set(e.line, mark);
  }
  const marks = [...byLine.values()].sort((a, b) => a.line - b.line);
  for (const m of marks) {
    const shown = m.inputs
      .slice(0, 3)
      .map((s) => clip(s, 60))
      .join(', ');
    const more = m.inputs.length > 3 ? ` and ${m.inputs.length - 3} more` : '';
    m.text = `${m.verdict === 'disallowed' ? '✗ blocks' : '✓ allows'} ${shown}${more}`;
  }
  return marks;
}
