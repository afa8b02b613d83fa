/**
 * The names the Scrapy and Crawlee exports use are the installed frameworks' own (`npm run test:frameworks`):
 * every setting in settings.py is one of Scrapy's default settings, every class path it names loads, and
 * `scrapy list` finds the spider; crawl.mjs type-checks against Crawlee's typings, so a misspelt crawler
 * option or a hook with the wrong shape is an error.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureCrawlee, ensureScrapy, DEBIAN_PYTHON } from '../../bench/lib/peers';
import type { BenchContext } from '../../bench/lib/types';
import { buildCli, runCli, ROOT } from '../helpers/cli';

const T = { timeout: 120_000 };
let tmp: string;
let ctx: BenchContext;

before(() => {
  buildCli();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'frameworks-names-'));
  ctx = { root: ROOT, tmp, quick: false, log: (line) => process.stderr.write(`  [names] ${line}\n`) };
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

/** Every plan feature on: a global rate, lanes, adaptive, end-to-start, sharding, a contact. */
const PLAN = [
  'https://a.example/',
  'https://b.example/',
  '--pages',
  '50',
  '--rate',
  '2',
  '--per-host-concurrency',
  '2',
  '--adaptive',
  '--delay-from',
  'end',
  '--machines',
  '2',
  '--contact',
  'https://ops.example/bot',
];

async function exported(format: 'scrapy' | 'crawlee'): Promise<string> {
  const out = path.join(tmp, format);
  const r = await runCli(['export', '--format', format, '--out', out, ...PLAN]);
  assert.equal(r.status, 0, r.stderr);
  return out;
}

describe("the exports use the frameworks' own names", () => {
  it(
    'Scrapy: every setting is a Scrapy setting, every class path loads, `scrapy list` finds the spider',
    T,
    async () => {
      await ensureScrapy(ctx);
      const dir = await exported('scrapy');
      const settings = fs.readFileSync(path.join(dir, 'planned/settings.py'), 'utf8');
      const names = [...settings.matchAll(/^([A-Z][A-Z0-9_]*) = /gm)].map((m) => m[1]!);
      assert.ok(names.length >= 15, names.join(' '));
      const check = [
        'import json, sys',
        'sys.path.insert(0, ".")',
        'from scrapy.settings import default_settings',
        'from scrapy.utils.misc import load_object',
        'import planned.settings as s',
        'names = json.loads(sys.argv[1])',
        'unknown = [n for n in names if not hasattr(default_settings, n)]',
        'paths = list(s.DOWNLOADER_MIDDLEWARES) + list(s.EXTENSIONS) + list(s.DOWNLOAD_HANDLERS.values()) + [s.SCHEDULER_PRIORITY_QUEUE]',
        'for p in paths: load_object(p)',
        'print(json.dumps({"unknown": unknown, "loaded": paths}))',
      ].join('\n');
      const out = JSON.parse(
        execFileSync(DEBIAN_PYTHON, ['-c', check, JSON.stringify(names)], { cwd: dir, encoding: 'utf8' }),
      ) as { unknown: string[]; loaded: string[] };
      assert.deepEqual(out.unknown, []);
      assert.equal(out.loaded.length, 9);
      const list = execFileSync(DEBIAN_PYTHON, ['-m', 'scrapy', 'list'], {
        cwd: dir,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(list.trim(), 'planned');
    },
  );

  it("Crawlee: crawl.mjs type-checks against the installed Crawlee's typings (checkJs)", T, async () => {
    await ensureCrawlee(ctx);
    const dir = await exported('crawlee');
    fs.symlinkSync(path.join(ROOT, 'bench/peers/crawlee/node_modules'), path.join(dir, 'node_modules'), 'dir');
    const tsconfig = {
      compilerOptions: {
        allowJs: true,
        checkJs: true,
        noEmit: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        skipLibCheck: true,
        types: ['node'],
      },
      files: ['crawl.mjs'],
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = (): string => {
      try {
        return execFileSync(process.execPath, [tsc, '-p', dir], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? err);
      }
    };
    assert.equal(run(), '', 'crawl.mjs type-checks');
    // The check can fail: a misspelt option is an error.
    const script = path.join(dir, 'crawl.mjs');
    fs.writeFileSync(
      script,
      fs.readFileSync(script, 'utf8').replace('sameDomainDelaySecs: 0,', 'sameDomainDelaySec: 0,'),
    );
    assert.match(run(), /'sameDomainDelaySec' does not exist/);
  });
});
