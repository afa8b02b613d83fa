/**
 * Rule matching with a bound on work (gap G15).
 *
 * robots-parser (like Google) matches with a position-set algorithm that costs O(|pattern| × |path|) per
 * rule once a `*` has been seen; 120 rules of `/*a*a…*ab` (≈ 4,000 characters each, under the 500 KiB
 * limit) against an 8,000-character URL took about 19 s for one `isAllowed()`. We compute that cost bound
 * up front (`robotsParserSteps`) and, above `MATCH_STEP_BUDGET`, use `linearMatch` instead: a greedy
 * left-most segment matcher with the same semantics whose work is O(|pattern| + |path|) string searches per
 * rule. Both give the same answer (property-tested against robots-parser in test/unit/robots-match.test.ts).
 */

/** A rule as the matchers see it: the canonical pattern (see encoding.ts) and its line. */
export interface MatchRule {
  /** Canonical pattern; never empty (empty rules never match and are left out). */
  pattern: string;
  allow: boolean;
  line: number;
}

/**
 * The most work (in robots-parser inner-loop steps, both `isAllowed` and `getMatchingLineNumber` counted)
 * we hand to robots-parser for one URL: about 10 ms in the worst case on a slow machine. Real files stay
 * below it (100 wildcard rules like `/section/*.php$` against a 300-character URL is about 0.4 M); above it
 * the linear matcher gives the same answer faster.
 */
export const MATCH_STEP_BUDGET = 2_000_000;

/**
 * Per-rule cost coefficients for robots-parser's matcher: before the first `*` the position set has at
 * most one entry (1 step per pattern character); from the first `*` on it can hold |path| + 1 entries.
 * Cost for a path of length L: `fixed + perPathChar × (L + 1)`.
 */
export function ruleCostCoefficients(pattern: string): { fixed: number; perPathChar: number } {
  const star = pattern.indexOf('*');
  if (star < 0) return { fixed: pattern.length, perPathChar: 0 };
  return { fixed: star, perPathChar: pattern.length - star };
}

/** Upper bound on robots-parser's steps for one `isAllowed` + one `getMatchingLineNumber` call. */
export function robotsParserSteps(rules: readonly MatchRule[], pathLength: number): number {
  let fixed = 0;
  let perPathChar = 0;
  for (const r of rules) {
    const c = ruleCostCoefficients(r.pattern);
    fixed += c.fixed;
    perPathChar += c.perPathChar;
  }
  return 2 * (fixed + perPathChar * (pathLength + 1));
}

/**
 * Does `pattern` match `path` from its first character? `*` matches any sequence (also empty); `$` is the end
 * anchor only as the last character (elsewhere it is literal, as in robots-parser and Google). Greedy
 * left-most placement of the `*`-separated segments is optimal, so this is exact.
 */
export function linearMatch(pattern: string, path: string): boolean {
  const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 0x24;
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const segments = body.split('*');
  const first = segments[0] as string;
  if (!path.startsWith(first)) return false;
  if (segments.length === 1) return anchored ? path.length === first.length : true;
  let pos = first.length;
  const last = segments.length - 1;
  for (let i = 1; i < last; i++) {
    const seg = segments[i] as string;
    if (seg === '') continue;
    const at = path.indexOf(seg, pos);
    if (at < 0) return false;
    pos = at + seg.length;
  }
  const tail = segments[last] as string;
  if (anchored) return path.length - tail.length >= pos && path.endsWith(tail);
  return tail === '' || path.indexOf(tail, pos) >= 0;
}

/**
 * robots-parser's `findRule`: the longest matching pattern (by canonical length) wins; on equal length an
 * allow beats a disallow; otherwise the earlier rule stays. Rules must be in file order.
 */
export function linearLongestMatch<R extends MatchRule>(rules: readonly R[], path: string): R | undefined {
  let best: R | undefined;
  for (const rule of rules) {
    if (best && rule.pattern.length < best.pattern.length) continue;
    if (!linearMatch(rule.pattern, path)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.allow && !best.allow)) best = rule;
  }
  return best;
}
