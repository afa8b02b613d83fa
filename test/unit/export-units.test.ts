/**
 * The exports keep the plan's politeness units (docs/exports.md#politeness-units): Nutch's and StormCrawler's
 * fetcher.queue.mode and partition.url.mode, read back from the written files by real parsers (Python's
 * ElementTree and yaml, when /usr/bin/python3 has them); plan.json's host → unit map for Scrapy and Crawlee,
 * and each export's notes on what the framework does with units.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { exportPlan, type ExportFormat, type ExportResult, type PlanData } from '../../src/core/export';
import { plan, type PlanInput } from '../../src/core/plan';
import { validateSeeds } from '../../src/core/seeds';
import type { PolitenessBy } from '../../src/core/servers';

const PYTHON = '/usr/bin/python3';
function pythonHas(modules: string): boolean {
  try {
    execFileSync(PYTHON, ['-c', `import ${modules}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const hasPython = pythonHas('json, xml.etree.ElementTree');
const hasYaml = hasPython && pythonHas('yaml');

/** shop and blog share 192.0.2.7 (and a registered domain); solo is apart on both counts. */
const URLS = ['https://shop.example.co.uk/', 'https://blog.example.co.uk/', 'https://solo.example.org/'];
const ADDRESSES = {
  'shop.example.co.uk': ['192.0.2.7'],
  'blog.example.co.uk': ['192.0.2.7'],
  'solo.example.org': ['198.51.100.3'],
};

function seedsOf(urls: readonly string[]) {
  return validateSeeds(urls.map((text, i) => ({ text, line: i + 1 }))).seeds;
}

function exportBy(
  format: ExportFormat,
  by: PolitenessBy | undefined,
  extra: Omit<PlanInput, 'seeds' | 'pages'> = {},
  urls: readonly string[] = URLS,
): ExportResult {
  const seeds = seedsOf(urls);
  const input = {
    ...(by !== undefined ? { politenessBy: by } : {}),
    addressesByHost: ADDRESSES,
  };
  const p = plan({ seeds, pages: { perHost: 6 }, crawlDelayByHost: { 'blog.example.co.uk': 3 }, ...input, ...extra });
  return exportPlan(format, p, {
    seeds,
    productToken: 'ExampleBot',
    userAgentHeader: 'ExampleBot/1.0 (+https://ops.example/bot)',
  });
}

function file(r: ExportResult, name: string): string {
  const f = r.files.find((x) => x.path === name);
  assert.ok(f, `${name} in ${r.files.map((x) => x.path).join(', ')}`);
  return f.content;
}

function python(code: string, stdin: string): unknown {
  return JSON.parse(
    execFileSync(PYTHON, ['-c', `import json, sys\ntext = sys.stdin.read()\n${code}`], {
      input: stdin,
      encoding: 'utf8',
    }),
  );
}

const MODES: [PolitenessBy, string][] = [
  ['host', 'byHost'],
  ['ip', 'byIP'],
  ['domain', 'byDomain'],
];

describe('Nutch and StormCrawler: the queue and partition modes are the unit', () => {
  for (const [by, mode] of MODES) {
    it(
      `nutch-site.xml, by ${by}: fetcher.queue.mode and partition.url.mode ${mode}, generate.count.mode host`,
      {
        skip: !hasPython && 'no /usr/bin/python3',
      },
      () => {
        const xml = file(exportBy('nutch', by), 'conf/nutch-site.xml');
        const got = python(
          'import xml.etree.ElementTree as ET\nroot = ET.fromstring(text)\n' +
            'print(json.dumps({p.findtext("name"): p.findtext("value") for p in root.findall("property")}))',
          xml,
        ) as Record<string, string>;
        assert.equal(got['fetcher.queue.mode'], mode);
        assert.equal(got['partition.url.mode'], mode);
        // The plan's pages are per host whatever the unit (Nutch cannot count per IP).
        assert.equal(got['generate.count.mode'], 'host');
      },
    );

    it(
      `crawler-conf.yaml, by ${by}: partition.url.mode and fetcher.queue.mode ${mode}`,
      {
        skip: !hasYaml && 'no python3 with yaml',
      },
      () => {
        const yaml = file(exportBy('stormcrawler', by), 'crawler-conf.yaml');
        const got = python('import yaml\nprint(json.dumps(yaml.safe_load(text)))', yaml) as {
          config: Record<string, unknown>;
        };
        assert.equal(got.config['partition.url.mode'], mode);
        assert.equal(got.config['fetcher.queue.mode'], mode);
      },
    );
  }

  it('no politenessBy given: byHost, as before units existed', () => {
    const xml = file(exportBy('nutch', undefined), 'conf/nutch-site.xml');
    assert.match(xml, /<name>fetcher\.queue\.mode<\/name>\s*<value>byHost<\/value>/);
    assert.match(xml, /<name>partition\.url\.mode<\/name>\s*<value>byHost<\/value>/);
  });

  it("the notes say what each cannot keep: Nutch and StormCrawler resolve by themselves, Nutch's ICANN-only domains, one Crawl-delay per queue", () => {
    const nutchIp = exportBy('nutch', 'ip').notes.join('\n');
    assert.match(nutchIp, /Nutch looks every host up itself/);
    assert.match(nutchIp, /--resolve is not seen by Nutch/);
    assert.match(nutchIp, /192\.0\.2\.7 \(shop\.example\.co\.uk, blog\.example\.co\.uk\)/);
    assert.match(nutchIp, /partition\.url\.mode byIP\), so one fetcher task fetches each address/);
    assert.match(nutchIp, /sets the queue's delay from the robots\.txt of the host it fetched last/);
    const stormIp = exportBy('stormcrawler', 'ip').notes.join('\n');
    assert.match(stormIp, /URLPartitionerBolt looks every host up itself/);
    assert.match(stormIp, /fetcher\.server\.delay\.force/);
    const nutchDomain = exportBy('nutch', 'domain').notes.join('\n');
    assert.match(nutchDomain, /only the ICANN part of the Public Suffix List/);
    assert.match(nutchDomain, /example\.co\.uk \(shop\.example\.co\.uk, blog\.example\.co\.uk\)/);
    assert.match(exportBy('stormcrawler', 'domain').notes.join('\n'), /PaidLevelDomain/);
    // By host, none of it.
    const byHost = exportBy('nutch', 'host').notes.join('\n');
    assert.doesNotMatch(byHost, /Politeness units|shared queue/);
    assert.match(byHost, /partition\.url\.mode byHost\), so one fetcher task fetches each host/);
  });
});

describe('Scrapy and Crawlee: plan.json maps each host to its unit', () => {
  for (const format of ['scrapy', 'crawlee'] as const) {
    const planJson = format === 'scrapy' ? 'planned/plan.json' : 'plan.json';

    it(`${format}: by ip, the two hosts on 192.0.2.7 have one unit; the third its own`, () => {
      const data = JSON.parse(file(exportBy(format, 'ip'), planJson)) as PlanData;
      assert.equal(data.settings.politenessBy, 'ip');
      assert.deepEqual(Object.fromEntries(data.hosts.map((h) => [h.host, h.unit])), {
        'shop.example.co.uk': '192.0.2.7',
        'blog.example.co.uk': '192.0.2.7',
        'solo.example.org': 'solo.example.org',
      });
      // Each host keeps its own interval (blog's Crawl-delay 3 s); the unit's is the largest, at run time.
      assert.equal(data.hosts.find((h) => h.host === 'blog.example.co.uk')!.intervalSeconds, 3);
      assert.equal(data.hosts.find((h) => h.host === 'shop.example.co.uk')!.intervalSeconds, 1);
    });

    it(`${format}: by domain, hosts of example.co.uk have one unit; by host, each its own`, () => {
      const domain = JSON.parse(file(exportBy(format, 'domain'), planJson)) as PlanData;
      assert.deepEqual(
        domain.hosts.map((h) => h.unit),
        ['example.co.uk', 'example.co.uk', 'solo.example.org'],
      );
      const host = JSON.parse(file(exportBy(format, 'host'), planJson)) as PlanData;
      assert.deepEqual(
        host.hosts.map((h) => h.unit),
        host.hosts.map((h) => h.host),
      );
    });

    it(`${format}: the notes name the units, and Retry-After waits for the whole unit`, () => {
      const grouped = exportBy(format, 'ip').notes.join('\n');
      assert.match(grouped, /Politeness units \(by ip\)/);
      assert.match(grouped, /Units here: 192\.0\.2\.7 \(shop\.example\.co\.uk, blog\.example\.co\.uk\)\./);
      assert.match(grouped, /looks nothing up again/);
      assert.match(grouped, /honoured for the host's unit, every host of it waiting/);
      const alone = exportBy(format, 'host').notes.join('\n');
      assert.doesNotMatch(alone, /Politeness units/);
      assert.match(alone, /honoured for the host \(/);
    });
  }

  it("scrapy: the code puts a request on its unit's download slot, from the spider on", () => {
    const r = exportBy('scrapy', 'ip');
    const politeness = file(r, 'planned/politeness.py');
    assert.match(politeness, /request\.meta\["download_slot"\] = host\.unit\.name/);
    assert.match(politeness, /slot\.delay = max\(unit\.interval\(\), MIN_SLOT_DELAY\)/);
    assert.match(file(r, 'planned/spiders/planned.py'), /meta=self\.slot_meta\(url\)/);
    assert.match(file(r, 'planned/settings.py'), /^CONCURRENT_REQUESTS_PER_IP = 0$/m);
  });

  it('a unit split over machines by the plan would be named; the plan shards by unit, so none is', () => {
    // The plan hashes each unit's name to a machine (docs/planning.md#politeness-units), so a unit's hosts share
    // one machine and no format says otherwise.
    const cases = { split: 0, together: 0 };
    for (const urls of [URLS, [...URLS, 'https://www.example.co.uk/']]) {
      const addressesByHost = { ...ADDRESSES, 'www.example.co.uk': ['192.0.2.7'] };
      const seeds = seedsOf(urls);
      for (const machines of [2, 3]) {
        const p = plan({ seeds, pages: { perHost: 6 }, machines, politenessBy: 'ip', addressesByHost });
        const unit = p.hosts.filter((h) => (addressesByHost as Record<string, string[]>)[h.host]![0] === '192.0.2.7');
        const split = new Set(unit.map((h) => h.machine)).size > 1;
        cases[split ? 'split' : 'together']++;
        for (const format of ['scrapy', 'crawlee', 'nutch', 'stormcrawler'] as const) {
          const r = exportPlan(format, p, {
            seeds,
            productToken: 'ExampleBot',
            userAgentHeader: 'ExampleBot/1',
          });
          const notes = r.notes.join('\n');
          assert.equal(
            /1 unit has hosts on more than one machine/.test(notes),
            split,
            `${format}, ${machines} machines`,
          );
          if (split) assert.match(notes, /each machine's crawler keeps the unit only among its own hosts/);
        }
      }
    }
    assert.deepEqual(cases, { split: 0, together: 4 });
  });
});

describe('the Scrapy project with units still parses and loads its plan', () => {
  it(
    'py_compile, and Plan groups hosts into units from plan.json',
    { skip: !hasPython && 'no /usr/bin/python3' },
    (t) => {
      if (!pythonHas('scrapy')) return t.skip('no scrapy in /usr/bin/python3');
      const r = exportBy('scrapy', 'ip');
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'export-units-'));
      try {
        for (const f of r.files) {
          fs.mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
          fs.writeFileSync(path.join(dir, f.path), f.content);
        }
        const code = [
          'import json, sys',
          'sys.path.insert(0, ".")',
          'from planned.politeness import Plan',
          'class Crawler: engine = None',
          'p = Plan(Crawler())',
          'p.hosts["blog.example.co.uk"].crawl_delay = 4.5',
          'print(json.dumps({name: {"hosts": [h.name for h in u.hosts], "interval": u.interval()} for name, u in p.units.items()}))',
        ].join('\n');
        const got = JSON.parse(execFileSync(PYTHON, ['-c', code], { cwd: dir, encoding: 'utf8' })) as Record<
          string,
          { hosts: string[]; interval: number }
        >;
        assert.deepEqual(got, {
          '192.0.2.7': { hosts: ['shop.example.co.uk', 'blog.example.co.uk'], interval: 4.5 },
          'solo.example.org': { hosts: ['solo.example.org'], interval: 1 },
        });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
