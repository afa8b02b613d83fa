/**
 * CLI start-up (src/cli/main.ts, esbuild.js): a command loads only what it uses. undici (dist/undici.js) and
 * node:zlib load when a request is about to be sent, not for `--help`, `estimate` without `--robots` or
 * `robots --file`; the demo hosts' servers (node:http) only when demo hosts start. The built CLI runs in a
 * child process with a preload that lists what was loaded; a robots.txt fetch from a loopback server is the
 * case that does load them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildCli, CLI, ROOT } from '../helpers/cli';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';

let dir = '';
let srv: LoopbackServer;

before(async () => {
  buildCli();
  dir = mkdtempSync(path.join(tmpdir(), 'crawl-planner-startup-'));
  writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\nDisallow: /private\n');
  srv = await startLoopback({ routes: { '/robots.txt': text(200, 'User-agent: *\nAllow: /\n') } });
});

after(async () => {
  await srv?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI in a child process and returns what it loaded (asynchronously: the loopback server lives here). */
async function loaded(args: string[]): Promise<{ files: string[]; builtins: string[] }> {
  const out = path.join(dir, `loaded-${Date.now()}-${Math.random()}.json`);
  const child = spawn(
    process.execPath,
    ['--require', path.join(ROOT, 'test/helpers/loadedModules.cjs'), CLI, ...args],
    {
      env: { ...process.env, LOADED_MODULES_FILE: out, NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  assert.equal(status, 0, `${args.join(' ')}: ${stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as { files: string[]; builtins: string[] };
}

const usesUndici = (l: { files: string[] }) => l.files.some((f) => f.endsWith(`${path.sep}dist${path.sep}undici.js`));

describe('CLI start-up: each command loads only what it uses', { timeout: 60_000 }, () => {
  const quiet: Array<[string, string[]]> = [
    ['crawl-planner --help', ['--help']],
    ['estimate --help', ['estimate', '--help']],
    ['estimate without --robots', ['estimate', '--pages', '1000', 'https://a.example/', 'https://b.example/']],
    ['robots --help', ['robots', '--help']],
    ['robots --file', ['robots', '--file', 'DIR/robots.txt', 'https://a.example/private/x']],
    ['crawl --help', ['crawl', '--help']],
    ['demo --help', ['demo', '--help']],
  ];
  for (const [name, args] of quiet) {
    it(`${name}: neither undici nor node:zlib nor node:http`, async () => {
      const l = await loaded(args.map((a) => a.replace('DIR', dir)));
      assert.equal(usesUndici(l), false, 'dist/undici.js was loaded');
      assert.deepEqual(
        l.builtins.filter((b) => ['zlib', 'http', 'https', 'http2'].includes(b)),
        [],
      );
      assert.deepEqual(
        l.files.filter((f) => f.includes(`${path.sep}node_modules${path.sep}`)),
        [],
        'nothing from node_modules',
      );
    });
  }

  it('a robots.txt fetch loads undici and node:zlib (the bundle finds dist/undici.js)', async () => {
    const l = await loaded(['robots', srv.url('/x')]);
    assert.equal(usesUndici(l), true);
    assert.ok(l.builtins.includes('zlib'), l.builtins.join(', '));
  });
});
