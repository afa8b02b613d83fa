/**
 * `crawl-planner robots` on bad input, end to end: a non-http URL among good ones, no usable URL, each bad option
 * an exit 2 with one line, control characters from the server and the arguments kept from the terminal, and --help.
 * The BUILT dist/cli.js in a child process against loopback servers the test starts, never the network
 * (test/helpers/robotsCli.ts). Time is only asserted as a generous upper bound.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { text } from '../helpers/loopback';
import { file, robots, robotsJson, T, useRobotsCli, withRobots } from '../helpers/robotsCli';
import { runCli as cli } from '../helpers/cli';

useRobotsCli();

// ---- Bad input. ----

describe('robots: bad input', () => {
  it('a non-http URL among good ones: a clear line on stderr, the others still run (exit 0)', T, async () => {
    const f = file('mixed.txt', 'User-agent: *\nDisallow: /x\n');
    const r = await robots('--file', f, 'http://example.com/x', 'ftp://x', 'http://example.com/y');
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, 'crawl-planner robots: argument 2: not an http(s) URL: ftp://x\n');
    assert.match(r.stdout, /^disallowed\s+L2 Disallow: \/x\s+http:\/\/example\.com\/x$/m);
    assert.match(r.stdout, /^allowed\s+—\s+http:\/\/example\.com\/y$/m);
    const doc = await robotsJson('--file', f, 'http://example.com/x', 'ftp://x');
    assert.equal(doc.invalid.length, 1);
    assert.equal(doc.invalid[0]!.argument, 2);
    assert.equal(doc.invalid[0]!.input, 'ftp://x');
    assert.match(doc.invalid[0]!.reason, /scheme/);
    assert.equal(doc.results.length, 1);
  });

  it('no usable URL at all: exit 2', T, async () => {
    const r = await robots('ftp://x', 'not a url');
    assert.equal(r.status, 2);
    assert.deepEqual(r.stderr.trimEnd().split('\n'), [
      'crawl-planner robots: argument 1: not an http(s) URL: ftp://x',
      'crawl-planner robots: argument 2: not an http(s) URL: not a url',
      'crawl-planner robots: no http(s) URL to check (2 invalid arguments)',
    ]);
    assert.equal(r.stdout, '');
  });

  const oneLine: Array<[string, string[], RegExp]> = [
    [
      'an invalid product token',
      ['--user-agent', 'My Bot/1.0', 'http://example.com/'],
      /^crawl-planner robots: --user-agent: "My Bot\/1\.0" is not a valid product token: it must match \[a-zA-Z_-\]\+.*RFC 9309 §2\.2\.1/,
    ],
    [
      'an empty product token',
      ['--user-agent', '', 'http://example.com/'],
      /^crawl-planner robots: --user-agent: The product token is empty/,
    ],
    [
      'a missing --file',
      ['--file', path.join('/nonexistent-dir', 'robots.txt'), 'http://example.com/'],
      /^crawl-planner robots: --file: cannot read \/nonexistent-dir\/robots\.txt: ENOENT$/,
    ],
    [
      'a directory as --file',
      ['--file', '/', 'http://example.com/'],
      /^crawl-planner robots: --file: \/ is a directory$/,
    ],
    [
      '--timeout abc',
      ['--timeout', 'abc', 'http://example.com/'],
      /^crawl-planner robots: --timeout: "abc" is not a number$/,
    ],
    [
      '--timeout 0',
      ['--timeout', '0', 'http://example.com/'],
      /^crawl-planner robots: --timeout: 0 must be greater than 0$/,
    ],
    ['--delay -1', ['--delay', '-1', 'http://example.com/'], /^crawl-planner robots: --delay: -1 must be at least 0$/],
    [
      '--max-crawl-delay Infinity',
      ['--max-crawl-delay', 'Infinity', 'http://example.com/'],
      /^crawl-planner robots: --max-crawl-delay: "Infinity" is not a number$/,
    ],
    [
      '--crawl-delay-policy wait',
      ['--crawl-delay-policy', 'wait', 'http://example.com/'],
      /^crawl-planner robots: --crawl-delay-policy: "wait" must be one of cap, skip, obey$/,
    ],
    [
      '--contact ftp',
      ['--contact', 'ftp://x', 'http://example.com/'],
      /^crawl-planner robots: --contact: "ftp:\/\/x" must be an absolute http\(s\) URL/,
    ],
    [
      '--origin without --file',
      ['--origin', 'http://example.com/', 'http://example.com/'],
      /^crawl-planner robots: --origin: only with --file/,
    ],
    ['no URL', [], /^crawl-planner robots: no URLs: give one or more http\(s\) URLs to check$/],
    [
      'an unknown option',
      ['--frobnicate', 'http://example.com/'],
      /^crawl-planner robots: Unknown option '--frobnicate'/,
    ],
  ];
  for (const [name, args, expected] of oneLine) {
    it(`${name}: exit 2, one line on stderr`, T, async () => {
      const r = await robots(...args);
      assert.equal(r.status, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
      assert.match(r.stderr.trimEnd(), expected);
    });
  }

  it('control characters from the server and the arguments never reach the terminal', T, () =>
    withRobots(
      text(200, 'User-agent: *\nDisallow: /a\x1b[2J\nSitemap: https://example.com/\x1b]0;pwned\x07s.xml\n'),
      async (srv) => {
        const r = await robots(srv.url('/a%1B[2J'), `${srv.url('/b')}\x1b[31m`);
        assert.equal(r.status, 0, r.stderr);
        assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f]/);
      },
    ),
  );

  it('--help lists every option; the command list names robots', T, async () => {
    const r = await robots('--help');
    assert.equal(r.status, 0);
    for (const o of [
      '--user-agent',
      '--contact',
      '--delay',
      '--crawl-delay-policy',
      '--max-crawl-delay',
      '--timeout',
      '--file',
      '--origin',
      '--urls-file',
      '--json',
    ]) {
      assert.ok(r.stdout.includes(o), o);
    }
    const top = await cli(['--help']);
    assert.match(top.stdout, /^ {2}robots\s+/m);
  });
});
