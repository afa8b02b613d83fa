/**
 * The canonical percent-encoding (percentEncoding.ts) and the matchers (match.ts): the compiled matcher every
 * verdict uses, the linear reference matcher, and robots-parser as an independent oracle. Property tests
 * run random rule sets and paths through all three: they must agree on the verdict and the deciding line.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import robotsParser from 'robots-parser';
import {
  bestMatch,
  compileRules,
  explain,
  groupFor,
  linearLongestMatch,
  linearMatch,
  normalizeForMatch,
  parseRobots,
  verdict,
  type MatchRule,
} from '../../src/core/robots';
import { robotsParserSteps, robotsParserVerdict } from '../helpers/robotsParserOracle';

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
    ['/!&()+,:;=@?a=b', 'url', '/!&()+,:;=@?a=b'],
    ['/\t\u007f', 'url', '/%09%7F'],
  ];
  for (const [input, side, expected] of table) {
    it(`${side} ${JSON.stringify(input)} → ${expected}`, () => assert.equal(normalizeForMatch(input, side), expected));
  }

  it('is idempotent on both sides (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.constantFrom('pattern' as const, 'url' as const),
        (s, side) => {
          const once = normalizeForMatch(s, side);
          assert.equal(normalizeForMatch(once, side), once);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("is a fixed point of robots-parser's rule normaliser (encodeURI) and of the URL serialiser (property)", () => {
    const PARTS = [
      'a',
      'Z',
      '0',
      '/',
      '?',
      '#',
      '%',
      '%7e',
      '%2F',
      '|',
      '[',
      ']',
      '^',
      "'",
      '\\',
      ' ',
      '"',
      '`',
      '{',
      '}',
      '*',
      '$',
      'ツ',
      '.',
      '..',
      '~',
      '&',
      '=',
      ':',
      '@',
      '!',
    ];
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
        assert.equal(
          linearMatch(pattern, path),
          rp.isAllowed('http://a.test' + path, 'x') === false,
          `${pattern} vs ${path}`,
        );
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

describe('the compiled matcher', () => {
  const R = (pattern: string, allow: boolean, line: number): MatchRule => ({ pattern, allow, line });

  it('longest prefix among nested prefixes, through the parent chain', () => {
    const rules = [R('/a', false, 1), R('/ab', true, 2), R('/abc/d', false, 3), R('/abd', false, 4), R('/b', false, 5)];
    const c = compileRules(rules);
    const best = (p: string) => bestMatch(c, p)?.line;
    assert.equal(best('/abc/e'), 2, '/abc/d does not match, /ab does');
    assert.equal(best('/abc/dx'), 3);
    assert.equal(best('/abz'), 2);
    assert.equal(best('/a'), 1);
    assert.equal(best('/'), undefined);
    assert.equal(best('/abdx'), 4);
    assert.equal(best('/c'), undefined);
  });

  it('exact ($) rules, wildcard rules and prefix rules compete by length, then allow, then file order', () => {
    const rules = [
      R('/x', false, 1),
      R('/x$', true, 2),
      R('/x*', true, 3),
      R('/*y', false, 4),
      R('/xy', true, 5),
      R('/*/z$', false, 6),
      R('/*q', false, 7),
      R('/qq', true, 8),
    ];
    const c = compileRules(rules);
    const best = (p: string) => bestMatch(c, p)?.line;
    assert.equal(best('/x'), 2, '/x$ (3) beats /x (2)');
    assert.equal(best('/xa'), 3, '/x* (3) beats /x (2)');
    assert.equal(best('/xy'), 3, '/x*, /*y and /xy have length 3: the allows win, and of them the earlier line');
    assert.equal(best('/ay'), 4);
    assert.equal(best('/a/z'), 6);
    assert.equal(best('/a/zz'), undefined);
    assert.equal(best('/qq'), 8, '/*q and /qq have length 3: the allow wins though it comes later');
  });

  it('duplicate patterns: allow wins, else the earlier line', () => {
    const c = compileRules([
      R('/p', false, 1),
      R('/p', false, 2),
      R('/q', false, 3),
      R('/q', true, 4),
      R('/q', true, 5),
    ]);
    assert.equal(bestMatch(c, '/p1')?.line, 1);
    assert.equal(bestMatch(c, '/q1')?.line, 4);
  });

  it('agrees with the linear reference on random rule sets (property)', () => {
    const ruleArb = fc.record({
      allow: fc.boolean(),
      pattern: fc
        .string({ unit: fc.constantFrom('a', 'b', '/', '*', '$'), minLength: 1, maxLength: 7 })
        .map((p) => '/' + p.replace(/\$(?!$)/g, '')),
    });
    const pathArb = fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 9 }).map((s) => '/' + s);
    fc.assert(
      fc.property(
        fc.array(ruleArb, { minLength: 1, maxLength: 40 }),
        fc.array(pathArb, { minLength: 1, maxLength: 10 }),
        (specs, paths) => {
          const rules = specs.map((r, i) => R(r.pattern, r.allow, i + 1));
          const c = compileRules(rules);
          for (const path of paths)
            assert.equal(
              bestMatch(c, path)?.line,
              linearLongestMatch(rules, path)?.line,
              `${path} | ${JSON.stringify(rules)}`,
            );
        },
      ),
      { numRuns: 3000 },
    );
  });
});

describe('verdicts: the compiled matcher, the linear reference and robots-parser agree (property)', () => {
  const ruleArb = fc.record({
    allow: fc.boolean(),
    pattern: fc.string({
      unit: fc.constantFrom('a', 'b', '/', '*', '$', '%', '7', 'E', '~', '|', 'ツ', '?', '='),
      minLength: 1,
      maxLength: 7,
    }),
  });
  const pathArb = fc.string({
    unit: fc.constantFrom('a', 'b', '/', '~', '%7E', '|', '$', '*', 'ツ', '?', '=', '#'),
    maxLength: 9,
  });

  it('random rule sets and URLs: same verdict and deciding line', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.array(ruleArb, { minLength: 1, maxLength: 12 }), pathArb, (rules, path) => {
        const text = [
          'User-agent: FooBot',
          ...rules.map((r) => `${r.allow ? 'Allow' : 'Disallow'}: /${r.pattern}`),
        ].join('\n');
        const file = parseRobots(text, { robotsUrl: 'http://a.test/robots.txt' });
        const url = 'http://a.test/' + path;
        const e = explain(file, url, 'FooBot');
        const v = verdict(file, url, 'FooBot');
        assert.deepEqual([v.verdict, v.line], [e.verdict, e.line], `${text} | ${url}`);
        // The linear reference on the same canonical rules and path.
        const matchRules = groupFor(file, 'FooBot')
          .rules.filter((r) => r.pattern !== '')
          .map((r) => ({ pattern: r.pattern, allow: r.directive === 'allow', line: r.line }));
        const ref = e.basis === 'robots-txt' ? undefined : linearLongestMatch(matchRules, e.path as string);
        assert.equal(e.line, ref?.line, `linear: ${text} | ${url}`);
        // robots-parser, where it has no known gap.
        const rp = robotsParserVerdict(file, 'foobot', url);
        if (rp !== 'not-comparable') {
          compared++;
          assert.deepEqual([e.verdict, e.line], [rp.verdict, rp.line], `robots-parser: ${text} | ${url}`);
        }
      }),
      { numRuns: 2000 },
    );
    assert.ok(compared > 1000, `robots-parser was comparable on ${compared} of 2,000 runs`);
  });
});

describe('robotsParserSteps (test helper): why robots-parser no longer matches', () => {
  it('counts 1 step per literal before the first *, |path|+1 per character from it, twice', () => {
    // fixed = 4 + 2; perPathChar = 3 (from "*bc"); path length 9 → 2 × (6 + 3 × 10)
    assert.equal(robotsParserSteps([{ pattern: '/abc' }, { pattern: '/a*bc' }], 9), 72);
  });
});
