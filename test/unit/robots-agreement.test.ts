/**
 * Where robots.txt readers must agree (step 7): cases from other implementations' tests that RFC 9309 or
 * common practice settle. Written by us; the cases come from the behaviour of google/robotstxt,
 * robots-parser, urllib.robotparser, crawler-commons, temoto/robotstxt and texting_robots.
 *
 * 1. An empty query keeps its `?` (RFC 9309 §2.2.2, RFC 3986 §6.2.3).
 * 2. A Crawl-delay belongs to the user-agent lines just before it; the `*` value applies only to a crawler
 *    named nowhere; of several, the largest wins; the hover, the report and the lint say which line.
 * 3. The robots.txt fetch gives up after 10 s in all by default.
 * 4. A body that is not text is parsed, with a `not-text` finding.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  crawlDelayFor,
  explain,
  explainWithOutcome,
  loadRobotsFile,
  inspectOrigin,
  parseRobots,
  ROBOTS_FETCH_TIMEOUT_SECONDS,
  verdict,
  verdictWithOutcome,
  type RobotsFile,
} from '../../src/core/robots';
import { hoverAt } from '../../src/core/robots/editor';
import { lintRobotsText } from '../../src/core/robots/lint';
import { ROBOTS_DEFAULTS } from '../../src/net/robotsFetch';
import { ROBOTS_HELP, ROBOTS_TIMEOUT_DEFAULT_SECONDS, robotsTimeouts } from '../../src/cli/robots';
import { SETTING_DEFAULTS } from '../../src/extension/config';

const ROBOTS = 'http://example.com/robots.txt';
const file = (text: string): RobotsFile => parseRobots(text, { robotsUrl: ROBOTS });
const codes = (f: RobotsFile) => f.findings.map((x) => `${x.line}:${x.code}`);

describe('1. an empty query is part of the matched path', () => {
  it('User-agent: agent / Disallow: /? disallows http://example.com/? (and not http://example.com/)', () => {
    const f = file('User-agent: agent\nDisallow: /?\n');
    const e = explain(f, 'http://example.com/?', 'agent');
    assert.deepEqual([e.verdict, e.line, e.path], ['disallowed', 2, '/?']);
    assert.deepEqual(
      [verdict(f, 'http://example.com/?', 'agent').verdict, verdict(f, 'http://example.com/?', 'agent').line],
      ['disallowed', 2],
    );
    assert.equal(verdict(f, 'http://example.com/', 'agent').verdict, 'allowed');
  });

  it('Disallow: /*? disallows /page? and /page?#frag, not /page or /page#?', () => {
    const f = file('User-agent: *\nDisallow: /*?\n');
    for (const url of ['http://example.com/page?', 'http://example.com/page?#frag', 'http://example.com/page?a=1']) {
      assert.equal(verdict(f, url, 'bot').verdict, 'disallowed', url);
      assert.equal(explain(f, url, 'bot').verdict, 'disallowed', url);
    }
    for (const url of ['http://example.com/page', 'http://example.com/page#?'])
      assert.equal(verdict(f, url, 'bot').verdict, 'allowed', url);
  });

  it('/robots.txt is always allowed, but /robots.txt? is another URI', () => {
    const f = file('User-agent: *\nDisallow: /\n');
    assert.deepEqual(
      [
        explain(f, 'http://example.com/robots.txt', 'bot').verdict,
        explain(f, 'http://example.com/robots.txt', 'bot').basis,
      ],
      ['allowed', 'robots-txt'],
    );
    assert.equal(verdict(f, 'http://example.com/robots.txt#top', 'bot').verdict, 'allowed');
    assert.equal(
      verdict(f, 'http://example.com/%72obots.txt', 'bot').verdict,
      'allowed',
      'the same URI, percent-encoded',
    );
    const q = explain(f, 'http://example.com/robots.txt?', 'bot');
    assert.deepEqual([q.verdict, q.line, q.path], ['disallowed', 2, '/robots.txt?']);
    // Without a file, the outcome decides, with the same exemption.
    assert.equal(
      explainWithOutcome('unreachable', undefined, 'http://example.com/robots.txt', 'bot', { robotsUrl: ROBOTS })
        .verdict,
      'allowed',
    );
    assert.equal(
      explainWithOutcome('unreachable', undefined, 'http://example.com/robots.txt?', 'bot', { robotsUrl: ROBOTS })
        .verdict,
      'disallowed',
    );
    assert.equal(
      verdictWithOutcome('unreachable', undefined, 'http://example.com/robots.txt?', 'bot', ROBOTS).verdict,
      'disallowed',
    );
  });
});

describe('2. Crawl-delay belongs to the user-agent lines just before it', () => {
  // The file of the issue: one RFC 9309 group, three records.
  const ISSUE =
    'User-agent: A\nCrawl-delay: 42\nUser-agent: Zero\nCrawl-delay: 0\nUser-agent: B\nCrawl-delay: 3600\nDisallow: /\n';

  it('A gets 42 s, Zero 0 s and B 3600 s; the Disallow still applies to all three', () => {
    const f = file(ISSUE);
    assert.equal(f.groups.length, 1);
    assert.equal(f.records.length, 3);
    assert.deepEqual(crawlDelayFor(f, 'A'), { seconds: 42, line: 2 });
    assert.deepEqual(crawlDelayFor(f, 'Zero'), { seconds: 0, line: 4 });
    assert.deepEqual(crawlDelayFor(f, 'B'), { seconds: 3600, line: 6 });
    for (const agent of ['A', 'Zero', 'B'])
      assert.deepEqual(
        [verdict(f, 'http://example.com/x', agent).verdict, verdict(f, 'http://example.com/x', agent).line],
        ['disallowed', 7],
      );
    const e = explain(f, 'http://example.com/x', 'A');
    assert.deepEqual([e.crawlDelaySeconds, e.crawlDelayLine], [42, 2]);
    assert.deepEqual(crawlDelayFor(f, 'Other'), {}, 'named nowhere and no * record');
  });

  it('a crawl-delay-scope finding on each line where the RFC group and the user-agent lines disagree', () => {
    const f = file(ISSUE);
    assert.deepEqual(
      codes(f).filter((c) => c.endsWith('crawl-delay-scope')),
      ['2:crawl-delay-scope', '4:crawl-delay-scope', '6:crawl-delay-scope'],
    );
    const m = f.findings.find((x) => x.line === 2 && x.code === 'crawl-delay-scope')!;
    assert.match(
      m.message,
      /belongs to the user-agent lines just before it, A \(line 1\), not to Zero, B \(lines 3, 5\), although RFC 9309 puts them in one group/,
    );
    // No disagreement when every run of user-agent lines of the group has the same Crawl-delay.
    assert.deepEqual(codes(file('User-agent: A\nCrawl-delay: 5\nUser-agent: B\nCrawl-delay: 5\nDisallow: /\n')), []);
  });

  it("a crawler named anywhere gets only its own records' Crawl-delay, else none: the * value does not apply", () => {
    const f = file(
      'User-agent: *\nCrawl-delay: 5\nDisallow: /x\n\nUser-agent: A\nDisallow: /y\n\nUser-agent: A\nCrawl-delay: 7\nDisallow: /z\n\nUser-agent: C\nDisallow: /c\n',
    );
    assert.deepEqual(crawlDelayFor(f, 'A'), { seconds: 7, line: 9 }, 'from its second record');
    assert.deepEqual(crawlDelayFor(f, 'C'), {}, 'named, without a Crawl-delay');
    assert.deepEqual(crawlDelayFor(f, 'Other'), { seconds: 5, line: 2 }, 'named nowhere: the * records');
  });

  it("a Crawl-delay that cannot be read is ignored: the user-agent lines around it share the next (texting_robots' delay04)", () => {
    const f = file('User-Agent: D\nCrawl-Delay: -1.25\nUser-Agent: E\nCrawl-Delay: 8\n');
    assert.deepEqual(crawlDelayFor(f, 'D'), { seconds: 8, line: 4 });
    assert.deepEqual(crawlDelayFor(f, 'E'), { seconds: 8, line: 4 });
    assert.ok(codes(f).includes('2:crawl-delay-invalid'));
    // A Crawl-delay that can be read still ends the run: D keeps its own.
    const g = file('User-Agent: D\nCrawl-Delay: 2\nUser-Agent: E\nCrawl-Delay: 8\n');
    assert.deepEqual(
      [crawlDelayFor(g, 'D'), crawlDelayFor(g, 'E')],
      [
        { seconds: 2, line: 2 },
        { seconds: 8, line: 4 },
      ],
    );
  });

  it('* and a name in one run of user-agent lines share its Crawl-delay', () => {
    const f = file('User-agent: *\nUser-agent: A\nCrawl-delay: 5\nDisallow: /\n');
    assert.deepEqual(crawlDelayFor(f, 'A'), { seconds: 5, line: 3 });
    assert.deepEqual(crawlDelayFor(f, 'Other'), { seconds: 5, line: 3 });
  });

  it('a Sitemap or unknown line also ends a run of user-agent lines; comments and blank lines do not', () => {
    const f = file('User-agent: A\nSitemap: http://example.com/s.xml\nUser-agent: B\nCrawl-delay: 5\nDisallow: /\n');
    assert.deepEqual([crawlDelayFor(f, 'A'), crawlDelayFor(f, 'B')], [{}, { seconds: 5, line: 4 }]);
    assert.equal(verdict(f, 'http://example.com/x', 'A').verdict, 'disallowed', 'one group for the rules');
    const g = file('User-agent: A\n# B too\n\nUser-agent: B\nCrawl-delay: 5\nDisallow: /\n');
    assert.deepEqual(
      [crawlDelayFor(g, 'A'), crawlDelayFor(g, 'B')],
      [
        { seconds: 5, line: 5 },
        { seconds: 5, line: 5 },
      ],
    );
  });

  it('two Crawl-delay lines for one crawler: the largest wins, the earlier of equal ones; both are listed', () => {
    const f = file(
      'User-agent: A\nCrawl-delay: 3\nDisallow: /a\n\nUser-agent: A\nCrawl-delay: 9\nDisallow: /b\n\nUser-agent: B\nCrawl-delay: 4\nCrawl-delay: 4\n',
    );
    const s = explain(f, 'http://example.com/', 'A');
    assert.deepEqual([s.crawlDelaySeconds, s.crawlDelayLine], [9, 6]);
    assert.deepEqual(crawlDelayFor(f, 'B'), { seconds: 4, line: 10 });
    assert.deepEqual(
      codes(f).filter((c) => c.endsWith('duplicate')),
      ['11:crawl-delay-duplicate'],
    );
    assert.match(
      f.findings.find((x) => x.code === 'crawl-delay-duplicate')!.message,
      /the largest, 4 s on line 10, is used/,
    );
  });

  it('the report (CLI text and --json, the sidebar) names the Crawl-delay line', () => {
    const f = file(ISSUE);
    const settings = {
      productToken: 'Zero',
      configuredDelaySeconds: 1,
      crawlDelayPolicy: 'cap' as const,
      maxCrawlDelaySeconds: 30,
    };
    const r = inspectOrigin({ origin: f.origin, robotsUrl: f.robotsUrl, outcome: 'ok', from: 'file' }, f, settings);
    assert.deepEqual([r.crawlDelaySeconds, r.crawlDelayLine, r.effectiveIntervalSeconds], [0, 4, 1]);
  });

  it('the hover says whose Crawl-delay it is, which one wins, and which line your crawler uses', () => {
    const lint = lintRobotsText(ISSUE, { robotsUrl: ROBOTS });
    const ctx = {
      configuredDelaySeconds: 1,
      maxCrawlDelaySeconds: 30,
      crawlDelayPolicy: 'cap' as const,
      pagesForEstimate: 1000,
      productToken: 'B',
    };
    const h = hoverAt(lint.file, 2, 0, ctx) ?? '';
    assert.match(h, /for `A`: the user-agent line just before it \(line 1\)/);
    assert.match(h, /Not for `Zero`, `B`: RFC 9309 puts them in the same group \(line 1\)/);
    assert.match(h, /Your crawler \(`B`\) uses the Crawl-delay on line 6 \(3600 s\), not this one\./);
    assert.match(hoverAt(lint.file, 6, 0, ctx) ?? '', /Your crawler \(`B`\) uses this Crawl-delay\./);
    assert.match(hoverAt(lint.file, 3, 0, ctx) ?? '', /Crawl-delay for `Zero`: 0 s \(line 4\)\./);
    const two = lintRobotsText('User-agent: A\nCrawl-delay: 5\nCrawl-delay: 20\n', { robotsUrl: ROBOTS });
    assert.match(
      hoverAt(two.file, 2, 0, ctx) ?? '',
      /the largest, 20 s on line 3, is the one used: a Crawl-delay is a minimum wait/,
    );
    const named = lintRobotsText('User-agent: *\nCrawl-delay: 5\n\nUser-agent: B\nDisallow: /x\n', {
      robotsUrl: ROBOTS,
    });
    assert.match(
      hoverAt(named.file, 2, 0, ctx) ?? '',
      /is named in this file but no Crawl-delay follows its user-agent lines, so it has none/,
    );
  });
});

describe('3. the robots.txt fetch gives up after 10 s in all', () => {
  it('10 s by default, every redirect included, no phase longer; --timeout and the setting still change it', () => {
    assert.equal(ROBOTS_FETCH_TIMEOUT_SECONDS, 10);
    assert.equal(ROBOTS_DEFAULTS.timeouts.totalMs, 10_000);
    for (const ms of Object.values(ROBOTS_DEFAULTS.timeouts)) assert.ok(ms <= ROBOTS_DEFAULTS.timeouts.totalMs);
    assert.equal(ROBOTS_TIMEOUT_DEFAULT_SECONDS, 10);
    assert.match(
      ROBOTS_HELP,
      /--timeout S {2,}bound on each robots\.txt fetch, all redirects included, seconds; default 10\n/,
    );
    assert.equal(SETTING_DEFAULTS.robotsTxtTimeoutSeconds, 10);
    assert.deepEqual(robotsTimeouts(3), { connectMs: 3000, headersMs: 3000, bodyMs: 3000, totalMs: 3000 });
    assert.deepEqual(robotsTimeouts(60), { connectMs: 10_000, headersMs: 60_000, bodyMs: 60_000, totalMs: 60_000 });
  });
});

describe('4. a body that is not text is parsed, with a not-text finding', () => {
  const RULES = 'User-agent: *\nDisallow: /private\n';
  const notText = (f: RobotsFile) => f.findings.filter((x) => x.code === 'not-text');

  it('NUL bytes in the first KiB: not-text, and the rules that parse still apply', () => {
    const body = new Uint8Array([...Buffer.from(RULES), 0x00, 0x01, 0x02, 0xff, 0x00, 0x0a]);
    const f = loadRobotsFile(body, { robotsUrl: ROBOTS });
    assert.equal(notText(f).length, 1);
    assert.equal(notText(f)[0]!.line, 1);
    assert.match(notText(f)[0]!.message, /first 1,024 bytes hold NUL bytes.*parsed anyway.*RFC 9309 §2\.3\.1\.5/);
    assert.deepEqual(
      [
        verdict(f, 'http://example.com/private/x', 'bot').verdict,
        verdict(f, 'http://example.com/private/x', 'bot').line,
      ],
      ['disallowed', 2],
    );
  });

  it('a NUL byte only after the first KiB is a nul-byte finding, not not-text', () => {
    const f = loadRobotsFile(`${RULES}${'#'.repeat(1100)}\n\0\n`, { robotsUrl: ROBOTS });
    assert.deepEqual(codes(f), ['4:nul-byte', '4:invalid-line']);
  });

  it('a fetched file whose Content-Type is not text; text/* (any case, with parameters) is fine; none says nothing', () => {
    const f = loadRobotsFile(RULES, { robotsUrl: ROBOTS, contentType: 'application/octet-stream' });
    assert.match(
      notText(f)[0]?.message ?? '',
      /the server sent it as Content-Type "application\/octet-stream", not text/,
    );
    for (const ok of ['text/plain', 'text/plain; charset=utf-8', 'TEXT/HTML'])
      assert.deepEqual(notText(loadRobotsFile(RULES, { robotsUrl: ROBOTS, contentType: ok })), [], ok);
    assert.deepEqual(notText(loadRobotsFile(RULES, { robotsUrl: ROBOTS })), []);
  });

  it('both reasons give one finding', () => {
    const f = loadRobotsFile(new Uint8Array([0x00, 0x0a, ...Buffer.from(RULES)]), {
      robotsUrl: ROBOTS,
      contentType: 'image/png',
    });
    assert.equal(notText(f).length, 1);
    assert.match(notText(f)[0]!.message, /NUL bytes, and the server sent it as Content-Type "image\/png"/);
  });
});
