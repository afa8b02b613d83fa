/**
 * One test (or table) per robots-parser gap G# (docs/robots-txt.md#robots-parsers-gaps-g1g19) that this
 * wrapper closes or decides. Bodies here are written by us (derived material), not upstream cases.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  crawlDelayFor,
  explain,
  explainWithOutcome,
  groupFor,
  loadRobotsFile,
  parseRobots,
  readCrawlDelay,
  readUserAgentValue,
  resolveProductToken,
  validateProductToken,
  verdict as verdictOf,
  type RobotsFile,
} from '../../src/core/robots';
import { robotsParserSteps } from '../helpers/robotsParserOracle';

const ROBOTS = 'http://a.test/robots.txt';
const file = (text: string, robotsUrl = ROBOTS): RobotsFile => parseRobots(text, { robotsUrl });
const verdict = (f: RobotsFile, path: string, token: string) =>
  explain(f, path.startsWith('/') ? `http://a.test${path}` : path, token).verdict;
const codes = (f: RobotsFile) => f.findings.map((x) => `${x.line}:${x.code}`);

describe('G1 product token: full User-Agent headers, validation', () => {
  const f = file('User-agent: ExampleBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n');

  it('a full User-Agent header selects the ExampleBot group (robots-parser picked "mozilla")', () => {
    const e = explain(
      f,
      'http://a.test/page',
      'Mozilla/5.0 (compatible; ExampleBot/0.1; +https://example.com/bot.html)',
    );
    assert.equal(e.verdict, 'disallowed');
    assert.equal(e.productToken, 'ExampleBot');
    assert.deepEqual(e.group, { line: 1, lines: [1], userAgents: ['ExampleBot'], matchedBy: 'product-token' });
  });

  const resolutions: [input: string, token: string | undefined, source?: string][] = [
    ['ExampleBot', 'ExampleBot', 'token'],
    ['  examplebot ', 'examplebot', 'token'],
    ['ExampleBot/1.0', 'ExampleBot', 'token-with-version'],
    ['ExampleBot/1.0 (+https://example.com/bot)', 'ExampleBot', 'user-agent-header'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot', 'user-agent-header'],
    [
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Bingbot/2.0) Chrome/120 Safari/537.36',
      'Bingbot',
      'user-agent-header',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', undefined],
    ['Foo Bar', undefined],
    ['bot2', undefined],
    ['', undefined],
  ];
  for (const [input, token, source] of resolutions) {
    it(`resolveProductToken(${JSON.stringify(input)}) → ${token ?? 'none'}`, () => {
      const r = resolveProductToken(input);
      assert.equal(r.token, token);
      assert.equal(r.source, source);
      if (token === undefined) assert.match(r.problem ?? '', /product token/);
    });
  }

  const validations: [token: string, ok: boolean][] = [
    ['ExampleBot', true],
    ['example_bot-x', true],
    ['My Bot/1.0', false],
    ['ExampleBot/1.0', false],
    ['bot2', false],
    ['', false],
    ['Bot*', false],
  ];
  for (const [token, ok] of validations) {
    it(`validateProductToken(${JSON.stringify(token)}) → ${ok ? 'valid' : 'error citing [a-zA-Z_-]+'}`, () => {
      const msg = validateProductToken(token);
      if (ok) assert.equal(msg, undefined);
      else {
        assert.match(msg ?? '', /\[a-zA-Z_-\]\+/);
        assert.match(msg ?? '', /RFC 9309 §2\.2\.1/);
      }
    });
  }

  it('an invalid token matches only * groups, and says so', () => {
    const e = explain(f, 'http://a.test/private/x', 'Foo Bar');
    assert.equal(e.verdict, 'disallowed');
    assert.equal(e.group?.matchedBy, 'star');
    assert.match(e.reason, /not a valid product token/);
  });

  it('matches case-insensitively and merges every group naming the token (RFC 9309 §2.2.1, test A3)', () => {
    const g = file(
      'user-agent: EXAMPLEBOT\ndisallow: /a\nuser-agent: examplebot\ndisallow: /b\nuser-agent: *\ndisallow: /\n',
    );
    assert.equal(verdict(g, '/a', 'ExampleBot'), 'disallowed');
    assert.equal(verdict(g, '/b', 'ExampleBot'), 'disallowed');
    assert.equal(verdict(g, '/c', 'ExampleBot'), 'allowed');
    assert.deepEqual(groupFor(g, 'exampleBOT').lines, [1, 3]);
  });
});

describe('G2 non-rule lines never split a group', () => {
  for (const between of [
    'Sitemap: http://a.test/sitemap.xml',
    'Crawl-delay: 5',
    'Host: a.test',
    'Foo: bar',
    'this is not a directive',
  ]) {
    it(`User-agent: a / ${between} / User-agent: b / Disallow: / → a is disallowed`, () => {
      const f = file(`User-agent: a\n${between}\nUser-agent: b\nDisallow: /\n`);
      const e = explain(f, 'http://a.test/x', 'a');
      assert.equal(e.verdict, 'disallowed');
      assert.equal(e.line, 4);
      assert.deepEqual(e.group?.userAgents, ['a', 'b']);
    });
  }

  it('Crawl-delay between user-agent lines keeps the group whole, but belongs to the user-agent lines before it', () => {
    const f = file('User-agent: a\nCrawl-delay: 5\nUser-agent: b\nDisallow: /x\n');
    assert.equal(f.groups.length, 1);
    assert.equal(explain(f, 'http://a.test/x', 'b').verdict, 'disallowed');
    assert.deepEqual(crawlDelayFor(f, 'a'), { seconds: 5, line: 2 });
    assert.deepEqual(crawlDelayFor(f, 'b'), {}, 'b is named, and no Crawl-delay follows its user-agent line');
    assert.equal(explain(f, 'http://a.test/x', 'a').crawlDelaySeconds, 5);
    assert.deepEqual(codes(f), ['2:crawl-delay-scope']);
  });

  it('an allow/disallow line does end the run of user-agent lines', () => {
    const f = file('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /y\n');
    assert.equal(f.groups.length, 2);
    assert.equal(verdict(f, '/y', 'a'), 'allowed');
  });
});

describe('G3/G4 rules and URLs percent-encoded the same way', () => {
  const table: [rule: string, path: string, expected: 'allowed' | 'disallowed'][] = [
    ['/~joe', '/%7Ejoe', 'disallowed'],
    ['/~joe', '/%7ejoe', 'disallowed'],
    ['/%7Ejoe', '/~joe', 'disallowed'],
    ['/%7ejoe', '/~joe', 'disallowed'],
    ['/a|b', '/a|b', 'disallowed'],
    ['/a|b', '/a%7cb', 'disallowed'],
    ['/a%7Cb', '/a|b', 'disallowed'],
    ['/a[1]', '/a[1]', 'disallowed'],
    ['/a^b', '/a^b', 'disallowed'],
    ["/s?q='x'", "/s?q='x'", 'disallowed'],
    ["/a'b", '/a%27b', 'disallowed'],
    ['/foo/%62%61%7A', '/foo/baz', 'disallowed'],
    ['/%aa', '/%AA', 'disallowed'],
    ['/ツ', '/%E3%83%84', 'disallowed'],
    ['/%E3%83%84', '/ツ', 'disallowed'],
    ['/a b', '/a%20b', 'disallowed'],
    // Reserved characters are not equivalent to their encodings (RFC 3986 §2.2):
    ['/a%2Fb', '/a/b', 'allowed'],
    ['/a!b', '/a%21b', 'allowed'],
    ['/a%3Fb', '/a?b', 'allowed'],
  ];
  for (const [rule, path, expected] of table) {
    it(`Disallow: ${rule} vs ${path} → ${expected}`, () => {
      assert.equal(verdict(file(`User-agent: *\nDisallow: ${rule}\n`), path, 'bot'), expected);
    });
  }
});

describe('G5 %2A / %24 in a rule match a literal * / $ (RFC 9309 §2.2.3, Fig. 6)', () => {
  const f = file('User-agent: *\nDisallow: /path/file-with-a-%2A.html\nDisallow: /price-%24\nDisallow: /wild*card\n');
  it('%2A blocks a literal *', () => assert.equal(verdict(f, '/path/file-with-a-*.html', 'bot'), 'disallowed'));
  it('%2A does not act as a wildcard', () => assert.equal(verdict(f, '/path/file-with-a-b.html', 'bot'), 'allowed'));
  it('%24 blocks a literal $', () => assert.equal(verdict(f, '/price-$', 'bot'), 'disallowed'));
  it('a raw * is still a wildcard', () => assert.equal(verdict(f, '/wild-thing-card', 'bot'), 'disallowed'));
});

describe('G6 UTF-8 byte order mark (full and partial) is skipped', () => {
  const rules = new TextEncoder().encode('User-agent: *\nDisallow: /\n');
  const withPrefix = (prefix: number[]) => new Uint8Array([...prefix, ...rules]);
  for (const [name, prefix] of [
    ['EF BB BF', [0xef, 0xbb, 0xbf]],
    ['EF BB', [0xef, 0xbb]],
    ['EF', [0xef]],
  ] as const) {
    it(`${name} + "User-agent: *\\nDisallow: /" → disallowed`, () => {
      const f = loadRobotsFile(withPrefix([...prefix]), { robotsUrl: ROBOTS });
      assert.equal(verdict(f, '/x', 'bot'), 'disallowed');
      assert.equal(f.lines[0]?.kind, 'user-agent');
    });
  }
  it('a string starting with U+FEFF → disallowed', () => {
    assert.equal(
      verdict(loadRobotsFile('\uFEFFUser-agent: *\nDisallow: /\n', { robotsUrl: ROBOTS }), '/x', 'bot'),
      'disallowed',
    );
  });
});

describe("G7 user-agent values in the file: Google's first-token reading", () => {
  const table: [value: string, token: string, global: boolean][] = [
    ['ExampleBot', 'examplebot', false],
    ['ExampleBot*', 'examplebot', false],
    ['FOO BAR', 'foo', false],
    ['ExampleBot/1.0', 'examplebot', false],
    ['*', '*', true],
    ['* foo', '*', true],
    ['*bot', '', false],
    ['123bot', '', false],
  ];
  for (const [value, token, global] of table) {
    it(`User-agent: ${value} → ${global ? '*' : JSON.stringify(token)}`, () => {
      const ua = readUserAgentValue(value);
      assert.equal(ua.token, token);
      assert.equal(ua.global, global);
    });
  }
  it('User-agent: ExampleBot* selects the ExampleBot group, with a finding', () => {
    const f = file('User-agent: ExampleBot*\nDisallow: /\n');
    assert.equal(verdict(f, '/x', 'ExampleBot'), 'disallowed');
    assert.deepEqual(codes(f), ['1:user-agent-not-a-token']);
  });
});

describe('G8 a matching group without rules allows everything (RFC 9309 §5.1 example)', () => {
  const rfcExample = [
    'User-Agent: *',
    'Disallow: *.gif$',
    'Disallow: /example/',
    'Allow: /publications/',
    '',
    'User-Agent: foobot',
    'Disallow:/',
    'Allow:/example/page.html',
    'Allow:/example/allowed.gif',
    '',
    'User-Agent: barbot',
    'User-Agent: bazbot',
    'Disallow: /example/page.html',
    '',
    'User-Agent: quxbot',
    '',
  ].join('\n');
  const f = file(rfcExample);
  const table: [token: string, path: string, expected: 'allowed' | 'disallowed'][] = [
    ['quxbot', '/example/x', 'allowed'],
    ['quxbot', '/a.gif', 'allowed'],
    ['foobot', '/example/page.html', 'allowed'],
    ['foobot', '/example/allowed.gif', 'allowed'],
    ['foobot', '/x', 'disallowed'],
    ['barbot', '/example/page.html', 'disallowed'],
    ['bazbot', '/example/x', 'allowed'],
    ['otherbot', '/example/x', 'disallowed'],
    ['otherbot', '/a.gif', 'disallowed'],
    ['otherbot', '/publications/x', 'allowed'],
  ];
  for (const [token, path, expected] of table) {
    it(`${token} ${path} → ${expected}`, () => assert.equal(verdict(f, path, token), expected));
  }
  it('the quxbot explanation names its empty group and reports it', () => {
    const e = explain(f, 'http://a.test/example/x', 'quxbot');
    assert.equal(e.group?.line, 15);
    assert.equal(e.group?.matchedBy, 'product-token');
    assert.match(e.reason, /no rules/);
    assert.ok(codes(f).includes('15:empty-group'));
  });
});

describe('G9 /robots.txt itself is always allowed', () => {
  const f = file('User-agent: *\nDisallow: /\n');
  it('/robots.txt → allowed', () => {
    const e = explain(f, 'http://a.test/robots.txt', 'bot');
    assert.equal(e.verdict, 'allowed');
    assert.match(e.reason, /RFC 9309 §2\.2\.2/);
  });
  it('/robots.txt?x and /other stay disallowed', () => {
    assert.equal(verdict(f, '/robots.txt?x', 'bot'), 'disallowed');
    assert.equal(verdict(f, '/other', 'bot'), 'disallowed');
  });
  it('also when robots.txt was unreachable', () => {
    assert.equal(
      explainWithOutcome('unreachable', undefined, 'http://a.test/robots.txt', 'bot', { robotsUrl: ROBOTS }).verdict,
      'allowed',
    );
  });
});

describe('G14 the 500 KiB parsing limit (RFC 9309 §2.5)', () => {
  const pad = (bytes: number) => {
    const line = '#' + 'x'.repeat(98) + '\n'; // 100 bytes
    return (
      line.repeat(Math.floor(bytes / 100)) +
      '#'.repeat(bytes % 100 === 0 ? 0 : (bytes % 100) - 1) +
      (bytes % 100 === 0 ? '' : '\n')
    );
  };

  it('D1: a rule that ends before byte 512,000 of a 511,000-byte file is enforced', () => {
    const tail = 'User-agent: *\nDisallow: /deep\n';
    const body = pad(511_000 - tail.length) + tail;
    assert.equal(Buffer.byteLength(body), 511_000);
    const f = loadRobotsFile(body, { robotsUrl: ROBOTS });
    assert.equal(f.body?.truncated, false);
    assert.equal(verdict(f, '/deep', 'bot'), 'disallowed');
  });

  it('rules after the limit are ignored and reported', () => {
    const body = 'User-agent: *\n' + pad(520_000) + 'Disallow: /late\n';
    const f = loadRobotsFile(body, { robotsUrl: ROBOTS });
    assert.equal(f.body?.truncated, true);
    assert.equal(verdict(f, '/late', 'bot'), 'allowed');
    const t = f.findings.find((x) => x.code === 'truncated');
    assert.equal(t?.line, f.lines.length + 1);
  });

  it('a rule line cut by the limit is dropped, not shortened', () => {
    const head = 'User-agent: *\n';
    const rule = 'Disallow: /private-area\n';
    // Place the rule so that byte 512,000 falls right after "Disallow: /pr".
    const padding = pad(512_000 - head.length - 'Disallow: /pr'.length);
    const body = head + padding + rule;
    const f = loadRobotsFile(body, { robotsUrl: ROBOTS });
    assert.equal(f.body?.truncated, true);
    assert.equal(verdict(f, '/pr-other', 'bot'), 'allowed');
    assert.equal(verdict(f, '/private-area', 'bot'), 'allowed');
    assert.ok(f.lines.every((l) => !l.raw.startsWith('Disallow')));
  });
});

describe('G15 matching cost is bounded for hostile patterns', () => {
  const pattern = '/' + '*a'.repeat(1998) + '*ab';
  const body = 'User-agent: *\n' + `Disallow: ${pattern}\n`.repeat(120);
  const url = 'http://a.test/' + 'a'.repeat(8000);

  it('120 × /*a*a…*ab (≈4,000 chars) vs an 8,000-char URL: the wildcard rules go to the linear matcher', () => {
    assert.ok(pattern.length > 3990 && Buffer.byteLength(body) < 512_000);
    const f = loadRobotsFile(body, { robotsUrl: ROBOTS });
    // Deterministic: robots-parser's worst case here is ~2 × 10^9 steps (the reason it no longer matches).
    assert.ok(robotsParserSteps(groupFor(f, 'bot').rules, 8001) > 1e9);
    const started = process.hrtime.bigint();
    const e = explain(f, url, 'bot');
    const b = explain(f, url + 'b', 'bot');
    const v = verdictOf(f, url + 'b', 'bot');
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.deepEqual([e.verdict, e.basis], ['allowed', 'no-match']);
    assert.deepEqual([b.verdict, b.line, b.matcher], ['disallowed', 2, 'wildcard']);
    assert.deepEqual([v.verdict, v.line], ['disallowed', 2]);
    assert.ok(ms < 2000, `took ${ms} ms`); // DoS guard; typically a few ms
  });

  it('ordinary files go through the prefix and exact lookups', () => {
    const f = file('User-agent: *\nDisallow: /*.php$\nDisallow: /private\nAllow: /exact$\n');
    assert.equal(explain(f, 'http://a.test/x.php', 'bot').matcher, 'wildcard');
    assert.equal(explain(f, 'http://a.test/private/x', 'bot').matcher, 'prefix');
    assert.equal(explain(f, 'http://a.test/exact', 'bot').matcher, 'exact');
  });
});

describe('G16 other origins are not-applicable, never disallowed', () => {
  const f = file('User-agent: *\nDisallow: /\n');
  const table: [url: string, expected: string][] = [
    ['http://other.test/x', 'not-applicable'],
    ['http://a.test:8080/x', 'not-applicable'],
    ['https://a.test/x', 'not-applicable'],
    ['ftp://a.test/x', 'not-applicable'],
    ['mailto:x@a.test', 'not-applicable'],
    ['not a url', 'not-applicable'],
    ['', 'not-applicable'],
    ['http://a.test:80/x', 'disallowed'],
    ['HTTP://A.TEST/x', 'disallowed'],
    ['/x', 'disallowed'],
    ['http://a.test/x#frag', 'disallowed'],
  ];
  for (const [url, expected] of table) {
    it(`${JSON.stringify(url)} → ${expected}`, () => assert.equal(explain(f, url, 'bot').verdict, expected));
  }
  it('a file fetched through a redirect is built with the ORIGINAL robots URL and governs that origin', () => {
    // The body came from http://cdn.test/robots.txt after a redirect; rules apply to a.test (§2.3.1.2).
    const g = file('User-agent: *\nDisallow: /\n', 'http://a.test/robots.txt');
    assert.equal(explain(g, 'http://a.test/x', 'bot').verdict, 'disallowed');
    assert.equal(explain(g, 'http://cdn.test/x', 'bot').verdict, 'not-applicable');
  });
});

describe('G17 Crawl-delay is validated', () => {
  const table: [value: string, seconds: number | undefined, code?: string | string[]][] = [
    ['10', 10],
    ['0', 0],
    ['0.5', 0.5],
    ['.5', 0.5],
    ['2.', 2],
    ['1e3', 1000, ['crawl-delay-exponent', 'crawl-delay-above-cap']],
    ['1e1', 10, 'crawl-delay-exponent'],
    ['-5', undefined, 'crawl-delay-invalid'],
    ['+5', undefined, 'crawl-delay-invalid'],
    ['0x10', undefined, 'crawl-delay-invalid'],
    ['Infinity', undefined, 'crawl-delay-invalid'],
    ['NaN', undefined, 'crawl-delay-invalid'],
    ['10s', undefined, 'crawl-delay-invalid'],
    ['1.2.1', undefined, 'crawl-delay-invalid'],
    ['1e400', undefined, 'crawl-delay-invalid'],
    ['', undefined, 'crawl-delay-invalid'],
    ['   ', undefined, 'crawl-delay-invalid'],
  ];
  for (const [value, seconds, code] of table) {
    it(`Crawl-delay: ${JSON.stringify(value)} → ${seconds ?? 'ignored'}${code ? ` (${String(code)})` : ''}`, () => {
      assert.equal(readCrawlDelay(value.trim()).seconds, seconds);
      const f = file(`User-agent: *\nCrawl-delay: ${value}\n`);
      assert.equal(crawlDelayFor(f, 'bot').seconds, seconds);
      assert.deepEqual(
        f.findings.filter((x) => x.code.startsWith('crawl-delay')).map((x) => x.code),
        code === undefined ? [] : typeof code === 'string' ? [code] : code,
      );
    });
  }

  it('values above the cap are kept and reported (the cap is applied by effectiveInterval)', () => {
    const f = parseRobots('User-agent: *\nCrawl-delay: 120\n', { robotsUrl: ROBOTS, maxCrawlDelaySeconds: 60 });
    assert.equal(crawlDelayFor(f, 'bot').seconds, 120);
    assert.deepEqual(codes(f), ['1:empty-group', '2:crawl-delay-above-cap']);
  });

  it('several Crawl-delay lines: the largest wins, the others are reported', () => {
    const f = file('User-agent: *\nCrawl-delay: 5\nCrawl-delay: 10\nDisallow: /x\n');
    assert.deepEqual(crawlDelayFor(f, 'bot'), { seconds: 10, line: 3 });
    assert.deepEqual(codes(f), ['2:crawl-delay-duplicate']);
  });

  it("a specific group without Crawl-delay does not inherit the * group's", () => {
    const f = file('User-agent: *\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: ExampleBot\nDisallow: /y\n');
    assert.deepEqual(crawlDelayFor(f, 'ExampleBot'), {});
    assert.deepEqual(crawlDelayFor(f, 'other'), { seconds: 5, line: 2 });
  });
});

describe('explainWithOutcome: the fetch outcome policy (RFC 9309 §2.3.1)', () => {
  const f = file('User-agent: *\nDisallow: /private\n');
  it('ok → the rules decide', () => {
    const e = explainWithOutcome('ok', f, 'http://a.test/private/x', 'bot');
    assert.equal(e.verdict, 'disallowed');
    assert.equal(e.outcome, 'ok');
    assert.equal(e.line, 2);
    assert.equal(e.rule, 'Disallow: /private');
  });
  it('ok without a file is a programming error', () => {
    assert.throws(() => explainWithOutcome('ok', undefined, 'http://a.test/x', 'bot'), TypeError);
  });
  it('unavailable (4xx, too many redirects) → allowed, and the reason says why', () => {
    const e = explainWithOutcome('unavailable', undefined, 'http://a.test/private/x', 'bot', {
      robotsUrl: ROBOTS,
      status: 404,
    });
    assert.equal(e.verdict, 'allowed');
    assert.match(e.reason, /^robots\.txt is unavailable \(HTTP 404\)/);
    assert.match(e.reason, /§2\.3\.1\.3/);
  });
  it('unreachable (5xx, 429, network) → disallowed, said first in the reason', () => {
    const e = explainWithOutcome('unreachable', undefined, 'http://a.test/public', 'bot', {
      robotsUrl: ROBOTS,
      status: 503,
    });
    assert.equal(e.verdict, 'disallowed');
    assert.match(e.reason, /^robots\.txt unreachable \(HTTP 503\)/);
    assert.match(e.reason, /§2\.3\.1\.4/);
    const n = explainWithOutcome('unreachable', undefined, 'http://a.test/public', 'bot', {
      detail: 'connection refused',
    });
    assert.match(n.reason, /^robots\.txt unreachable \(connection refused\)/);
  });
  it('other origins stay not-applicable whatever the outcome', () => {
    for (const outcome of ['unavailable', 'unreachable'] as const) {
      assert.equal(
        explainWithOutcome(outcome, undefined, 'http://b.test/x', 'bot', { robotsUrl: ROBOTS }).verdict,
        'not-applicable',
      );
    }
  });
});

describe('explain: the explanation', () => {
  it('names the deciding line, directive, group and Crawl-delay', () => {
    const f = file(
      '# comment\nUser-agent: ExampleBot\nCrawl-delay: 3\nDisallow: /private   # keep out\nAllow: /private/ok\n',
    );
    const e = explain(f, 'http://a.test/private/x?y=1', 'ExampleBot');
    assert.deepEqual(
      {
        verdict: e.verdict,
        line: e.line,
        rule: e.rule,
        directive: e.directive,
        group: e.group,
        crawlDelaySeconds: e.crawlDelaySeconds,
      },
      {
        verdict: 'disallowed',
        line: 4,
        rule: 'Disallow: /private',
        directive: 'disallow',
        group: { line: 2, lines: [2], userAgents: ['ExampleBot'], matchedBy: 'product-token' },
        crawlDelaySeconds: 3,
      },
    );
    assert.match(e.reason, /^Disallowed by line 4 "Disallow: \/private"/);
    const a = explain(f, 'http://a.test/private/ok', 'ExampleBot');
    assert.deepEqual([a.verdict, a.line, a.directive], ['allowed', 5, 'allow']);
  });

  it('no group for the token and no * group → allowed, matchedBy none', () => {
    const e = explain(file('User-agent: other\nDisallow: /\n'), 'http://a.test/x', 'ExampleBot');
    assert.equal(e.verdict, 'allowed');
    assert.deepEqual(e.group, { lines: [], userAgents: [], matchedBy: 'none' });
  });

  it('no matching rule → allowed without a line', () => {
    const e = explain(file('User-agent: *\nDisallow: /private\n'), 'http://a.test/public', 'bot');
    assert.deepEqual([e.verdict, e.line, e.rule], ['allowed', undefined, undefined]);
    assert.match(e.reason, /No rule in the \* group/);
  });
});
