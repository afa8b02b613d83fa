/**
 * robots-parser as an independent oracle for the compiled matcher (src/core/robots/match.ts). The product
 * no longer matches with robots-parser; the tests and the bench still ask it, so that the two can never
 * silently disagree.
 *
 * The comparison is only meaningful where robots-parser has no known gap (see the gap table in
 * docs/robots-txt.md#robots-parsers-gaps-g1g19): it is fed our groups and canonical patterns (G2, G3/G4, G7, G8 closed by
 * construction) and asked with canonical paths (G3/G4); URLs are left out when they are `/robots.txt` (G9),
 * end in an empty query (`/a?`: its WHATWG URL drops the `?`), or belong to another origin (G16).
 */
import robotsParser from 'robots-parser';
import { matchablePath, pathAndQuery, type MatchRule, type RobotsFile } from '../../src/core/robots';

/**
 * The text robots-parser is given for selection key `key` (a lower-case token or `*`): the same number of
 * lines as the file, so its line numbers are ours. Rule lines in groups carry canonical patterns; in each
 * group the first user-agent line naming `key` becomes `User-agent: <key>` and every other user-agent line
 * an empty `User-agent:` (it keeps the group structure but names nobody, so robots-parser stores each rule
 * once, under one key); every other line is blank.
 */
export function robotsParserInput(file: RobotsFile, key: string): string {
  const out: string[] = new Array<string>(file.lines.length).fill('');
  for (const g of file.groups) {
    const named = g.userAgents.find((ua) => (key === '*' ? ua.global : !ua.global && ua.token === key));
    for (const ua of g.userAgents) out[ua.line - 1] = ua === named ? `User-agent: ${key}` : 'User-agent:';
    for (const r of g.rules) out[r.line - 1] = `${r.directive === 'allow' ? 'Allow' : 'Disallow'}: ${r.pattern}`;
  }
  return out.join('\n');
}

export type OracleAnswer = { verdict: 'allowed' | 'disallowed'; line: number | undefined } | 'not-comparable';

/**
 * robots-parser's verdict and deciding line for `url` under selection key `key`, where it is comparable.
 * It is asked with the URL's canonical path (the one our rules are compared in), when that path survives
 * its URL parser unchanged.
 */
export function robotsParserVerdict(file: RobotsFile, key: string, url: string): OracleAnswer {
  const u = new URL(url);
  const raw = pathAndQuery(u);
  if (u.origin !== file.origin || raw !== u.pathname + u.search) return 'not-comparable';
  const canonical = matchablePath(u);
  if (canonical === '/robots.txt') return 'not-comparable';
  const target = new URL(file.origin + canonical);
  if (target.pathname + target.search !== canonical) return 'not-comparable';
  const parser = robotsParser(file.robotsUrl, robotsParserInput(file, key));
  const allowed = parser.isAllowed(target.href, key);
  if (allowed === undefined) return 'not-comparable';
  const line = parser.getMatchingLineNumber(target.href, key);
  return { verdict: allowed ? 'allowed' : 'disallowed', line: line > 0 ? line : undefined };
}

/**
 * Upper bound on robots-parser's matcher steps for one `isAllowed` + one `getMatchingLineNumber` call:
 * before a rule's first `*` the position set has at most one entry (1 step per pattern character); from the
 * first `*` on it can hold |path| + 1 entries. The reason the product does not match with it (gap G15).
 */
export function robotsParserSteps(rules: readonly Pick<MatchRule, 'pattern'>[], pathLength: number): number {
  let fixed = 0;
  let perPathChar = 0;
  for (const r of rules) {
    const star = r.pattern.indexOf('*');
    if (star < 0) fixed += r.pattern.length;
    else {
      fixed += star;
      perPathChar += r.pattern.length - star;
    }
  }
  return 2 * (fixed + perPathChar * (pathLength + 1));
}
