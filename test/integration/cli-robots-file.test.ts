/**
 * `crawl-planner robots --file`, end to end: a local robots.txt with no network (verdicts and deciding lines, human
 * output, --origin, a file past the size limit, BOM and CRLF), and the not-text finding for a binary file or one
 * served as application/octet-stream. The BUILT dist/cli.js in a child process against loopback servers the test
 * starts, never the network (test/helpers/robotsCli.ts). Time is only asserted as a generous upper bound.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RobotsCliDocument } from '../../src/cli/robots';
import { text } from '../helpers/loopback';
import { esc, file, FOO, robots, robotsJson, scratchDir, T, useRobotsCli, withRobots } from '../helpers/robotsCli';
import { runCli as cli } from '../helpers/cli';

useRobotsCli();

// ---- --file. ----

describe('robots --file: no network', () => {
  it('the done-when check: verdict and deciding line for each URL, JSON', T, async () => {
    const cwd = mkdtempSync(path.join(scratchDir(), 'cwd-'));
    writeFileSync(path.join(cwd, 'robots.txt'), 'User-agent: FooBot\nDisallow: /a\n\nUser-agent: *\nDisallow: /\n');
    const r = await cli(
      [
        'robots',
        '--file',
        'robots.txt',
        '--user-agent',
        'FooBot',
        '--json',
        'http://example.com/a',
        'http://example.com/b',
      ],
      { cwd },
    );
    assert.equal(r.status, 0, r.stderr);
    const doc = JSON.parse(r.stdout) as RobotsCliDocument;
    assert.equal(doc.source, 'file');
    assert.equal(doc.file, 'robots.txt');
    assert.equal(doc.userAgent, null);
    assert.deepEqual(
      doc.results.map((x) => [x.url, x.verdict, x.line, x.rule]),
      [
        ['http://example.com/a', 'disallowed', 2, 'Disallow: /a'],
        ['http://example.com/b', 'allowed', null, null],
      ],
    );
    assert.equal(doc.origins[0]!.from, 'file');
    assert.equal(doc.origins[0]!.fetchedAt, null);
    assert.equal(doc.origins[0]!.status, null);
  });

  it('human output; another origin is not-applicable; nothing is fetched', T, () =>
    withRobots(text(200, 'User-agent: *\nDisallow: /\n'), async (srv) => {
      const f = file('local.txt', FOO);
      const r = await robots(
        '--file',
        f,
        '--user-agent',
        'FooBot',
        srv.url('/private/x'),
        srv.url('/open'),
        'http://other.example/private/x',
      );
      assert.equal(r.status, 0, r.stderr);
      assert.equal(srv.arrivals.length, 0, 'no request with --file');
      assert.match(r.stdout, /\(nothing fetched\)/);
      assert.match(r.stdout, new RegExp(`^${esc(srv.origin)}  ok \\(local file\\)$`, 'm'));
      assert.match(r.stdout, /^disallowed\s+L2 Disallow: \/private\s+http/m);
      assert.match(r.stdout, /^allowed\s+—\s+http/m);
      assert.match(r.stdout, /^not-applicable\s+—\s+http:\/\/other\.example\/private\/x$/m);
      assert.match(r.stdout, /Another origin: the file stands for /);
    }),
  );

  it('--origin chooses the origin the file stands for', T, async () => {
    const f = file('origin.txt', 'User-agent: *\nDisallow: /x\n');
    const doc = await robotsJson(
      '--file',
      f,
      '--origin',
      'https://b.example/anything',
      'https://a.example/x',
      'https://b.example/x',
    );
    assert.equal(doc.origins[0]!.origin, 'https://b.example');
    assert.deepEqual(
      doc.results.map((r) => r.verdict),
      ['not-applicable', 'disallowed'],
    );
  });

  it('a 600 KiB file is truncated at the limit; its size is the real one', T, async () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const tail = '\nUser-agent: *\nDisallow: /late\n';
    const pad = '#'.repeat(600 * 1024 - head.length - tail.length);
    const f = file('big.txt', head + pad + tail);
    const doc = await robotsJson('--file', f, 'http://example.com/early', 'http://example.com/late');
    assert.equal(doc.origins[0]!.truncated, true);
    assert.equal(doc.origins[0]!.bytes, 600 * 1024);
    assert.deepEqual(
      doc.results.map((r) => r.verdict),
      ['disallowed', 'allowed'],
    );
  });

  it('BOM and CRLF in a local file', T, async () => {
    const f = file(
      'bom.txt',
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('User-agent: *\r\nDisallow: /x\r\n')]),
    );
    const doc = await robotsJson('--file', f, 'http://example.com/x');
    assert.equal(doc.results[0]!.line, 2);
    assert.equal(doc.results[0]!.verdict, 'disallowed');
  });
});

// ---- A file that is not text. ----

describe('robots: not-text', () => {
  it('--file on a binary file: parsed, and the not-text finding is in the text and the JSON', T, async () => {
    const f = file(
      'binary.txt',
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]),
    );
    const t = await robots('--file', f, 'http://example.com/x');
    assert.equal(t.status, 0, t.stderr);
    assert.match(
      t.stdout,
      /^ {4}L1 warning not-text: This file does not look like text: its first 1,024 bytes hold NUL bytes\./m,
    );
    assert.match(t.stdout, /^allowed\s+—\s+http:\/\/example\.com\/x$/m);
    const doc = await robotsJson('--file', f, 'http://example.com/x');
    assert.ok(doc.origins[0]!.findings.some((x) => x.code === 'not-text' && x.line === 1));
  });

  it('a fetched file served as application/octet-stream gets not-text; text/plain does not', T, () =>
    withRobots(
      text(200, 'User-agent: *\nDisallow: /x\n', { 'content-type': 'application/octet-stream' }),
      async (srv) => {
        const doc = await robotsJson(srv.url('/x'));
        const f = doc.origins[0]!.findings.find((x) => x.code === 'not-text');
        assert.match(f?.message ?? '', /the server sent it as Content-Type "application\/octet-stream", not text/);
        assert.equal(doc.results[0]!.verdict, 'disallowed', 'still parsed');
        await withRobots(text(200, 'User-agent: *\nDisallow: /x\n'), async (plain) => {
          const ok = await robotsJson(plain.url('/x'));
          assert.equal(
            ok.origins[0]!.findings.some((x) => x.code === 'not-text'),
            false,
          );
        });
      },
    ),
  );
});
