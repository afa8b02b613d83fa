/**
 * `crawl-planner export` end to end: the BUILT dist/cli.js in a child process. What it exports is exactly the
 * plan `estimate --json` gives for the same seeds and options (with --robots too, against loopback hosts this
 * test starts); bad input is one line and exit 2; a folder that is not empty is not written into.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PlanData } from '../../src/core/export';
import type { EstimateDocument } from '../../src/core/plan';
import { startDemoHosts } from '../../src/demo';
import { canListenOn, startLoopback, text, type LoopbackServer } from '../helpers/loopback';
import { buildCli, runCli } from '../helpers/cli';

const T = { timeout: 30_000 };
let tmp: string;
let slow: LoopbackServer;
let down: LoopbackServer;

before(async () => {
  buildCli();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-export-'));
  const aliases = (await canListenOn('127.0.0.2')) && (await canListenOn('127.0.0.3'));
  slow = await startLoopback({
    host: aliases ? '127.0.0.2' : '127.0.0.1',
    routes: { '/robots.txt': text(200, 'User-agent: *\nCrawl-delay: 4\nDisallow: /private\n') },
  });
  down = await startLoopback({
    host: aliases ? '127.0.0.3' : '127.0.0.1',
    routes: { '/robots.txt': text(503, 'maintenance') },
  });
});

after(async () => {
  await Promise.all([slow?.close(), down?.close()]);
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
const outDir = () => path.join(tmp, `out-${++n}`);
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

const OPTIONS = [
  '--pages',
  '1001',
  '--delay',
  '1.5',
  '--rate',
  '3',
  '--workers',
  '5',
  '--crawl-delay',
  'b.example=7',
  '--machines',
  '3',
];
const SEEDS = [
  'https://a.example/',
  'https://b.example/x',
  'http://c.example:8080/',
  'https://d.example/',
  'https://e.example/',
  'https://f.example/',
];

describe('crawl-planner export', () => {
  it('exports exactly the plan estimate --json prints for the same seeds and options', T, async () => {
    const est = await runCli(['estimate', ...SEEDS, ...OPTIONS, '--json']);
    assert.equal(est.status, 0, est.stderr);
    const doc = JSON.parse(est.stdout) as EstimateDocument;
    for (const format of ['scrapy', 'crawlee'] as const) {
      const dir = outDir();
      const r = await runCli(['export', '--format', format, '--out', dir, ...SEEDS, ...OPTIONS]);
      assert.equal(r.status, 0, r.stderr);
      const data = JSON.parse(read(dir, format === 'scrapy' ? 'planned/plan.json' : 'plan.json')) as PlanData;
      assert.deepEqual(
        data.hosts,
        doc.hosts.map((h) => ({
          host: h.host,
          intervalSeconds: h.intervalSeconds,
          pages: h.pages,
          machine: h.machine,
          unit: h.host, // by host: each host its own unit
        })),
      );
      assert.equal(data.machines, 3);
      assert.equal(data.settings.rate, doc.settings.rate);
      assert.equal(data.settings.workers, doc.settings.workers);
      assert.equal(data.settings.delaySeconds, doc.settings.delaySeconds);
      // The plan text estimate prints comes first, then the files and the notes.
      assert.ok(
        r.stdout.startsWith((await runCli(['estimate', ...SEEDS, ...OPTIONS])).stdout),
        'the same plan text as estimate',
      );
      assert.match(r.stdout, new RegExp(`Exported for ${format} to .*: \\d+ files`));
      for (let m = 0; m < 3; m++) {
        const list = read(dir, `seeds/machine-${m}.txt`).split('\n').filter(Boolean);
        for (const url of list) assert.equal(doc.hosts.find((h) => h.host === new URL(url).host)!.machine, m);
      }
    }
  });

  it(
    '--calibrate: exports the plan estimate --calibrate prints, with the Crawl-delay and answer times the test crawl measured',
    T,
    async () => {
      // A test crawl of a host whose robots.txt says Crawl-delay: 0.3 (typed nowhere else), with its report.
      const demo = await startDemoHosts({
        hosts: [
          {
            name: 'polite',
            description: 'Crawl-delay 0.3',
            pages: 4,
            latency: { kind: 'uniform', minMs: 10, maxMs: 20 },
            graph: { kind: 'tree', fanOut: 3 },
            robotsTxt: { kind: 'rules', crawlDelay: 0.3 },
          },
        ],
      });
      const report = path.join(tmp, 'test-crawl.json');
      const seeds = demo.hosts.map((h) => h.baseUrl);
      try {
        const crawl = await runCli(['crawl', ...seeds, '--delay', '0.1', '--max-pages', '4', '--report', report]);
        assert.equal(crawl.status, 0, crawl.stderr);
      } finally {
        await demo.close();
      }
      const options = [...seeds, '--pages-per-host', '50', '--delay', '0.1', '--calibrate', report];
      const est = await runCli(['estimate', ...options, '--json']);
      assert.equal(est.status, 0, est.stderr);
      const doc = JSON.parse(est.stdout) as EstimateDocument;
      assert.deepEqual(
        doc.hosts.map((h) => [h.intervalSeconds, h.intervalSource, [...h.calibrated].sort()]),
        [[0.3, 'crawl-delay', ['crawl-delay', 'latency']]],
      );
      const dir = outDir();
      const r = await runCli(['export', '--format', 'crawlee', '--out', dir, ...options]);
      assert.equal(r.status, 0, r.stderr);
      const data = JSON.parse(read(dir, 'plan.json')) as PlanData;
      // One machine: every host on machine 0.
      assert.deepEqual(
        data.hosts,
        doc.hosts.map((h) => ({
          host: h.host,
          intervalSeconds: h.intervalSeconds,
          pages: h.pages,
          machine: 0,
          unit: h.host,
        })),
      );
      // What the test crawl measured, then the plan: the same text as estimate's.
      assert.match(r.stdout, /^Calibrated from /);
      assert.ok(
        r.stdout.startsWith((await runCli(['estimate', ...options])).stdout),
        'the same calibration and plan text as estimate',
      );
    },
  );

  it("nutch and stormcrawler: the plan's numbers in the framework's keys", T, async () => {
    const dir = outDir();
    const r = await runCli([
      'export',
      '--format',
      'nutch',
      '--out',
      dir,
      ...SEEDS,
      '--pages-per-host',
      '40',
      '--delay',
      '2',
      '--request-timeout',
      '7.5',
      '--max-retries',
      '4',
      '--user-agent',
      'ExampleBot',
      '--contact',
      'https://ops.example/bot',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const xml = read(dir, 'conf/nutch-site.xml');
    assert.match(xml, /<name>fetcher\.server\.delay<\/name>\s*<value>2\.0<\/value>/);
    assert.match(xml, /<name>http\.timeout<\/name>\s*<value>7500<\/value>/);
    assert.match(xml, /<name>db\.fetch\.retry\.max<\/name>\s*<value>5<\/value>/);
    assert.match(xml, /<name>http\.agent\.name<\/name>\s*<value>ExampleBot<\/value>/);
    assert.match(xml, /<name>http\.agent\.url<\/name>\s*<value>https:\/\/ops\.example\/bot<\/value>/);
    assert.equal(read(dir, 'urls/seed.txt'), SEEDS.join('\n') + '\n');
    const dir2 = outDir();
    const s = await runCli([
      'export',
      '--format',
      'stormcrawler',
      '--out',
      dir2,
      ...SEEDS,
      '--pages-per-host',
      '40',
      '--per-host-concurrency',
      '2',
    ]);
    assert.equal(s.status, 0, s.stderr);
    assert.match(read(dir2, 'crawler-conf.yaml'), /^ {2}fetcher\.threads\.per\.queue: 2$/m);
    assert.match(s.stdout, /- Lanes: fetcher\.threads\.per\.queue = 2/);
  });

  it(
    '--robots: the Crawl-delay read feeds the exported interval; disallowed seeds and unreachable hosts are left out',
    T,
    async () => {
      const dir = outDir();
      const r = await runCli([
        'export',
        '--format',
        'crawlee',
        '--out',
        dir,
        slow.url('/'),
        slow.url('/private/a'),
        down.url('/'),
        '--pages-per-host',
        '10',
        '--robots',
      ]);
      assert.equal(r.status, 0, r.stderr);
      const data = JSON.parse(read(dir, 'plan.json')) as PlanData;
      assert.deepEqual(
        data.hosts.map((h) => [h.host, h.intervalSeconds]),
        [[new URL(slow.origin).host, 4]],
      );
      assert.equal(read(dir, 'seeds.txt'), slow.url('/') + '\n');
      assert.match(r.stdout, /LEFT OUT/);
      assert.match(r.stderr, /left out/);
    },
  );

  it('--robots: every seed disallowed: exit 1, nothing written', T, async () => {
    const dir = outDir();
    const r = await runCli(['export', '--format', 'scrapy', '--out', dir, down.url('/'), '--pages', '10', '--robots']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /^crawl-planner export: nothing to export: robots\.txt disallows every seed$/m);
    assert.equal(fs.existsSync(dir), false);
  });

  it('bad input: one line on stderr, exit 2, nothing written', T, async () => {
    const cases: [string[], RegExp][] = [
      [
        ['https://a.example/', '--pages', '5'],
        /^crawl-planner export: --format is required: one of scrapy, crawlee, nutch, stormcrawler\n$/,
      ],
      [
        ['--format', 'heritrix', 'https://a.example/', '--pages', '5'],
        /^crawl-planner export: --format: "heritrix" must be one of scrapy, crawlee, nutch, stormcrawler\n$/,
      ],
      [
        ['--format', 'scrapy', 'https://a.example/'],
        /^crawl-planner export: --pages, --pages-per-host or --sitemaps is required\n$/,
      ],
      [
        ['--format', 'scrapy', 'https://a.example/', '--pages', '5', '--request-timeout', '0'],
        /^crawl-planner export: --request-timeout: 0 must be greater than 0\n$/,
      ],
      [
        ['--format', 'scrapy', 'https://a.example/', '--pages', '5', '--max-retries', '1.5'],
        /^crawl-planner export: --max-retries: "1.5" must be a whole number\n$/,
      ],
      [
        ['--format', 'scrapy', 'https://a.example/', '--pages', '5', '--user-agent', 'Bad Bot/1'],
        /^crawl-planner export: --user-agent: .*product token/,
      ],
      [
        ['--format', 'scrapy', 'https://a.example/', '--pages', '5', '--timeout', '3'],
        /^crawl-planner export: --timeout: only with --robots or --sitemaps\n$/,
      ],
      [
        ['--format', 'scrapy', 'https://a.example/', '--pages', '5', '--require-contact'],
        /^crawl-planner export: --require-contact: no contact set/,
      ],
    ];
    for (const [args, message] of cases) {
      const dir = outDir();
      const r = await runCli(['export', '--out', dir, ...args]);
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(fs.existsSync(dir), false, `${args.join(' ')} wrote ${dir}`);
    }
  });

  it("a folder that is not empty is refused unless --force; --force replaces the export's files only", T, async () => {
    const dir = outDir();
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'mine.txt'), 'keep me');
    const r = await runCli(['export', '--format', 'crawlee', '--out', dir, 'https://a.example/', '--pages', '5']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--out: .* is not empty; give another folder, or --force to write into it/);
    assert.deepEqual(fs.readdirSync(dir), ['mine.txt']);
    const forced = await runCli([
      'export',
      '--format',
      'crawlee',
      '--out',
      dir,
      'https://a.example/',
      '--pages',
      '5',
      '--force',
    ]);
    assert.equal(forced.status, 0, forced.stderr);
    assert.deepEqual(fs.readdirSync(dir).sort(), ['crawl.mjs', 'mine.txt', 'package.json', 'plan.json', 'seeds.txt']);
    assert.equal(read(dir, 'mine.txt'), 'keep me');
  });

  it("--help lists the formats and estimate's plan options; the command list names export", T, async () => {
    const r = await runCli(['export', '--help']);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--format F\s+scrapy \| crawlee \| nutch \| stormcrawler/);
    assert.match(r.stdout, /--pages-per-host N/);
    assert.match(r.stdout, /--machines M/);
    const usage = await runCli(['--help']);
    assert.match(usage.stdout, /^ {2}export +the plan as/m);
  });
});
