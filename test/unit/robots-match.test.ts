/**
 * The canonical percent-encoding (encoding.ts) and the two matchers (robots-parser, and match.ts's linear
 * matcher for rule sets above the step budget). Property tests check that the linear matcher and robots-parser
 * agree, so the budget only ever changes speed, never a verdict.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import robotsParser from 'robots-parser';
import {
  MATCH_STEP_BUDGET,
  explain,
  linearLongestMatch,
  linearMatch,
  normalizeForMatch,
  parseRobots,
  robotsParserSteps,
} from '../../src/core/robots';

describe('normalizeForMatch: one canonical form for rules and URLs', () => {
  const table: [input: string, side: 'pattern' | 'url', expected: string][] = [
    ['/~joe', 'pattern', '/~joe'],
    ['/%7Ejoe', 'pattern', '/~joe'],
    ['/%7ejoe', 'url', '/~joe'],
    ['/%62%61%7A', 'pattern', '/baz'],
    ['/%2f%3F%23', 'url', '/%2F%3F%23'],
    ['/a|b', 'pattern', '/a%7Cb'],
    ['/a|b', 'url', '/a%7Cb'],
    ['/a[1]', 'url', '/a%5B1%5D'],
    ['/a^b', 'pattern', '/a%5Eb'],
    ["/s?q='x'", 'pattern', '/s?q=%27x%27'],
    ['/s?q=%27x%27', 'url', '/s?q=%27x%27'],
    ['/a\\b', 'pattern', '/a%5Cb'],
    ['/a b"<>`{}', 'pattern', '/a%20b%22%3C%3E%60%7B%7D'],
    ['/100%', 'url', '/100%25'],
    ['/100%zz', 'pattern', '/100%25zz'],
    ['/ツ', 'pattern', '/%E3%83%84'],
    ['/\u{1F600}', 'url', '/%F0%9F%98%80'],
    ['/caf\uDCE9', 'pattern', '/caf%E9'],
    ['/lone\uD800', 'url', '/lone%EF%BF%BD'],
    ['/*.php$', 'pattern', '/*.php$'],
    ['/a$b$', 'pattern', '/a%24b$'],
    ['/a*b$', 'url', '/a%2Ab%24'],
    ['/f-%2A.html', 'pattern', '/f-%2A.html'],
    ["/!&()+,:;=@?a=b", 'url', "/!&()+,:;=@?a=b"],
    ['/\t\u007f', 'url', '/%09%7F'],
  ];
  for (const [input, side, expected] of table) {
    it(`${side} ${JSON.stringify(input)} → ${expected}`, () => assert.equal(normalizeForMatch(input, side), expected));
  }

  it('is idempotent on both sides (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.constantFrom('pattern' as const, 'url' as const), (s, side) => {
        const once = normalizeForMatch(s, side);
        assert.equal(normalizeForMatch(once, side), once);
      }),
      { numRuns: 500 },
    );
  });

  it("is a fixed point of robots-parser's rule normaliser (encodeURI) and of the URL serialiser (property)", () => {
    const PARTS = ['a', 'Z', '0', '/', '?', '#', '%', '%7e', '%2F', '|', '[', ']', '^', "'", '\\', ' ', '"', '`', '{', '}', '*', '$', 'ツ', '.', '..', '~', '&', '=', ':', '@', '!'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PARTS), { maxLength: 12 }), (parts) => {
        const u = new URL('http://a.test/' + parts.join(''));
        const canon = normalizeForMatch(u.pathname + u.search, 'url');
        const again = new URL('http://a.test' + canon);
        assert.equal(again.pathname + again.search, canon);
        const rule = normalizeForMatch('/' + parts.join('').replace(/#/g, ''), 'pattern');
        assert.equal(encodeURI(rule).replace(/%25/g, '%'), rule);
      }),
      { numRuns: 500 },
    );
  });
});

describe('linearMatch', () => {
  const table: [pattern: string, path: string, matches: boolean][] = [
    ['/fish', '/fish.html', true],
    ['/fish', '/Fish.asp', false],
    ['/fish*', '/fish', true],
    ['/*.php', '/folder/filename.php?parameters', true],
    ['/*.php$', '/filename.php', true],
    ['/*.php$', '/filename.php?parameters', false],
    ['/fish*.php', '/fishheads/catfish.php?parameters', true],
    ['/$', '/', true],
    ['/$', '/page', false],
    ['/a$b', '/a$b', true],
    ['/a**b', '/ab', true],
    ['*', '/anything', true],
    ['/*a*ab', '/aaaaab', true],
    ['/*ab$', '/abab', true],
    ['/*ab$', '/aba', false],
    ['/x*x$', '/x', false],
    ['/x*x$', '/xx', true],
  ];
  for (const [pattern, path, expected] of table) {
    it(`${pattern} vs ${path} → ${expected}`, () => assert.equal(linearMatch(pattern, path), expected));
  }

  it('agrees with robots-parser on every pattern/path (property)', () => {
    const patternArb = fc.string({ unit: fc.constantFrom('a', 'b', '/', '*', '$'), minLength: 1, maxLength: 8 });
    const pathArb = fc.string({ unit: fc.constantFrom('a', 'b', '/', '$'), maxLength: 8 }).map((s) => '/' + s);
    fc.assert(
      fc.property(patternArb, pathArb, (pattern, path) => {
        const rp = robotsParser('http://a.test/robots.txt', `User-agent: *\nDisallow: ${pattern}\n`);
        assert.equal(linearMatch(pattern, path), rp.isAllowed('http://a.test' + path, 'x') === false, `${pattern} vs ${path}`);
      }),
      { numRuns: 3000 },
    );
  });

  it('longest match: longer pattern wins, allow wins a tie, the earlier rule wins otherwise', () => {
    const rules = [
      { pattern: '/a', allow: false, line: 1 },
      { pattern: '/ab', allow: false, line: 2 },
      { pattern: '/ab', allow: true, line: 3 },
      { pattern: '/a*', allow: true, line: 4 },
    ];
    assert.equal(linearLongestMatch(rules, '/abc')?.line, 3);
    assert.equal(linearLongestMatch(rules, '/ax')?.line, 4);
    assert.equal(linearLongestMatch(rules, '/b'), undefined);
  });
});

describe('explain: the linear matcher and robots-parser give the same verdict and line (property)', () => {
  it('random rule sets and URLs', () => {
    const ruleArb = fc.record({
      allow: fc.boolean(),
      pattern: fc.string({ unit: fc.constantFrom('a', 'b', '/', '*', '$', '%', '7', 'E', '~', '|', 'ツ'), minLength: 1, maxLength: 7 }),
    });
    const pathArb = fc.string({ unit: fc.constantFrom('a', 'b', '/', '~', '%7E', '|', '$', '*', 'ツ', '?'), maxLength: 8 });
    fc.assert(
      fc.property(fc.array(ruleArb, { minLength: 1, maxLength: 6 }), pathArb, (rules, path) => {
        const text = ['User-agent: FooBot', ...rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: /${r.pattern}`)].join('\n');
        const file = parseRobots(text, { robotsUrl: 'http://a.test/robots.txt' });
        const url = 'http://a.test/' + path;
        const a = explain(file, url, 'FooBot', { matcher: 'robots-parser' });
        const b = explain(file, url, 'FooBot', { matcher: 'linear' });
        assert.equal(a.verdict, b.verdict, `${text} | ${url}`);
        assert.equal(a.line, b.line, `${text} | ${url}`);
        if (a.line !== undefined) assert.equal(a.matcher, 'robots-parser');
      }),
      { numRuns: 1500 },
    );
  });
});

describe('robotsParserSteps: the deterministic cost bound', () => {
  it('counts 1 step per literal before the first *, |path|+1 per character from it, twice', () => {
    const rules = [
      { pattern: '/abc', allow: false, line: 1 },
      { pattern: '/a*bc', allow: false, line: 2 },
    ];
    // fixed = 4 + 2; perPathChar = 3 (from "*bc"); path length 9 → 2 × (6 + 3 × 10)
    assert.equal(robotsParserSteps(rules, 9), 72);
  });

  it('keeps ordinary files far below the budget', () => {
    const rules = Array.from({ length: 100 }, (_, i) => ({ pattern: `/section-${i}/*.php$`, allow: false, line: i + 2 }));
    assert.ok(robotsParserSteps(rules, 300) < MATCH_STEP_BUDGET / 4);
  });
});
