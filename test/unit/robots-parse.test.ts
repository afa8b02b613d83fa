/**
 * parseRobots: the line model, groups, sitemaps and findings; plus the parse-level cases from
 * google/robotstxt (test/fixtures/robotstxt/google-robotstxt-parse-cases.jsonl, Apache-2.0, see NOTICE.md).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  explain,
  loadRobotsFile,
  parseRobots,
  sitemaps,
  ROBOTS_FINDING_CODES,
  type RobotsLine,
} from '../../src/core/robots';

const ROBOTS = 'https://a.test/robots.txt';
const parse = (text: string) => parseRobots(text, { robotsUrl: ROBOTS });
const codes = (text: string) => parse(text).findings.map((f) => `${f.line}:${f.code}:${f.severity}`);

describe('line model', () => {
  const table: [raw: string, expected: Partial<RobotsLine>][] = [
    ['', { kind: 'blank' }],
    ['   \t', { kind: 'blank' }],
    ['# only a comment', { kind: 'comment' }],
    ['User-agent: ExampleBot', { kind: 'user-agent', key: 'User-agent', value: 'ExampleBot' }],
    ['  user-AGENT :  Foo Bar  # c', { kind: 'user-agent', key: 'user-AGENT', value: 'Foo Bar' }],
    ['Disallow: /private # keep out', { kind: 'disallow', key: 'Disallow', value: '/private' }],
    ['Disallow:', { kind: 'disallow', key: 'Disallow', value: '' }],
    ['allow:/x', { kind: 'allow', key: 'allow', value: '/x' }],
    ['disallow /', { kind: 'disallow', key: 'disallow', value: '/' }],
    ['Dissallow: /x', { kind: 'disallow', key: 'Dissallow', value: '/x' }],
    ['Crawl-delay: 10', { kind: 'crawl-delay', key: 'Crawl-delay', value: '10' }],
    ['Sitemap: https://a.test/s.xml', { kind: 'sitemap', key: 'Sitemap', value: 'https://a.test/s.xml' }],
    ['Host: a.test', { kind: 'unsupported', key: 'Host', value: 'a.test' }],
    ['Foo: bar', { kind: 'unknown', key: 'Foo', value: 'bar' }],
    ['\uFEFFAllow: /x', { kind: 'unknown', key: '\uFEFFAllow', value: '/x' }],
    ['disallow / extra', { kind: 'invalid' }],
    ['foo bar', { kind: 'invalid' }],
    [': value', { kind: 'invalid' }],
    ['<html>', { kind: 'invalid' }],
  ];
  for (const [raw, expected] of table) {
    it(`${JSON.stringify(raw)} → ${expected.kind}`, () => {
      const line: Partial<RobotsLine> = parse(raw).lines[0] ?? { kind: 'blank' };
      const got: Partial<RobotsLine> = { kind: line.kind };
      if ('key' in expected) got.key = line.key;
      if ('value' in expected) got.value = line.value;
      assert.deepEqual(got, expected);
    });
  }

  it('keeps raw text and column ranges', () => {
    const [line] = parse('  Disallow :  /x  # c').lines;
    assert.equal(line?.raw, '  Disallow :  /x  # c');
    assert.deepEqual(line?.keyRange, { start: 2, end: 10 });
    assert.deepEqual(line?.valueRange, { start: 14, end: 16 });
  });

  it('counts CR, LF and CRLF line ends alike; a final terminator adds no line', () => {
    for (const text of ['a: 1\nb: 2\n', 'a: 1\r\nb: 2\r\n', 'a: 1\rb: 2\r', 'a: 1\nb: 2', 'a: 1\r\nb: 2']) {
      assert.equal(parse(text).lines.length, 2, JSON.stringify(text));
    }
    assert.equal(parse('').lines.length, 0);
    assert.equal(parse('\n\n').lines.length, 2);
  });
});

describe('groups', () => {
  const f = parse(
    [
      'Sitemap: /s.xml',
      'User-agent: a',
      'User-agent: b',
      'Disallow: /x',
      '',
      'Crawl-delay: 2',
      'User-agent: c',
      'Allow: /y',
      'Disallow:',
    ].join('\n'),
  );
  it('start at a user-agent line after rules, and run to the next group', () => {
    assert.deepEqual(
      f.groups.map((g) => ({
        line: g.line,
        endLine: g.endLine,
        agents: g.userAgents.map((u) => u.token),
        rules: g.rules.map((r) => r.line),
      })),
      [
        { line: 2, endLine: 6, agents: ['a', 'b'], rules: [4] },
        { line: 7, endLine: 9, agents: ['c'], rules: [8, 9] },
      ],
    );
    assert.deepEqual(
      f.records.map((r) => ({
        line: r.line,
        endLine: r.endLine,
        agents: r.userAgents.map((u) => u.token),
        crawlDelays: r.crawlDelays,
        group: r.group,
      })),
      [
        { line: 2, endLine: 6, agents: ['a', 'b'], crawlDelays: [{ seconds: 2, line: 6 }], group: 0 },
        { line: 7, endLine: 9, agents: ['c'], crawlDelays: [], group: 1 },
      ],
    );
  });
  it('records: a user-agent line after any other key: value line starts a new record, inside the same group', () => {
    const g = parse(
      [
        'User-agent: a',
        '# note',
        '',
        'User-agent: b',
        'Crawl-delay: 1',
        'User-agent: c',
        'not a directive',
        'User-agent: d',
        'Foo: bar',
        'User-agent: e',
        'Disallow: /',
      ].join('\n'),
    );
    assert.equal(g.groups.length, 1);
    assert.deepEqual(
      g.records.map((r) => [
        r.line,
        r.endLine,
        r.userAgents.map((u) => u.token).join(','),
        r.crawlDelays.map((d) => d.line).join(','),
      ]),
      [
        [1, 5, 'a,b', '5'],
        [6, 9, 'c,d', ''],
        [10, 11, 'e', ''],
      ],
    );
  });
  it('keep the rule text and its canonical pattern', () => {
    const r = parse('User-agent: *\nDisallow: /a|b  # c\n').groups[0]?.rules[0];
    assert.deepEqual(r, { line: 2, directive: 'disallow', value: '/a|b', pattern: '/a%7Cb', text: 'Disallow: /a|b' });
  });
});

describe('sitemaps', () => {
  it('are resolved against the robots.txt URL, validated and de-duplicated', () => {
    const f = parse(
      [
        'Sitemap: https://a.test/sitemap.xml',
        'User-agent: *',
        'Sitemap: /relative.xml',
        'Disallow: /x',
        'Sitemap: ftp://a.test/s.xml',
        'Sitemap:',
        'Sitemap: https://a.test/sitemap.xml',
        'Sitemap: http://[bad',
      ].join('\n'),
    );
    assert.deepEqual(
      sitemaps(f).map((s) => [s.line, s.url]),
      [
        [1, 'https://a.test/sitemap.xml'],
        [3, 'https://a.test/relative.xml'],
      ],
    );
    assert.deepEqual(
      f.findings.map((x) => `${x.line}:${x.code}`),
      ['3:sitemap-relative', '5:sitemap-invalid', '6:sitemap-invalid', '7:sitemap-duplicate', '8:sitemap-invalid'],
    );
  });
});

describe('findings: every ignored or leniently read line', () => {
  const table: [text: string, expected: string[]][] = [
    ['Foo: bar', ['1:unknown-directive:warning']],
    ['Host: a.test\nClean-param: x', ['1:unsupported-directive:info', '2:unsupported-directive:info']],
    ['<html><body>', ['1:invalid-line:warning']],
    ['user-agent *\ndisallow /', ['1:missing-colon:warning', '2:missing-colon:warning']],
    ['Useragent: *\nDisalow: /', ['1:directive-typo:warning', '2:directive-typo:warning']],
    ['Disallow: /x\nUser-agent: *\nDisallow: /y', ['1:rule-outside-group:warning']],
    ['Crawl-delay: 5\nUser-agent: *\nDisallow: /', ['1:crawl-delay-outside-group:warning']],
    ['User-agent: *\nDisallow: private', ['2:rule-path-not-absolute:warning']],
    ['User-agent: *\nAllow:', ['2:empty-allow:info']],
    ['User-agent:\nDisallow: /', ['1:empty-user-agent:warning']],
    ['User-agent: Foo Bar\nDisallow: /', ['1:user-agent-not-a-token:warning']],
    ['User-agent: Foo/1.0\nDisallow: /', ['1:user-agent-not-a-token:info']],
    ['User-agent: 123\nDisallow: /', ['1:user-agent-not-a-token:warning']],
    ['User-agent: a\nDisallow: /\nUser-agent: quxbot', ['3:empty-group:info']],
    ['User-agent: *\nCrawl-delay: soon\nDisallow: /', ['2:crawl-delay-invalid:error']],
    ['User-agent: *\nDisallow: /' + 'a'.repeat(17_000), ['2:line-too-long:warning']],
    ['User-agent: *\nDisallow: /\n# fine\n\nSitemap: https://a.test/s.xml', []],
  ];
  for (const [text, expected] of table) {
    it(`${JSON.stringify(text.slice(0, 50))} → ${expected.join(', ') || 'none'}`, () =>
      assert.deepEqual(codes(text), expected));
  }

  it('carry a column range on the part of the line they concern', () => {
    const [f] = parse('  Foo: bar').findings;
    assert.deepEqual([f?.column, f?.endColumn], [2, 5]);
  });

  it('use only the published codes', () => {
    const f = loadRobotsFile('\uFEFFFoo: x\nUser-agent: *\nCrawl-delay: -1\nSitemap: ftp://x\n\0', {
      robotsUrl: ROBOTS,
    });
    for (const x of f.findings) assert.ok((ROBOTS_FINDING_CODES as readonly string[]).includes(x.code), x.code);
  });

  it('are capped per code for hostile input', () => {
    const f = parse('Foo: bar\n'.repeat(10_000));
    assert.equal(f.findings.length, 100);
    assert.match(f.findings[99]?.message ?? '', /not reported/);
  });
});

describe('never throws on junk (RFC 9309 §2.3.1.5: parse every line, use the parseable rules)', () => {
  it('binary junk, HTML, ::::: and a valid group: the rule still applies (test B6)', () => {
    const junk = new Uint8Array([
      0xff,
      0xfe,
      0x00,
      0x01,
      0x0a,
      ...new TextEncoder().encode('<html>\n:::::\nUser-agent: *\n\u0000\u0007\nDisallow: /x\n'),
    ]);
    const f = loadRobotsFile(junk, { robotsUrl: ROBOTS });
    assert.equal(explain(f, 'https://a.test/x', 'bot').verdict, 'disallowed');
    assert.equal(explain(f, 'https://a.test/y', 'bot').verdict, 'allowed');
  });
  it('rejects a robots URL that is not absolute http(s)', () => {
    assert.throws(() => parseRobots('', { robotsUrl: '/robots.txt' }), TypeError);
    assert.throws(() => parseRobots('', { robotsUrl: 'ftp://a.test/robots.txt' }), TypeError);
  });
});

interface ParseCase {
  id: string;
  robotstxtBase64: string;
  expect: { valid_directives?: number; unknown_directives?: number; last_line_seen?: number; sitemap?: string };
}

describe('google/robotstxt parse-level cases (upstream expectations)', () => {
  const cases: ParseCase[] = readFileSync(
    join(__dirname, '../fixtures/robotstxt/google-robotstxt-parse-cases.jsonl'),
    'utf8',
  )
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as ParseCase);

  it('holds 12 cases', () => assert.equal(cases.length, 12));

  for (const c of cases) {
    it(c.id, () => {
      const f = loadRobotsFile(new Uint8Array(Buffer.from(c.robotstxtBase64, 'base64')), {
        robotsUrl: 'http://foo.bar/robots.txt',
      });
      // Google's "valid directives" are the keys it knows: user-agent, allow, disallow, sitemap.
      const valid = f.lines.filter((l) => ['user-agent', 'allow', 'disallow', 'sitemap'].includes(l.kind)).length;
      const unknown = f.lines.filter((l) => l.kind === 'unknown').length;
      if (c.expect.valid_directives !== undefined) assert.equal(valid, c.expect.valid_directives, 'valid directives');
      if (c.expect.unknown_directives !== undefined)
        assert.equal(unknown, c.expect.unknown_directives, 'unknown directives');
      if (c.expect.last_line_seen !== undefined) assert.equal(f.lines.length, c.expect.last_line_seen, 'last line');
      if (c.expect.sitemap !== undefined)
        assert.deepEqual(
          sitemaps(f).map((s) => s.url),
          [c.expect.sitemap],
        );
    });
  }

  // Derived (ours, not upstream): the line-ending bodies give the same verdicts and deciding line numbers.
  for (const c of cases.filter((k) => k.id.includes('LinesNumbersAreCountedCorrectly'))) {
    it(`${c.id} (derived): bar is disallowed by line 6, foo is allowed`, () => {
      const f = loadRobotsFile(new Uint8Array(Buffer.from(c.robotstxtBase64, 'base64')), {
        robotsUrl: 'http://foo.bar/robots.txt',
      });
      const bar = explain(f, 'http://foo.bar/x', 'bar');
      assert.deepEqual([bar.verdict, bar.line, bar.matcher], ['disallowed', 6, 'prefix']);
      const foo = explain(f, 'http://foo.bar/some/path', 'foo');
      assert.deepEqual([foo.verdict, foo.line], ['allowed', 2]);
    });
  }
});
