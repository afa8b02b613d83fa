/**
 * google/robotstxt conformance (fixtures: test/fixtures/robotstxt, Apache-2.0, see NOTICE.md), run through the
 * same path as the CLI's `--file` mode: loadRobotsFile (decode → parse) with the robots.txt URL of the checked
 * URL's origin, then explain() with the case's user agent.
 *
 * - `rfc9309: defined` cases (124): hard assertions against the upstream expectation.
 * - `open` (17) and `contradicts` (4) cases: we assert OUR documented choice (docs/robots-txt.md#conformance-decisions), so the
 *   test fails when behaviour drifts, and print a table comparing it with Google's.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { explain, loadRobotsFile, robotsUrlFor, type RobotsVerdict } from '../../src/core/robots';

interface Case {
  id: string;
  robotstxt: string;
  userAgent: string;
  url: string;
  allowed: boolean;
  rfc9309: 'defined' | 'open' | 'contradicts';
  robotstxtSha256: string;
  robotstxtBytes: number;
  note?: string;
}

const FIXTURE = join(__dirname, '../fixtures/robotstxt/google-robotstxt-cases.jsonl');
const cases: Case[] = readFileSync(FIXTURE, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map((l) => JSON.parse(l) as Case);

/** Where the CLI's --file mode gets the robots URL from; the 4 empty-URL cases need some origin. */
const FALLBACK_ROBOTS_URL = 'http://foo.bar/robots.txt';

function run(c: Case) {
  const file = loadRobotsFile(c.robotstxt, { robotsUrl: robotsUrlFor(c.url) ?? FALLBACK_ROBOTS_URL });
  return explain(file, c.url, c.userAgent);
}

/** Our documented choice for every open/contradicts case (docs/robots-txt.md#conformance-decisions). */
const P = 'google-robotstxt/';
const DECISIONS: Record<string, { verdict: RobotsVerdict; why: string }> = {
  [`${P}GoogleOnly_SystemTest/01`]: {
    verdict: 'not-applicable',
    why: 'empty URL is not a URL (Google maps it to "/")',
  },
  [`${P}GoogleOnly_SystemTest/02`]: {
    verdict: 'not-applicable',
    why: 'empty URL is not a URL (Google maps it to "/")',
  },
  [`${P}GoogleOnly_SystemTest/03`]: {
    verdict: 'not-applicable',
    why: 'empty URL is not a URL (Google maps it to "/")',
  },
  [`${P}GoogleOnly_SystemTest/04`]: {
    verdict: 'not-applicable',
    why: 'empty URL is not a URL (Google maps it to "/")',
  },
  [`${P}ID_LineSyntax_Line/03`]: {
    verdict: 'disallowed',
    why: 'missing colon accepted for known directives, with a warning (as Google)',
  },
  [`${P}ID_LineSyntax_Groups_OtherRules/03`]: {
    verdict: 'disallowed',
    why: 'unknown lines never split a group (as Google)',
  },
  [`${P}ID_UserAgentValueCaseInsensitive/04`]: {
    verdict: 'disallowed',
    why: 'user-agent value read up to the first non-token char (as Google)',
  },
  [`${P}ID_UserAgentValueCaseInsensitive/05`]: {
    verdict: 'disallowed',
    why: 'user-agent value read up to the first non-token char (as Google)',
  },
  [`${P}ID_UserAgentValueCaseInsensitive/06`]: {
    verdict: 'disallowed',
    why: 'user-agent value read up to the first non-token char (as Google)',
  },
  [`${P}ID_UserAgentValueCaseInsensitive/10`]: {
    verdict: 'disallowed',
    why: 'user-agent value read up to the first non-token char (as Google)',
  },
  [`${P}ID_UserAgentValueCaseInsensitive/11`]: {
    verdict: 'disallowed',
    why: 'user-agent value read up to the first non-token char (as Google)',
  },
  [`${P}ID_UserAgentValueCaseInsensitive/12`]: {
    verdict: 'disallowed',
    why: 'user-agent value read up to the first non-token char (as Google)',
  },
  [`${P}GoogleOnly_AcceptUserAgentUpToFirstSpace/01`]: {
    verdict: 'allowed',
    why: '"Foo Bar" in the file is read as "Foo" (as Google)',
  },
  [`${P}GoogleOnly_AcceptUserAgentUpToFirstSpace/02`]: {
    verdict: 'disallowed',
    why: 'crawler token "Foo Bar" is invalid: only * applies (as Google)',
  },
  [`${P}ID_LongestMatch/11`]: {
    verdict: 'allowed',
    why: 'specificity = canonical pattern length (robots-parser, Google)',
  },
  [`${P}ID_Encoding/03`]: {
    verdict: 'allowed',
    why: 'RFC: URL percent-encoded before comparison (differs from Google)',
  },
  [`${P}ID_Encoding/05`]: {
    verdict: 'allowed',
    why: 'RFC: URL percent-encoded before comparison (differs from Google)',
  },
  [`${P}ID_Encoding/06`]: { verdict: 'allowed', why: 'RFC: %-encoded unreserved chars decoded (differs from Google)' },
  [`${P}GoogleOnly_IndexHTMLisDirectory/01`]: {
    verdict: 'disallowed',
    why: 'RFC longest match; no index.html special case (differs from Google)',
  },
  [`${P}GoogleOnly_LineTooLong/02`]: {
    verdict: 'allowed',
    why: 'lines are not cut at 16,664 bytes; reported instead (differs from Google)',
  },
  [`${P}GoogleOnly_LineTooLong/05`]: {
    verdict: 'disallowed',
    why: 'lines are not cut at 16,664 bytes; reported instead (differs from Google)',
  },
};

const report: string[] = [];

describe('google/robotstxt conformance fixture', () => {
  it('holds 145 cases: 124 defined, 17 open, 4 contradicts, each body intact', () => {
    assert.equal(cases.length, 145);
    const count = (k: Case['rfc9309']) => cases.filter((c) => c.rfc9309 === k).length;
    assert.deepEqual([count('defined'), count('open'), count('contradicts')], [124, 17, 4]);
    assert.equal(new Set(cases.map((c) => c.id)).size, 145);
    for (const c of cases) {
      const bytes = Buffer.from(c.robotstxt, 'utf8');
      assert.equal(bytes.length, c.robotstxtBytes, c.id);
      assert.equal(createHash('sha256').update(bytes).digest('hex'), c.robotstxtSha256, c.id);
    }
  });

  it('has a documented decision for exactly the open/contradicts cases', () => {
    const undecided = cases
      .filter((c) => c.rfc9309 !== 'defined')
      .map((c) => c.id)
      .sort();
    assert.deepEqual(Object.keys(DECISIONS).sort(), undecided);
  });
});

describe('rfc9309: defined (hard pass/fail)', () => {
  for (const c of cases.filter((k) => k.rfc9309 === 'defined')) {
    it(c.id, () => {
      const e = run(c);
      assert.equal(e.verdict, c.allowed ? 'allowed' : 'disallowed', `${e.verdict}: ${e.reason}`);
    });
  }
});

describe('rfc9309: open / contradicts (our documented choice)', () => {
  for (const c of cases.filter((k) => k.rfc9309 !== 'defined')) {
    it(c.id, () => {
      const e = run(c);
      const decision = DECISIONS[c.id];
      assert.ok(decision, `no documented decision for ${c.id}`);
      const google = c.allowed ? 'allowed' : 'disallowed';
      report.push(
        `| ${c.id.replace(P, '')} | ${c.rfc9309} | ${google} | ${e.verdict} | ${e.verdict === google ? 'same' : 'differs'} | ${decision.why} |`,
      );
      assert.equal(e.verdict, decision.verdict, `${e.verdict}: ${e.reason}`);
    });
  }
});

after(() => {
  if (report.length === 0) return;
  console.log(
    [
      '',
      '| case | rfc9309 | Google | Crawl Planner | | why |',
      '| --- | --- | --- | --- | --- | --- |',
      ...report.sort(),
    ].join('\n'),
  );
});
