/**
 * exportPlan (src/core/export): what each format writes for a plan, the seed lists per machine (a host never
 * split), the notes, and the refusals. Hostile hosts and URLs are in export-literals.test.ts.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  exportPathParts,
  exportPlan,
  ExportInputError,
  EXPORT_DEFAULTS,
  EXPORT_FORMATS,
  CRAWLEE_VERSION,
  type ExportFormat,
  type ExportResult,
  type PlanData,
} from '../../src/core/export';
import { machineForHost, plan, type PlanInput } from '../../src/core/plan';
import { validateSeeds } from '../../src/core/seeds';
import { RETRYABLE_STATUSES } from '../../src/core/politeness/retryPolicy';

const ROOT = path.resolve(__dirname, '../..');

function seedsOf(urls: string[]) {
  return validateSeeds(urls.map((text, i) => ({ text, line: i + 1 }))).seeds;
}

function exportOf(
  format: ExportFormat,
  urls: string[],
  input: Omit<PlanInput, 'seeds'>,
  extra: { contact?: string; timeoutSeconds?: number; maxRetries?: number } = {},
): ExportResult {
  const seeds = seedsOf(urls);
  return exportPlan(format, plan({ ...input, seeds }), {
    seeds,
    productToken: 'ExampleBot',
    userAgentHeader: 'ExampleBot/1.0 (+https://ops.example/bot)',
    ...extra,
  });
}

function file(result: ExportResult, name: string): string {
  const f = result.files.find((x) => x.path === name);
  assert.ok(f, `${name} in ${result.files.map((x) => x.path).join(', ')}`);
  return f.content;
}

const URLS = [
  'https://a.example/',
  'https://a.example/x',
  'https://b.example/',
  'http://c.example:8080/start',
  'https://d.example/',
  'https://e.example/',
];

describe('exportPlan: the files of each format', () => {
  it('scrapy: a project `scrapy crawl planned` runs: scrapy.cfg, the package, the spider, plan.json and seeds.txt', () => {
    const r = exportOf('scrapy', URLS, { pages: { perHost: 20 }, delaySeconds: 2, workers: 4 });
    assert.deepEqual(
      r.files.map((f) => f.path),
      [
        'scrapy.cfg',
        'planned/__init__.py',
        'planned/settings.py',
        'planned/politeness.py',
        'planned/plan.json',
        'planned/spiders/__init__.py',
        'planned/spiders/planned.py',
        'seeds.txt',
      ],
    );
    const settings = file(r, 'planned/settings.py');
    assert.match(settings, /^DOWNLOAD_DELAY = 2$/m);
    assert.match(settings, /^RANDOMIZE_DOWNLOAD_DELAY = False$/m);
    assert.match(settings, /^CONCURRENT_REQUESTS = 4$/m);
    assert.match(settings, /^CONCURRENT_REQUESTS_PER_DOMAIN = 1$/m);
    assert.match(settings, /^ROBOTSTXT_OBEY = True$/m);
    assert.match(settings, /^ROBOTSTXT_USER_AGENT = "ExampleBot"$/m);
    assert.match(settings, /^USER_AGENT = "ExampleBot\/1\.0 \(\+https:\/\/ops\.example\/bot\)"$/m);
    assert.match(settings, /^AUTOTHROTTLE_ENABLED = False$/m);
    assert.match(settings, new RegExp(`^RETRY_TIMES = ${EXPORT_DEFAULTS.maxRetries}$`, 'm'));
    assert.match(settings, new RegExp(`^RETRY_HTTP_CODES = \\[${RETRYABLE_STATUSES.join(', ')}\\]$`, 'm'));
    assert.match(settings, new RegExp(`^DOWNLOAD_TIMEOUT = ${EXPORT_DEFAULTS.timeoutSeconds}$`, 'm'));
    assert.match(settings, /"scrapy\.downloadermiddlewares\.robotstxt\.RobotsTxtMiddleware": None/);
    assert.match(settings, /"planned\.politeness\.PlanPacing": 0/);
    assert.equal(
      file(r, 'seeds.txt'),
      'https://a.example/\nhttps://a.example/x\nhttps://b.example/\nhttp://c.example:8080/start\nhttps://d.example/\nhttps://e.example/\n',
    );
    assert.match(file(r, 'scrapy.cfg'), /^default = planned\.settings$/m);
  });

  it("scrapy and crawlee: plan.json holds every host's interval and pages, exactly as the plan has them", () => {
    const input = {
      pages: { total: 101 },
      delaySeconds: 1.5,
      crawlDelayByHost: { 'b.example': 7 },
      rate: 3,
      workers: 6,
      perHostConcurrency: 2,
    };
    const seeds = seedsOf(URLS);
    const p = plan({ ...input, seeds });
    for (const format of ['scrapy', 'crawlee'] as const) {
      const r = exportOf(format, URLS, input, { timeoutSeconds: 9, maxRetries: 4 });
      const data = JSON.parse(file(r, format === 'scrapy' ? 'planned/plan.json' : 'plan.json')) as PlanData;
      assert.deepEqual(
        data.hosts,
        p.hosts.map((h) => ({
          host: h.host,
          intervalSeconds: h.intervalSeconds,
          pages: h.pages,
          machine: 0,
          unit: h.host,
        })),
      );
      assert.equal(data.settings.politenessBy, 'host');
      assert.equal(data.hosts.find((h) => h.host === 'b.example')!.intervalSeconds, 7);
      assert.equal(data.settings.delaySeconds, 1.5);
      assert.equal(data.settings.rate, 3);
      assert.equal(data.settings.workers, 6);
      assert.equal(data.settings.perHostConcurrency, 2);
      assert.equal(data.settings.timeoutSeconds, 9);
      assert.equal(data.settings.maxRetries, 4);
      assert.equal(data.settings.delayFrom, 'start');
      assert.equal(data.productToken, 'ExampleBot');
      assert.equal(data.userAgent, 'ExampleBot/1.0 (+https://ops.example/bot)');
    }
  });

  it('crawlee: crawl.mjs, plan.json, package.json asking for the proven Crawlee, the seeds', () => {
    const r = exportOf('crawlee', URLS, { pages: { perHost: 5 } });
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['crawl.mjs', 'plan.json', 'package.json', 'seeds.txt'],
    );
    const pkg = JSON.parse(file(r, 'package.json')) as { type: string; dependencies: Record<string, string> };
    assert.equal(pkg.type, 'module');
    assert.equal(pkg.dependencies.crawlee, `^${CRAWLEE_VERSION}`);
    assert.match(file(r, 'crawl.mjs'), /preNavigationHooks: \[keepThePlan\]/);
  });

  it('the Crawlee the export asks for is the one the bench installs and the proof runs', () => {
    const bench = JSON.parse(fs.readFileSync(path.join(ROOT, 'bench/peers/crawlee/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    assert.equal(bench.dependencies.crawlee, CRAWLEE_VERSION);
  });

  it('nutch: conf/nutch-site.xml and urls/seed.txt', () => {
    const r = exportOf(
      'nutch',
      URLS,
      { pages: { perHost: 20 }, delaySeconds: 3, workers: 12 },
      { contact: 'mailto:ops@example.com' },
    );
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['conf/nutch-site.xml', 'urls/seed.txt'],
    );
    const xml = file(r, 'conf/nutch-site.xml');
    assert.match(xml, /<name>fetcher\.server\.delay<\/name>\s*<value>3\.0<\/value>/);
    assert.match(xml, /<name>fetcher\.threads\.fetch<\/name>\s*<value>12<\/value>/);
    assert.match(xml, /<name>http\.agent\.name<\/name>\s*<value>ExampleBot<\/value>/);
    assert.match(xml, /<name>http\.agent\.email<\/name>\s*<value>ops@example\.com<\/value>/);
    assert.match(xml, /<name>generate\.max\.count<\/name>\s*<value>20<\/value>/);
  });

  it('stormcrawler: crawler-conf.yaml and seeds.txt', () => {
    const r = exportOf(
      'stormcrawler',
      URLS,
      { pages: { perHost: 20 }, crawlDelayPolicy: 'skip', maxCrawlDelaySeconds: 12.5 },
      { contact: 'https://ops.example/bot' },
    );
    assert.deepEqual(
      r.files.map((f) => f.path),
      ['crawler-conf.yaml', 'seeds.txt'],
    );
    const yaml = file(r, 'crawler-conf.yaml');
    assert.match(yaml, /^config:$/m);
    assert.match(yaml, /^  fetcher\.max\.crawl\.delay: 13$/m);
    assert.match(yaml, /^  fetcher\.max\.crawl\.delay\.force: false$/m);
    assert.match(yaml, /^  http\.agent\.url: "https:\/\/ops\.example\/bot"$/m);
    assert.match(yaml, /^  http\.robots\.5xx\.allow: false$/m);
  });

  it("the Crawl-delay policy becomes each cluster framework's own: cap, skip, obey", () => {
    const keys = (format: 'nutch' | 'stormcrawler', policy: 'cap' | 'skip' | 'obey') => {
      const r = exportOf(format, URLS, { pages: { perHost: 1 }, crawlDelayPolicy: policy, maxCrawlDelaySeconds: 20 });
      return r.files[0]!.content;
    };
    assert.match(keys('nutch', 'obey'), /<name>fetcher\.max\.crawl\.delay<\/name>\s*<value>-1<\/value>/);
    assert.match(keys('nutch', 'skip'), /<name>fetcher\.max\.crawl\.delay<\/name>\s*<value>20<\/value>/);
    assert.match(keys('stormcrawler', 'cap'), /fetcher\.max\.crawl\.delay\.force: true/);
    assert.match(keys('stormcrawler', 'obey'), /fetcher\.max\.crawl\.delay: -1/);
  });
});

describe('exportPlan: sharding', () => {
  const many = Array.from({ length: 40 }, (_, i) => `https://h${i}.example/`).flatMap((u) => [u, `${u}second`]);
  for (const format of EXPORT_FORMATS) {
    it(`${format}: one seed list per machine, each host on the machine the plan gives it, every seed once`, () => {
      const r = exportOf(format, many, { pages: { perHost: 3 }, machines: 4 });
      const lists = r.files.filter((f) => /(^|\/)(seeds\/machine-\d+\.txt|machine-\d+\/seed\.txt)$/.test(f.path));
      assert.equal(lists.length, 4);
      const seen: string[] = [];
      for (const list of lists) {
        const machine = Number(/machine-(\d+)/.exec(list.path)![1]);
        const urls = list.content.split('\n').filter(Boolean);
        for (const url of urls)
          assert.equal(machineForHost(new URL(url).host, 4), machine, `${url} on machine ${machine}`);
        seen.push(...urls);
      }
      assert.deepEqual([...seen].sort(), [...many].sort());
      assert.ok(
        r.notes.some((n) => /machine/i.test(n) && /host/.test(n)),
        'a note says how a host stays on one machine',
      );
    });
  }

  it("scrapy and crawlee take the machine on the command line; plan.json says each host's machine", () => {
    for (const format of ['scrapy', 'crawlee'] as const) {
      const r = exportOf(format, many, { pages: { perHost: 3 }, machines: 4 });
      const data = JSON.parse(file(r, format === 'scrapy' ? 'planned/plan.json' : 'plan.json')) as PlanData;
      assert.equal(data.machines, 4);
      for (const h of data.hosts) assert.equal(h.machine, machineForHost(h.host, 4));
      assert.match(r.notes[0]!, format === 'scrapy' ? /-a machine=K/ : /--machine K/);
    }
  });

  it('--machines 1 writes one list, as without sharding', () => {
    const r = exportOf('scrapy', URLS, { pages: { perHost: 3 }, machines: 1 });
    assert.ok(r.files.some((f) => f.path === 'seeds.txt'));
    assert.ok(!r.files.some((f) => f.path.startsWith('seeds/')));
  });
});

describe('exportPlan: differences and notes', () => {
  it("every format names how it measures the delay, and the note is the comment block's text", () => {
    for (const format of EXPORT_FORMATS) {
      const r = exportOf(format, URLS, { pages: { perHost: 3 } });
      const measurement = r.notes.find((n) => n.startsWith('Delay measurement:'));
      assert.ok(measurement, format);
      const first = r.files[format === 'scrapy' ? 2 : 0]!.content;
      assert.ok(first.includes('Differences:'), `${format}: a differences block`);
      assert.ok(
        first
          .replace(/\s*(#|\/\/)\s*/g, ' ')
          .replace(/\s+/g, ' ')
          .includes(measurement.slice(0, 60)),
        `${format}: the note is in the file`,
      );
    }
  });

  it('nutch and stormcrawler: start-to-start plans are told the framework waits from the end', () => {
    for (const format of ['nutch', 'stormcrawler'] as const) {
      assert.match(exportOf(format, URLS, { pages: { perHost: 3 } }).notes.join('\n'), /END of one fetch/);
      assert.doesNotMatch(
        exportOf(format, URLS, { pages: { perHost: 3 }, delayFrom: 'end' }).notes.join('\n'),
        /END of one fetch/,
      );
    }
  });

  it('nutch: hosts with a longer interval than the one delay are named; a cap policy is said to skip', () => {
    const r = exportOf('nutch', URLS, {
      pages: { perHost: 3 },
      crawlDelayByHost: { 'b.example': 9 },
      crawlDelayPolicy: 'cap',
    });
    const notes = r.notes.join('\n');
    assert.match(notes, /1 host has a longer interval in the plan.*b\.example \(9 s\)/);
    assert.match(notes, /Nutch cannot cap one/);
  });

  it('only what differs for this plan: a global rate, lanes and the adaptive rule are named when set', () => {
    const plain = exportOf('crawlee', URLS, { pages: { perHost: 3 } }).notes.join('\n');
    assert.doesNotMatch(plain, /Global rate|Lanes|Adaptive/);
    const set = exportOf('crawlee', URLS, {
      pages: { perHost: 3 },
      rate: 2,
      perHostConcurrency: 2,
      adaptive: true,
    }).notes.join('\n');
    assert.match(set, /maxRequestsPerMinute = 120/);
    assert.match(set, /Lanes/);
    assert.match(set, /Adaptive rule/);
  });

  it('hosts the plan skips or gives no pages are left out, and the notes say so', () => {
    const r = exportOf('scrapy', URLS, {
      pages: { total: 4 },
      crawlDelayByHost: { 'a.example': 100 },
      crawlDelayPolicy: 'skip',
    });
    const data = JSON.parse(file(r, 'planned/plan.json')) as PlanData;
    assert.ok(!data.hosts.some((h) => h.host === 'a.example'));
    assert.equal(data.hosts.length, 3);
    assert.ok(!file(r, 'seeds.txt').includes('a.example'));
    assert.match(r.notes.join('\n'), /1 host is left out: skipped/);
    assert.match(r.notes.join('\n'), /1 host is left out: the plan gives it no pages/);
  });
});

describe('exportPlan: refusals', () => {
  const seeds = seedsOf(URLS);
  const p = plan({ pages: { perHost: 2 }, seeds });
  const ok = { seeds, productToken: 'ExampleBot', userAgentHeader: 'ExampleBot/1.0' };
  it('an unknown format, a bad token, a header with a line break, a bad contact, numbers out of range', () => {
    assert.throws(() => exportPlan('heritrix' as ExportFormat, p, ok), ExportInputError);
    assert.throws(() => exportPlan('scrapy', p, { ...ok, productToken: 'Example Bot/1.0' }), /product token/);
    assert.throws(
      () => exportPlan('scrapy', p, { ...ok, userAgentHeader: 'ExampleBot\r\nX-Evil: 1' }),
      /control character/,
    );
    assert.throws(() => exportPlan('nutch', p, { ...ok, contact: 'javascript:alert(1)' }), ExportInputError);
    assert.throws(() => exportPlan('scrapy', p, { ...ok, timeoutSeconds: 0 }), /timeoutSeconds/);
    assert.throws(() => exportPlan('scrapy', p, { ...ok, maxRetries: 2.5 }), /maxRetries/);
  });
  it('a seed that is not an http(s) URL, or not of the host given with it', () => {
    assert.throws(
      () => exportPlan('scrapy', p, { ...ok, seeds: [{ url: 'javascript:alert(1)', host: 'a.example' }] }),
      /not an absolute http/,
    );
    assert.throws(
      () => exportPlan('scrapy', p, { ...ok, seeds: [{ url: 'https://evil.example/', host: 'a.example' }] }),
      /its host/,
    );
  });
  it('a seed with a line break is written as the URL it parses to: one line, never two seeds', () => {
    const r = exportPlan('nutch', p, {
      ...ok,
      seeds: [{ url: 'https://a.example/\nhttps://evil.example/', host: 'a.example' }],
    });
    assert.equal(file(r, 'urls/seed.txt'), 'https://a.example/https://evil.example/\n');
  });
  it('nothing to crawl: every host skipped', () => {
    const skipped = plan({
      pages: { perHost: 2 },
      seeds,
      crawlDelayByHost: Object.fromEntries(seeds.map((s) => [s.host, 500])),
      crawlDelayPolicy: 'skip',
    });
    assert.throws(() => exportPlan('crawlee', skipped, ok), /nothing to export/);
  });
});

describe('exportPathParts: where a file may be written', () => {
  it('every path an export makes is plain and relative', () => {
    const seeds = seedsOf(URLS);
    const p = plan({ pages: { perHost: 2 }, seeds, machines: 3 });
    for (const format of EXPORT_FORMATS) {
      for (const f of exportPlan(format, p, { seeds, productToken: 'ExampleBot', userAgentHeader: 'ExampleBot/1.0' })
        .files) {
        assert.deepEqual(exportPathParts(f.path), f.path.split('/'));
      }
    }
  });
  it('refuses a path that would leave the folder', () => {
    for (const bad of ['', '/etc/passwd', '../x', 'a/../../x', 'a//b', './a', 'a/', 'C:x', 'a\\..\\b']) {
      assert.throws(
        () => exportPathParts(bad),
        (err: unknown) => err instanceof ExportInputError && /not a plain relative path/.test(err.message),
        bad,
      );
    }
  });
});

describe('exportPlan: the generated code parses', () => {
  const python = ['/usr/bin/python3', 'python3'].find((p) => {
    try {
      execFileSync(p, ['-c', 'import sys; assert sys.version_info >= (3, 9)'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  });
  it('crawl.mjs is valid JavaScript (node --check)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-js-'));
    try {
      const r = exportOf('crawlee', URLS, { pages: { perHost: 3 }, machines: 2, rate: 0.001 });
      fs.writeFileSync(path.join(dir, 'crawl.mjs'), file(r, 'crawl.mjs'));
      execFileSync(process.execPath, ['--check', path.join(dir, 'crawl.mjs')], { stdio: 'pipe' });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
  it(
    'the Scrapy project is valid Python (py_compile)',
    { skip: python === undefined && 'no python3 ≥ 3.9 on this machine' },
    () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-py-'));
      try {
        const r = exportOf('scrapy', URLS, { pages: { perHost: 3 }, machines: 2 });
        for (const f of r.files) {
          fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
          fs.writeFileSync(path.join(dir, f.path), f.content);
        }
        const py = r.files.filter((f) => f.path.endsWith('.py')).map((f) => path.join(dir, f.path));
        execFileSync(python!, ['-m', 'py_compile', ...py], { stdio: 'pipe' });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
