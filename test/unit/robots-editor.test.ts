/**
 * The pure editor functions (src/core/robots/editor.ts): hovers, CodeLens titles, quick fixes applied to
 * the fixtures, URL testing; and the seed numbers (Crawl-delay 10 s → 360 pages/hour, 8,640 pages/day,
 * 1,000,000 pages ≈ 115.7 days).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROBOTS_FINDING_CODES, type RobotsFindingCode } from '../../src/core/robots';
import {
  codeLenses,
  crawlDelayEstimate,
  crawlDelayLensTitle,
  crawlersCaughtBy,
  DIRECTIVES,
  hoverAt,
  KNOWN_CRAWLERS,
  quickFixes,
  robotsUrlForInputs,
  splitUrlInput,
  checkUrlsAgainstRobots,
  tokenForGroup,
  verdictMarks,
  type EditorContext,
  type TextEditSpec,
} from '../../src/core/robots/editor';
import { lintRobotsText, type LintOptions } from '../../src/core/robots/lint';

const CTX: EditorContext = {
  configuredDelaySeconds: 1,
  maxCrawlDelaySeconds: 30,
  crawlDelayPolicy: 'cap',
  pagesForEstimate: 1_000_000,
  productToken: 'CrawlPlanner',
};

const lint = (text: string, options?: LintOptions) => lintRobotsText(text, options);
const hover = (text: string, line: number, column = 0, ctx: EditorContext = CTX) =>
  hoverAt(lint(text).file, line, column, ctx) ?? '';

/** Applies edits (1-based lines, 0-based columns) to text, last first; `\n` in new text is kept. */
function applyEdits(text: string, edits: readonly TextEditSpec[]): string {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\n') starts.push(i + 1);
  }
  const offset = (line: number, column: number) => (starts[line - 1] ?? text.length) + column;
  const sorted = [...edits].sort((a, b) => offset(b.line, b.startColumn) - offset(a.line, a.startColumn));
  let out = text;
  for (const e of sorted)
    out = out.slice(0, offset(e.line, e.startColumn)) + e.newText + out.slice(offset(e.endLine ?? e.line, e.endColumn));
  return out;
}

describe('Crawl-delay economics (the seed numbers)', () => {
  it('Crawl-delay 10 s → 360 pages/hour, 8,640 pages/day, 1,000,000 pages ≈ 115.7 days', () => {
    const est = crawlDelayEstimate(10, CTX);
    assert.equal(est.decision.seconds, 10);
    assert.equal(est.pagesPerHour, 360);
    assert.equal(est.pagesPerDay, 8640);
    assert.equal(Math.round((est.totalSeconds / 86_400) * 10) / 10, 115.7);
    assert.equal(crawlDelayLensTitle(est, CTX), '360 pages/hour · 1,000,000 pages ≈ 115 d 18 h');
  });

  const table: [name: string, delay: number, ctx: Partial<EditorContext>, title: string][] = [
    ['cap policy, above the cap', 120, {}, 'Capped at 30 s: 120 pages/hour · 1,000,000 pages ≈ 347 d 5 h'],
    [
      'skip policy, above the cap',
      120,
      { crawlDelayPolicy: 'skip' },
      'Crawl-delay 120 s is above your 30 s cap: this host is skipped (policy "skip")',
    ],
    ['obey policy, above the cap', 120, { crawlDelayPolicy: 'obey' }, '30 pages/hour · 1,000,000 pages ≈ 1388 d 21 h'],
    [
      'your delay is longer',
      5,
      { configuredDelaySeconds: 20 },
      'Your 20 s delay applies: 180 pages/hour · 1,000,000 pages ≈ 231 d 12 h',
    ],
    [
      'no delay at all',
      0,
      { configuredDelaySeconds: 0 },
      'No delay: the rate is set by response times and your rate limit',
    ],
    ['one page', 2, { pagesForEstimate: 1 }, '1,800 pages/hour · 1 page ≈ 2 s'],
    ['fractional rate', 3600, { crawlDelayPolicy: 'obey' }, '1 pages/hour · 1,000,000 pages ≈ 41666 d 16 h'],
  ];
  for (const [name, delay, ctx, title] of table) {
    it(`lens title: ${name}`, () => {
      const c = { ...CTX, ...ctx };
      assert.equal(crawlDelayLensTitle(crawlDelayEstimate(delay, c), c), title);
    });
  }
});

describe('hovers', () => {
  const FILE = [
    'User-agent: Googlebot', // 1
    'Disallow: /private # keep out', // 2
    'Crawl-delay: 10', // 3
    '', // 4
    'User-agent: *', // 5
    'Disallow: /tmp/*.html$', // 6
    'Allow: /exact$', // 7
    'Crawl-delay: 120', // 8
    'Sitemap: https://example.com/sitemap.xml', // 9
    'Noindex: /drafts', // 10
    'Disalow: /x', // 11
    'Foo: bar', // 12
    '# just a comment', // 13
  ].join('\n');

  it('Crawl-delay: the effective interval, pages/hour, pages/day and the time for N pages', () => {
    const h = hover(FILE, 3);
    assert.match(h, /one request every \*\*10 s\*\*/);
    assert.match(h, /the Crawl-delay is longer than your delay/);
    assert.match(
      h,
      /\| Interval \| Pages\/hour \| Pages\/day \| 1,000,000 pages \|\n\|---\|---\|---\|---\|\n\| 10 s \| 360 \| 8,640 \| ≈ 115 d 17 h 47 m \(115\.7 days\) \|/,
    );
    assert.ok(h.indexOf('Pages/hour') < h.indexOf('With your settings'), 'the numbers come first');
    assert.match(h, /Google: not supported, per Google's robots\.txt documentation\. Bing: honoured/);
  });

  it('Crawl-delay above the cap: the policy decides', () => {
    assert.match(hover(FILE, 8), /the Crawl-delay is above your cap, so the cap \(30 s\) is used/);
    assert.match(hover(FILE, 8, 0, { ...CTX, crawlDelayPolicy: 'skip' }), /\*\*skips this host\*\*/);
    assert.match(hover(FILE, 8, 0, { ...CTX, crawlDelayPolicy: 'obey' }), /one request every \*\*120 s\*\*/);
  });

  it('Crawl-delay that is not used: says why', () => {
    assert.match(hover('User-agent: *\nCrawl-delay: 10s\n', 2), /Not used: The Crawl-delay value "10s" has a unit/);
    assert.match(hover('Crawl-delay: 5\nUser-agent: *\n', 1), /belongs to no group/);
    assert.match(
      hover('User-agent: *\nCrawl-delay: 5\nCrawl-delay: 20\n', 2),
      /the largest, 20 s on line 3, is the one used/,
    );
  });

  it('User-agent: which crawlers the group catches', () => {
    const g = hover(FILE, 1);
    assert.match(g, /\*\*Googlebot\*\* \(Google\): crawls for Google Search/);
    assert.match(
      g,
      /\*\*Googlebot-Image\*\* \(Google\): no group names it, and Google's documentation says it then follows the `googlebot` group/,
    );
    assert.match(g, /\*\*Applebot\*\* \(Apple\): .*Apple's documentation/);
    assert.match(g, /Your crawler \(`CrawlPlanner`\) uses the group at line 5, not this one\./);
    const star = hover(FILE, 5);
    assert.match(
      star,
      /As the `\*` group, it also catches\*\* every crawler that no group names, for example: Bingbot, YandexBot/,
    );
    assert.doesNotMatch(star, /catches[^\n]*Googlebot-Image/);
    assert.doesNotMatch(star, /for example:[^\n]*Google-Extended/, 'control tokens are not crawlers');
    assert.match(star, /\*\*Not caught by `\*`:\*\* AdsBot-Google, AdsBot-Google-Mobile, APIs-Google/);
    assert.match(star, /Your crawler \(`CrawlPlanner`\) uses this group\./);
  });

  it('User-agent: unknown agents, merged groups, control tokens', () => {
    const text = 'User-agent: FooBot\nUser-agent: Google-Extended\nDisallow: /\n\nUser-agent: foobot\nAllow: /x\n';
    const h = hover(text, 1);
    assert.match(h, /`FooBot`: caught by its product token/);
    assert.match(h, /\*\*Google-Extended\*\* \(Google\): a control token .*it fetches nothing itself/);
    assert.match(h, /also named by the group at line 5: the groups are merged/);
    assert.match(
      hover('User-agent: Yandex\nDisallow: /\n', 1),
      /\*\*YandexBot\*\* \(Yandex\): no group names it, and Yandex's documentation says it then follows the `yandex` group/,
    );
  });

  it('crawlersCaughtBy follows RFC selection plus documented fallbacks', () => {
    const file = lint(
      'User-agent: Applebot\nDisallow: /a\nUser-agent: Googlebot\nDisallow: /g\nUser-agent: *\nDisallow: /s\n',
    ).file;
    const names = (i: number) => crawlersCaughtBy(file, i).caught.map((c) => `${c.crawler.token}:${c.how}`);
    assert.deepEqual(names(0), ['Applebot:named']);
    assert.ok(names(1).includes('Googlebot-News:fallback'));
    assert.ok(!names(1).includes('Applebot:fallback'), 'Applebot is named, so it does not fall back');
    assert.ok(names(2).includes('Bingbot:star'));
    assert.deepEqual(crawlersCaughtBy(file, 99), { caught: [], ignoringStar: [], otherAgents: [] });
  });

  it('Allow and Disallow: what the pattern matches', () => {
    assert.match(hover(FILE, 2), /Blocks every URL whose path \(and query\) starts with `\/private`/);
    assert.match(hover(FILE, 6), /Blocks every URL whose path and query match `\/tmp\/\*\.html\$`/);
    assert.match(hover(FILE, 6), /`\*` matches any run of characters/);
    assert.match(hover(FILE, 7), /Allows exactly the URL path \(and query\) `\/exact`/);
    assert.match(hover('User-agent: *\nDisallow: /caf\u00e9\n', 2), /Compared as `\/caf%C3%A9`/);
    assert.match(hover('User-agent: *\nDisallow:\n', 2), /An empty Disallow blocks nothing/);
    assert.match(hover('User-agent: *\nDisallow: private\n', 2), /never matches/);
    assert.match(hover(FILE, 11), /`Disalow` is read as \*\*Disallow\*\*/);
  });

  it('Sitemap, ignored and unknown directives', () => {
    assert.match(hover(FILE, 9), /An absolute URL/);
    assert.match(hover(FILE, 10), /Google stopped supporting noindex/);
    assert.match(hover(FILE, 12), /\*\*Unknown directive\*\* `Foo`/);
    assert.match(hover('Site-map: /s.xml\n', 1), /A relative URL/);
    assert.match(
      hover('Sitemap: /s.xml\n# https://a.example/robots.txt\n', 1),
      /Read as `https:\/\/a\.example\/s\.xml`/,
    );
    assert.match(hover('Sitemap: https://a.example/s.xml\nSitemap: https://a.example/s.xml\n', 2), /listed earlier/);
  });

  it('nothing on blank lines, comments, the comment part of a line, or past the end', () => {
    assert.equal(hoverAt(lint(FILE).file, 4, 0, CTX), undefined);
    assert.equal(hoverAt(lint(FILE).file, 13, 3, CTX), undefined);
    assert.equal(hoverAt(lint(FILE).file, 2, 20, CTX), undefined);
    assert.notEqual(hoverAt(lint(FILE).file, 2, 5, CTX), undefined);
    assert.equal(hoverAt(lint(FILE).file, 99, 0, CTX), undefined);
    assert.equal(hoverAt(lint('<html>').file, 1, 0, CTX), undefined);
  });

  it('values from the file cannot break out of their code spans', () => {
    const h = hover('User-agent: *\nDisallow: /a`b``c<script>\n', 2);
    assert.match(h, /```Disallow: \/a`b``c<script>```/);
    assert.doesNotMatch(h.replace(/```[^`]*(?:`{1,2}[^`]+)*```/g, ''), /<script>/);
  });

  it('every non-standard directive parse.ts knows has a knowledge entry', () => {
    for (const key of [
      'host',
      'clean-param',
      'noindex',
      'nofollow',
      'noarchive',
      'request-rate',
      'visit-time',
      'content-signal',
      'content-usage',
    ]) {
      assert.ok(DIRECTIVES[key]?.support, key);
    }
    for (const c of KNOWN_CRAWLERS) assert.match(c.token, /^[a-zA-Z_-]+$/, c.token);
  });
});

describe('CodeLens', () => {
  const TEXT =
    'User-agent: Googlebot\nDisallow: /private\nCrawl-delay: 10\n\nUser-agent: *\nDisallow: /\nCrawl-delay: 5\nCrawl-delay: 60\n';

  it('"Test URLs…" above each group and the cost above each used Crawl-delay', () => {
    const lenses = codeLenses(lint(TEXT).file, CTX).map((l) => [l.line, l.kind, l.title, l.group]);
    assert.deepEqual(lenses, [
      [1, 'test-urls', 'Test URLs…', 0],
      [3, 'crawl-delay', '360 pages/hour · 1,000,000 pages ≈ 115 d 18 h', 0],
      [5, 'test-urls', 'Test URLs…', 1],
      [8, 'crawl-delay', 'Capped at 30 s: 120 pages/hour · 1,000,000 pages ≈ 347 d 5 h', 1],
    ]);
  });

  it('"Compare with live robots.txt" only when the origin is known', () => {
    const r = lint(`# https://example.com/robots.txt\n${TEXT}`);
    const first = codeLenses(r.file, CTX, r.origin ? { liveOrigin: r.origin } : {})[0];
    assert.deepEqual(
      [first?.line, first?.kind, first?.title, first?.origin],
      [1, 'compare-live', 'Compare with live robots.txt (https://example.com)', 'https://example.com'],
    );
    assert.match(first?.tooltip ?? '', /a comment in the file/);
    assert.ok(!codeLenses(lint(TEXT).file, CTX).some((l) => l.kind === 'compare-live'));
  });

  it('a file without groups gets one "Test URLs…" lens; an empty file none', () => {
    assert.deepEqual(
      codeLenses(lint('# nothing\n').file, CTX).map((l) => [l.line, l.kind]),
      [[1, 'test-urls']],
    );
    assert.deepEqual(codeLenses(lint('').file, CTX), []);
  });
});

describe('quick fixes on the fixtures', () => {
  const FIXTURES = join(__dirname, '../fixtures/robots-lint');
  /** The codes with a fix, the preferred fix's title, and the fixed text. */
  const FIXED: Partial<Record<RobotsFindingCode, { title: string; text: string; options?: LintOptions }>> = {
    'missing-colon': { title: 'Add ":" after "Disallow"', text: 'User-agent: *\nDisallow: /private\n' },
    'directive-typo': { title: 'Change "Disalow" to "Disallow"', text: 'User-agent: *\nDisallow: /private\n' },
    'unknown-directive': {
      title: 'Change "Disallowed" to "Disallow"',
      text: 'User-agent: *\nDisallow: /private\nDisallow: /tmp\n',
    },
    'rule-outside-group': {
      title: 'Add "User-agent: *" above line 1',
      text: 'User-agent: *\nDisallow: /private\nUser-agent: *\nDisallow: /tmp\n',
    },
    'crawl-delay-outside-group': {
      title: 'Add "User-agent: *" above line 1',
      text: 'User-agent: *\nCrawl-delay: 10\nUser-agent: *\nDisallow: /private\n',
    },
    'sitemap-relative': {
      title: 'Make the Sitemap URL absolute: https://example.com/sitemap.xml',
      text: '# https://example.com/robots.txt\nUser-agent: *\nDisallow: /private\nSitemap: https://example.com/sitemap.xml\n',
    },
    'rule-path-not-absolute': {
      title: 'Start the path with "/": /private',
      text: 'User-agent: *\nDisallow: /private\n',
    },
    'user-agent-not-a-token': {
      title: 'Use the product token "Googlebot"',
      text: 'User-agent: Googlebot\nDisallow: /private\n',
    },
    'bom-in-line': {
      title: 'Remove the invisible byte order mark (U+FEFF)',
      text: 'User-agent: *\nDisallow: /private\nDisallow: /tmp\n',
    },
    'rule-duplicate': { title: 'Remove the duplicate rule', text: 'User-agent: *\nDisallow: /private\n' },
    'crawl-delay-duplicate': {
      title: 'Remove this Crawl-delay line (a larger one is used)',
      text: 'User-agent: *\nDisallow: /private\nCrawl-delay: 10\n',
    },
    'crawl-delay-exponent': { title: 'Write "10"', text: 'User-agent: *\nDisallow: /private\nCrawl-delay: 10\n' },
    'crawl-delay-invalid': {
      title: 'Write "10" (seconds)',
      text: 'User-agent: *\nDisallow: /private\nCrawl-delay: 10\n',
    },
    'crawl-delay-scope': {
      title: 'Give BarBot the same Crawl-delay',
      text: 'User-agent: FooBot\nCrawl-delay: 5\nUser-agent: BarBot\nCrawl-delay: 5\nDisallow: /private\n',
    },
  };

  for (const code of ROBOTS_FINDING_CODES) {
    const expected = FIXED[code];
    it(expected ? `${code}: "${expected.title}" removes the finding` : `${code}: no quick fix`, () => {
      const text = readFileSync(join(FIXTURES, `${code}.txt`), 'utf8');
      const options =
        code === 'truncated'
          ? { maxBytes: 40 }
          : code === 'not-text'
            ? { contentType: 'application/octet-stream' }
            : undefined;
      const r = lint(text, options);
      const finding = r.findings.find((f) => f.code === code);
      if (!finding) {
        assert.ok(['partial-bom', 'invalid-utf8'].includes(code), `${code} only shows from bytes`);
        return;
      }
      const fixes = quickFixes(r.file, finding);
      if (!expected) {
        assert.deepEqual(fixes, []);
        return;
      }
      const fix = fixes.find((f) => f.isPreferred) ?? fixes[0];
      assert.equal(fix?.title, expected.title);
      const fixed = applyEdits(text, fix?.edits ?? []);
      assert.equal(fixed, expected.text);
      assert.ok(!lint(fixed).findings.some((f) => f.code === code && f.line === finding.line), `${code} is gone`);
    });
  }

  it('a missing colon after a typo writes the canonical key; no fix when the origin is unknown', () => {
    const r = lint('User-agent: *\nuseragent *\nDisallow: /x\n');
    const f = r.findings.find((x) => x.code === 'missing-colon');
    assert.ok(f);
    const [fix] = quickFixes(r.file, f);
    assert.equal(
      applyEdits('User-agent: *\nuseragent *\nDisallow: /x\n', fix?.edits ?? []),
      'User-agent: *\nUser-agent: *\nDisallow: /x\n',
    );
    const unknown = lint('User-agent: *\nDisallow: /\nSitemap: /s.xml\n');
    assert.deepEqual(
      quickFixes(
        unknown.file,
        unknown.findings.find((x) => x.code === 'sitemap-relative')!,
      ),
      [],
    );
  });

  it('deleting the last line of a file without a final newline', () => {
    const text = 'User-agent: *\nDisallow: /a\nDisallow: /a';
    const r = lint(text);
    const [fix] = quickFixes(
      r.file,
      r.findings.find((f) => f.code === 'rule-duplicate')!,
    );
    assert.equal(applyEdits(text, fix?.edits ?? []), 'User-agent: *\nDisallow: /a');
  });
});

describe('testing URLs', () => {
  const file = lint(
    'User-agent: Googlebot\nDisallow: /private\nAllow: /private/ok\n\nUser-agent: *\nDisallow: /\n',
  ).file;

  it('verdicts with the deciding line; paths resolve against the file', () => {
    const results = checkUrlsAgainstRobots(file, splitUrlInput('/private/x private/ok  /public'), 'Googlebot');
    assert.deepEqual(
      results.map((r) => [r.input, r.explanation.verdict, r.explanation.line]),
      [
        ['/private/x', 'disallowed', 2],
        ['/private/ok', 'allowed', 3],
        ['/public', 'allowed', undefined],
      ],
    );
    assert.deepEqual(
      verdictMarks(results).map((m) => [m.line, m.verdict, m.text]),
      [
        [2, 'disallowed', '✗ blocks /private/x'],
        [3, 'allowed', '✓ allows /private/ok'],
      ],
    );
  });

  it('marks group many inputs on one line', () => {
    const results = checkUrlsAgainstRobots(file, ['/a', '/b', '/c', '/d', '/e'], 'OtherBot');
    assert.deepEqual(
      verdictMarks(results).map((m) => m.text),
      ['✗ blocks /a, /b, /c and 2 more'],
    );
  });

  it('splitUrlInput and robotsUrlForInputs', () => {
    assert.deepEqual(splitUrlInput('  https://a.example/x\n/y  z '), ['https://a.example/x', '/y', '/z']);
    assert.equal(robotsUrlForInputs(['/x', 'https://a.example:8443/y?q']), 'https://a.example:8443/robots.txt');
    assert.equal(robotsUrlForInputs(['/x', 'ftp://a.example/']), undefined);
  });

  it('tokenForGroup picks a token that selects the group', () => {
    assert.equal(tokenForGroup(file, 0, 'CrawlPlanner'), 'Googlebot');
    assert.equal(tokenForGroup(file, 1, 'CrawlPlanner'), 'CrawlPlanner');
    assert.equal(tokenForGroup(file, 1, 'googlebot'), 'AnyOtherCrawler');
    const taken = lint('User-agent: AnyOtherCrawler\nDisallow: /\nUser-agent: *\nDisallow: /x\n').file;
    assert.equal(tokenForGroup(taken, 1, 'AnyOtherCrawler'), 'AnyOtherCrawlerX');
    assert.equal(tokenForGroup(lint('User-agent: ExampleBot/1.0\nDisallow: /\n').file, 0, 'x'), 'ExampleBot');
  });
});
