/**
 * The editor lint (src/core/robots/lint.ts): one fixture per finding code in test/fixtures/robots-lint,
 * each with the exact findings it must give; the messages the editor adds; "did you mean"; origin hints.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ROBOTS_FINDING_CODES, type RobotsFindingCode } from '../../src/core/robots';
import {
  lintRobots,
  lintRobotsText,
  originFromPath,
  originFromText,
  originUnknown,
  suggestDirective,
  UNKNOWN_ORIGIN,
  type LintOptions,
} from '../../src/core/robots/lint';

const FIXTURES = join(__dirname, '../fixtures/robots-lint');

/** Fixture → every finding it gives, as `line:code:severity`, and the options it is linted with. */
const EXPECTED: Record<RobotsFindingCode, { findings: string[]; options?: LintOptions }> = {
  'utf8-bom': { findings: ['1:utf8-bom:info'] },
  'partial-bom': { findings: ['1:partial-bom:warning'] },
  'invalid-utf8': { findings: ['2:invalid-utf8:warning'] },
  'nul-byte': { findings: ['1:not-text:warning', '2:nul-byte:warning'] },
  truncated: { findings: ['3:truncated:warning'], options: { maxBytes: 40 } },
  'invalid-line': { findings: ['3:invalid-line:warning'] },
  'missing-colon': { findings: ['2:missing-colon:warning'] },
  'directive-typo': { findings: ['2:directive-typo:warning'] },
  'unknown-directive': { findings: ['3:unknown-directive:warning'] },
  'unsupported-directive': { findings: ['3:unsupported-directive:info'] },
  'line-too-long': { findings: ['2:line-too-long:warning'] },
  'rule-outside-group': { findings: ['1:rule-outside-group:warning'] },
  'rule-path-not-absolute': { findings: ['2:rule-path-not-absolute:warning'] },
  'empty-allow': { findings: ['2:empty-allow:info'] },
  'empty-user-agent': { findings: ['1:empty-user-agent:warning'] },
  'user-agent-not-a-token': { findings: ['1:user-agent-not-a-token:info'] },
  'empty-group': { findings: ['4:empty-group:info'] },
  'crawl-delay-outside-group': { findings: ['1:crawl-delay-outside-group:warning'] },
  'crawl-delay-invalid': { findings: ['3:crawl-delay-invalid:error'] },
  'crawl-delay-exponent': { findings: ['3:crawl-delay-ignored-by-google:info', '3:crawl-delay-exponent:warning'] },
  'crawl-delay-above-cap': { findings: ['3:crawl-delay-ignored-by-google:info', '3:crawl-delay-above-cap:warning'] },
  'crawl-delay-duplicate': { findings: ['3:crawl-delay-duplicate:warning', '4:crawl-delay-ignored-by-google:info'] },
  'sitemap-invalid': { findings: ['3:sitemap-invalid:error'] },
  'sitemap-relative': { findings: ['4:sitemap-relative:warning'] },
  'sitemap-duplicate': { findings: ['4:sitemap-duplicate:info'] },
  'crawl-delay-ignored-by-google': { findings: ['3:crawl-delay-ignored-by-google:info'] },
  'rule-duplicate': { findings: ['3:rule-duplicate:info'] },
  'rule-contradictory': { findings: ['3:rule-contradictory:warning'] },
  'bom-in-line': { findings: ['2:unknown-directive:warning', '2:bom-in-line:warning'] },
  'replacement-character': { findings: ['2:replacement-character:warning'] },
  'crawl-delay-scope': { findings: ['2:crawl-delay-scope:warning', '2:crawl-delay-ignored-by-google:info'] },
  'not-text': { findings: ['1:not-text:warning'], options: { contentType: 'application/octet-stream' } },
};

const fixture = (code: string): Buffer => readFileSync(join(FIXTURES, `${code}.txt`));
const brief = (r: { findings: readonly { line: number; code: string; severity: string }[] }) =>
  r.findings.map((f) => `${f.line}:${f.code}:${f.severity}`);

describe('fixtures: one per finding code', () => {
  it('every code has a fixture and every fixture is a code', () => {
    const files = readdirSync(FIXTURES)
      .filter((f) => f.endsWith('.txt'))
      .map((f) => f.slice(0, -4))
      .sort();
    assert.deepEqual(files, [...ROBOTS_FINDING_CODES].sort());
    assert.deepEqual(Object.keys(EXPECTED).sort(), [...ROBOTS_FINDING_CODES].sort());
  });

  for (const code of ROBOTS_FINDING_CODES) {
    it(`${code}.txt gives exactly its findings`, () => {
      const { findings, options } = EXPECTED[code];
      const r = lintRobots(fixture(code), options);
      assert.deepEqual(brief(r), findings);
      assert.ok(
        r.findings.some((f) => f.code === code),
        `${code} is among the findings`,
      );
      for (const f of r.findings) {
        assert.ok(f.message.length > 10, 'a sentence');
        const line = r.file.lines[f.line - 1];
        if (f.column !== undefined) {
          assert.ok(line, `line ${f.line} exists`);
          assert.ok(
            f.endColumn !== undefined && f.column <= f.endColumn && f.endColumn <= line.raw.length,
            `${f.code} range inside its line`,
          );
        }
      }
    });
  }

  it('the text fixtures give the same findings as a string, as the editor lints them', () => {
    for (const code of ROBOTS_FINDING_CODES) {
      if (['partial-bom', 'invalid-utf8'].includes(code)) continue; // bytes only: a buffer is already decoded
      const text = fixture(code).toString('utf8');
      assert.deepEqual(brief(lintRobotsText(text, EXPECTED[code].options)), EXPECTED[code].findings, code);
    }
  });
});

describe('messages the editor adds', () => {
  const messageOf = (text: string, code: string, options?: LintOptions) =>
    lintRobotsText(text, options).findings.find((f) => f.code === code)?.message ?? '';

  it('unknown directive: did you mean', () => {
    assert.match(messageOf('User-agent: *\nDisallowed: /tmp\n', 'unknown-directive'), /did you mean "Disallow"\?/);
    assert.match(messageOf('User_agent: *\nDisallow: /\n', 'unknown-directive'), /did you mean "User-agent"\?/);
    assert.doesNotMatch(messageOf('User-agent: *\nFoo: bar\n', 'unknown-directive'), /did you mean/);
  });

  it('a BOM inside the file is named and the key still gets its suggestion', () => {
    const m = messageOf('User-agent: *\n\uFEFFDisallow: /x\n', 'unknown-directive');
    assert.match(m, /U\+FEFFDisallow/);
    assert.match(m, /invisible character/);
    assert.match(m, /did you mean "Disallow"/);
  });

  it('unsupported directives say what major crawlers do, per their documentation', () => {
    assert.match(
      messageOf('User-agent: *\nNoindex: /x\n', 'unsupported-directive'),
      /Google stopped supporting noindex in robots\.txt on 1 September 2019/,
    );
    assert.match(messageOf('User-agent: *\nHost: example.com\n', 'unsupported-directive'), /Yandex/);
    assert.match(
      messageOf('User-agent: *\nRequest-rate: 1/5\n', 'unsupported-directive'),
      /Google does not support it/,
    );
  });

  it('crawl-delay-ignored-by-google: says so, more pointedly in a Googlebot group', () => {
    assert.match(
      messageOf('User-agent: *\nCrawl-delay: 5\n', 'crawl-delay-ignored-by-google'),
      /Google does not support Crawl-delay; Bing's documentation says Bingbot honours it/,
    );
    assert.match(
      messageOf('User-agent: Googlebot\nCrawl-delay: 5\n', 'crawl-delay-ignored-by-google'),
      /This group names Googlebot/,
    );
  });

  it('truncated: names the last line that is parsed', () => {
    assert.match(
      lintRobots(fixture('truncated'), { maxBytes: 40 }).findings[0]?.message ?? '',
      /Line 2 is the last line parsed\./,
    );
  });

  it('sitemap-relative: no made-up origin when the origin is unknown', () => {
    const unknown = messageOf('User-agent: *\nDisallow: /x\nSitemap: /s.xml\n', 'sitemap-relative');
    assert.match(unknown, /origin is not known/);
    assert.doesNotMatch(unknown, /invalid/);
    const known = messageOf('User-agent: *\nSitemap: /s.xml\n', 'sitemap-relative', {
      robotsUrl: 'https://a.example/robots.txt',
    });
    assert.match(known, /https:\/\/a\.example\/s\.xml/);
  });

  it('rule-contradictory names both lines and says Allow wins; duplicates compare canonical patterns', () => {
    const m = messageOf('User-agent: *\nAllow: /a\nDisallow: /a\n', 'rule-contradictory');
    assert.match(m, /Allow \(line 2\) and Disallow \(line 3\)/);
    assert.match(m, /Allow wins/);
    assert.deepEqual(brief(lintRobotsText('User-agent: *\nDisallow: /a~\nDisallow: /a%7E\n')), [
      '3:rule-duplicate:info',
    ]);
    // Different groups, different patterns, empty values: nothing to report.
    assert.deepEqual(
      brief(lintRobotsText('User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /x\nAllow: /x$\n')),
      [],
    );
    assert.deepEqual(brief(lintRobotsText('User-agent: *\nDisallow:\nDisallow:\nDisallow: /x\n')), []);
  });

  it('new codes are capped per code like the parse findings', () => {
    const r = lintRobotsText(`User-agent: *\n${'Disallow: /x\n'.repeat(300)}`);
    assert.equal(r.findings.filter((f) => f.code === 'rule-duplicate').length, 100);
    assert.match(r.findings.at(-1)?.message ?? '', /not reported/);
  });

  it('a leading BOM in the buffer keeps line 1 columns where they are in the buffer', () => {
    const r = lintRobotsText('\uFEFFUser-agent: Googlebot/2.1\nDisallow: /x\n');
    const f = r.findings.find((x) => x.code === 'user-agent-not-a-token');
    assert.deepEqual([f?.column, f?.endColumn], [13, 26]);
    assert.deepEqual(r.file.lines[0]?.keyRange, { start: 1, end: 11 });
    assert.ok(r.findings.some((x) => x.code === 'utf8-bom'));
    assert.ok(!r.findings.some((x) => x.code === 'bom-in-line'));
  });
});

describe('suggestDirective', () => {
  const table: [string, string | undefined][] = [
    ['Dissalow', 'Disallow'],
    ['disalow', 'Disallow'],
    ['Disallows', 'Disallow'],
    ['alow', 'Allow'],
    ['User_agent', 'User-agent'],
    ['useragents', 'User-agent'],
    ['user-agnet', 'User-agent'],
    ['User agent', 'User-agent'],
    ['Sitemaps', 'Sitemap'],
    ['site map', 'Sitemap'],
    ['crawldelay', 'Crawl-delay'],
    ['Crawl-Dealy', 'Crawl-delay'],
    ['\uFEFFAllow', 'Allow'],
    ['Host', undefined],
    ['Noindex', undefined],
    ['Foo', undefined],
    ['', undefined],
    ['x'.repeat(200), undefined],
  ];
  for (const [key, expected] of table) {
    it(`${JSON.stringify(key.slice(0, 20))} → ${expected}`, () => assert.equal(suggestDirective(key), expected));
  }
});

describe('origin', () => {
  it('unknown by default: the placeholder origin is reserved and reported as unknown', () => {
    const r = lintRobotsText('User-agent: *\nDisallow: /x\n');
    assert.equal(r.origin, undefined);
    assert.equal(r.file.origin, UNKNOWN_ORIGIN);
    assert.ok(originUnknown(r.file));
  });

  it('from the robotsUrl option, a comment, the folder name hint, or the Sitemap lines', () => {
    assert.deepEqual(lintRobotsText('User-agent: *\n', { robotsUrl: 'https://a.example/robots.txt' }).origin, {
      origin: 'https://a.example',
      from: 'option',
    });
    assert.deepEqual(lintRobotsText('# Live at https://b.example/robots.txt\nUser-agent: *\n').origin, {
      origin: 'https://b.example',
      from: 'comment',
      line: 1,
    });
    assert.deepEqual(
      lintRobotsText('User-agent: *\nSitemap: https://c.example/a.xml\nSitemap: https://c.example/b.xml\n').origin,
      { origin: 'https://c.example', from: 'sitemap', line: 2 },
    );
    // Sitemaps on two origins say nothing.
    assert.equal(
      lintRobotsText('Sitemap: https://c.example/a.xml\nSitemap: https://cdn.example/b.xml\n').origin,
      undefined,
    );
    const hint = originFromPath('/work/sites/www.example.com/robots.txt');
    assert.deepEqual(hint, { origin: 'https://www.example.com', from: 'folder' });
    assert.equal(
      lintRobotsText('User-agent: *\n', { originHint: hint as never }).file.robotsUrl,
      'https://www.example.com/robots.txt',
    );
  });

  it('originFromPath takes only folders named like hosts', () => {
    for (const p of [
      '/a/public/robots.txt',
      '/a/v1.2/robots.txt',
      'robots.txt',
      '/node_modules/robots.txt',
      '/a/-x.com/robots.txt',
      'C:\\x\\1.2.3.4\\robots.txt',
    ]) {
      assert.equal(originFromPath(p), undefined, p);
    }
    assert.equal(originFromPath('C:\\sites\\Example.ORG\\robots.txt')?.origin, 'https://example.org');
  });

  it('originFromText ignores URLs outside comments', () => {
    assert.equal(originFromText(lintRobotsText('Disallow: https://x.example/robots.txt\n').file), undefined);
  });
});

describe('never throws', () => {
  it('on any text: findings sorted, inside their lines', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            ':',
            ' ',
            '\n',
            '\r',
            '#',
            '*',
            '/',
            '$',
            '\uFEFF',
            '\uFFFD',
            'User-agent',
            'Disallow',
            'Crawl-delay',
            '1e3',
            'Sitemap',
            'x',
          ),
        }),
        (text) => {
          const r = lintRobotsText(text);
          for (let i = 1; i < r.findings.length; i++) {
            const a = r.findings[i - 1]!;
            const b = r.findings[i]!;
            assert.ok(a.line < b.line || (a.line === b.line && (a.column ?? -1) <= (b.column ?? -1)));
          }
          for (const f of r.findings) {
            if (f.column === undefined || f.code === 'truncated') continue;
            const line = r.file.lines[f.line - 1];
            assert.ok(line && (f.endColumn as number) <= line.raw.length, `${f.code} on line ${f.line}`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
