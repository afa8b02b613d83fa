/**
 * The CLI's contact rules end to end (docs/identity.md): the BUILT dist/cli.js
 * in a child process. Without --contact, a command that would reach a real host prints one warning line
 * before its first request, and with --require-contact refuses to start (exit 2, one line, nothing
 * fetched); loopback and the demo hosts are not real hosts. The real host is REAL_HOST_NO_TRAFFIC, which no
 * packet can reach; every request that is sent goes to loopback servers this test starts.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { buildCli, ROOT, runCli } from '../helpers/cli';
import { REAL_HOST_NO_TRAFFIC } from '../helpers/realHost';

const T = { timeout: 60_000 };
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const REAL_URL = `${REAL_HOST_NO_TRAFFIC}/page`;
const REAL_HOST = new URL(REAL_HOST_NO_TRAFFIC).host;
const WARNING = (command: string) =>
  `crawl-planner ${command}: warning: no contact set: site operators cannot reach you; pass --contact URL\n`;

let srv: LoopbackServer;

before(async () => {
  buildCli();
  srv = await startLoopback({
    routes: {
      '/robots.txt': text(200, 'User-agent: *\nAllow: /\n'),
      '/': text(200, '<p>home</p>', { 'content-type': 'text/html' }),
    },
  });
});

after(async () => {
  await srv?.close();
});

/** The requests the loopback server saw during `fn`. */
async function arrivalsDuring<R>(fn: () => Promise<R>): Promise<{ result: R; userAgents: Array<string | undefined> }> {
  const before = srv.arrivals.length;
  const result = await fn();
  return { result, userAgents: srv.arrivals.slice(before).map((a) => a.userAgent) };
}

describe('no contact: one warning line before a real host is touched', () => {
  it('robots: the line on stderr, then the fetch; a loopback host alone gets no line', T, async () => {
    const real = await runCli(['robots', REAL_URL]);
    assert.equal(real.status, 0, real.stderr);
    assert.equal(real.stderr, WARNING('robots'));
    assert.match(real.stdout, /UNREACHABLE/, 'the fetch was attempted after the line');

    const { result, userAgents } = await arrivalsDuring(() => runCli(['robots', srv.url('/x')]));
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stderr, '');
    assert.deepEqual(userAgents, [`CrawlPlanner/${VERSION}`], 'no contact in the header, and no invented one');
  });

  it(
    'estimate --robots and crawl print it too; crawl --allow-other-hosts on loopback seeds may reach any host',
    T,
    async () => {
      const estimate = await runCli(['estimate', '--robots', '--pages', '10', REAL_URL, srv.url('/')]);
      assert.equal(estimate.stderr.split('\n')[0] + '\n', WARNING('estimate'), estimate.stderr);
      assert.equal(estimate.stderr.match(/warning/g)?.length, 1);

      const crawl = await runCli(['crawl', '--max-pages', '1', '--timeout', '2', '--json', REAL_URL]);
      assert.equal(crawl.stderr.split('\n')[0] + '\n', WARNING('crawl'), crawl.stderr);

      const other = await runCli([
        'crawl',
        '--max-pages',
        '1',
        '--delay',
        '0',
        '--json',
        '--allow-other-hosts',
        srv.url('/'),
      ]);
      assert.equal(other.stderr, WARNING('crawl'));
      const local = await runCli(['crawl', '--max-pages', '1', '--delay', '0', '--json', srv.url('/')]);
      assert.equal(local.status, 0, local.stderr);
      assert.equal(local.stderr, '');
    },
  );

  it('estimate without --robots reaches no host: no line', T, async () => {
    const r = await runCli(['estimate', '--pages', '10', REAL_URL]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});

describe('--require-contact: refuses instead, before any request', () => {
  it(
    'robots, estimate --robots and crawl exit 2 with one line naming the host, and fetch nothing (loopback included)',
    T,
    async () => {
      const runs = {
        robots: ['robots', '--require-contact', srv.url('/x'), REAL_URL],
        estimate: ['estimate', '--robots', '--require-contact', '--pages', '10', srv.url('/'), REAL_URL],
        crawl: ['crawl', '--require-contact', '--max-pages', '1', srv.url('/'), REAL_URL],
      };
      for (const [command, args] of Object.entries(runs)) {
        const { result, userAgents } = await arrivalsDuring(() => runCli(args));
        assert.equal(result.status, 2, `${command}: ${result.stderr}`);
        assert.equal(
          result.stderr,
          `crawl-planner ${command}: --require-contact: no contact set (this would reach ${REAL_HOST}); pass --contact URL\n`,
        );
        assert.equal(result.stdout, '');
        assert.deepEqual(userAgents, [], `${command}: nothing fetched`);
      }
    },
  );

  it('with only loopback hosts it runs; with a contact it runs and says nothing', T, async () => {
    const local = await runCli(['robots', '--require-contact', srv.url('/x')]);
    assert.equal(local.status, 0, local.stderr);
    assert.equal(local.stderr, '');

    const withContact = await runCli(['robots', '--require-contact', '--contact', 'https://ops.example/bot', REAL_URL]);
    assert.equal(withContact.status, 0, withContact.stderr);
    assert.equal(withContact.stderr, '');
  });

  it('estimate: --require-contact only with --robots (exit 2)', T, async () => {
    const r = await runCli(['estimate', '--require-contact', '--pages', '10', REAL_URL]);
    assert.equal(r.status, 2);
    assert.equal(r.stderr, 'crawl-planner estimate: --require-contact: only with --robots or --sitemaps\n');
  });
});

describe('--contact', () => {
  it('goes in the header as (+contact), for robots.txt and for pages, with no warning', T, async () => {
    const robots = await arrivalsDuring(() =>
      runCli(['robots', '--contact', 'mailto:ops@example.com', srv.url('/x'), REAL_URL]),
    );
    assert.equal(robots.result.stderr, '');
    assert.deepEqual(robots.userAgents, [`CrawlPlanner/${VERSION} (+mailto:ops@example.com)`]);

    const crawl = await arrivalsDuring(() =>
      runCli([
        'crawl',
        '--contact',
        'https://ops.example/bot',
        '--user-agent',
        'FooBot',
        '--max-pages',
        '1',
        '--delay',
        '0',
        '--json',
        srv.url('/'),
      ]),
    );
    assert.equal(crawl.result.status, 0, crawl.result.stderr);
    assert.equal(crawl.result.stderr, '');
    assert.deepEqual(
      crawl.userAgents,
      [`FooBot/${VERSION} (+https://ops.example/bot)`, `FooBot/${VERSION} (+https://ops.example/bot)`],
      'robots.txt, then the page',
    );
  });

  it('a contact that is not an http(s) URL or a mailto: address is refused: exit 2, one line', T, async () => {
    for (const command of [['robots'], ['estimate', '--robots', '--pages', '10'], ['crawl']]) {
      for (const bad of ['ftp://ops.example/', 'mailto:ops', 'https://ops.example/a b']) {
        const r = await runCli([...command, '--contact', bad, srv.url('/')]);
        assert.equal(r.status, 2, `${command[0]} ${bad}: ${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(
            `^crawl-planner ${command[0]}: --contact: "${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}" must be an absolute http\\(s\\) URL or a mailto: address[^\\n]*\\n$`,
          ),
        );
      }
    }
  });
});
