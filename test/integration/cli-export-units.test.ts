/**
 * `crawl-planner export` keeps the plan's politeness unit (docs/exports.md#politeness-units), end to end with
 * the BUILT dist/cli.js: `--resolve` maps two names onto one loopback address, `--politeness-by ip` makes them
 * one unit, and every format writes it (Nutch's and StormCrawler's queue and partition modes, the host → unit
 * map of plan.json). Offline: no robots.txt is read, and `--resolve` needs no DNS.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { PlanData } from '../../src/core/export';
import { buildCli, runCli } from '../helpers/cli';

const T = { timeout: 30_000 };
let tmp: string;

before(async () => {
  buildCli();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cli-export-units-'));
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

let n = 0;
const outDir = () => path.join(tmp, `out-${++n}`);
const read = (dir: string, file: string) => fs.readFileSync(path.join(dir, file), 'utf8');

const SEEDS = ['http://shop.test:8080/', 'http://blog.test:8080/', 'http://solo.test:8080/'];
const RESOLVE = [
  '--resolve',
  'shop.test=127.0.0.5',
  '--resolve',
  'blog.test=127.0.0.5',
  '--resolve',
  'solo.test=127.0.0.6',
];

async function exported(
  format: string,
  extra: string[],
  seeds: string[] = SEEDS,
): Promise<{ dir: string; stdout: string }> {
  const dir = outDir();
  const r = await runCli(['export', '--format', format, '--out', dir, '--pages-per-host', '5', ...extra, ...seeds]);
  assert.equal(r.status, 0, r.stderr);
  return { dir, stdout: r.stdout };
}

function property(xml: string, name: string): string | undefined {
  return new RegExp(`<name>${name.replace(/\./g, '\\.')}</name>\\s*<value>([^<]*)</value>`).exec(xml)?.[1];
}

function yamlKey(yaml: string, name: string): string | undefined {
  return new RegExp(`^ {2}${name.replace(/\./g, '\\.')}: (.*)$`, 'm').exec(yaml)?.[1];
}

describe('crawl-planner export: politeness units', () => {
  it('without --politeness-by: by host, even with two names on one address', T, async () => {
    const nutch = await exported('nutch', RESOLVE);
    assert.equal(property(read(nutch.dir, 'conf/nutch-site.xml'), 'fetcher.queue.mode'), 'byHost');
    assert.equal(property(read(nutch.dir, 'conf/nutch-site.xml'), 'partition.url.mode'), 'byHost');
    const scrapy = await exported('scrapy', RESOLVE);
    const data = JSON.parse(read(scrapy.dir, 'planned/plan.json')) as PlanData;
    assert.equal(data.settings.politenessBy, 'host');
    assert.deepEqual(
      data.hosts.map((h) => h.unit),
      data.hosts.map((h) => h.host),
    );
    assert.doesNotMatch(scrapy.stdout, /Politeness units/);
  });

  it('--politeness-by ip: the two names on 127.0.0.5 are one unit in every format', T, async () => {
    const by = ['--politeness-by', 'ip', ...RESOLVE];
    const nutch = await exported('nutch', by);
    const xml = read(nutch.dir, 'conf/nutch-site.xml');
    assert.equal(property(xml, 'fetcher.queue.mode'), 'byIP');
    assert.equal(property(xml, 'partition.url.mode'), 'byIP');
    assert.match(nutch.stdout, /--resolve is not seen by Nutch/);
    const storm = await exported('stormcrawler', by);
    const yaml = read(storm.dir, 'crawler-conf.yaml');
    assert.equal(yamlKey(yaml, 'partition.url.mode'), '"byIP"');
    assert.equal(yamlKey(yaml, 'fetcher.queue.mode'), '"byIP"');
    for (const [format, file] of [
      ['scrapy', 'planned/plan.json'],
      ['crawlee', 'plan.json'],
    ] as const) {
      const out = await exported(format, by);
      const data = JSON.parse(read(out.dir, file)) as PlanData;
      assert.equal(data.settings.politenessBy, 'ip');
      assert.deepEqual(Object.fromEntries(data.hosts.map((h) => [h.host, h.unit])), {
        'shop.test:8080': '127.0.0.5',
        'blog.test:8080': '127.0.0.5',
        'solo.test:8080': 'solo.test:8080',
      });
      assert.match(out.stdout, /Units here: 127\.0\.0\.5 \(shop\.test:8080, blog\.test:8080\)/);
    }
  });

  it('--politeness-by domain: one registered domain is one unit, with no address looked up', T, async () => {
    const seeds = ['https://shop.example.co.uk/', 'https://blog.example.co.uk/', 'https://other.co.uk/'];
    const nutch = await exported('nutch', ['--politeness-by', 'domain'], seeds);
    assert.equal(property(read(nutch.dir, 'conf/nutch-site.xml'), 'fetcher.queue.mode'), 'byDomain');
    const crawlee = await exported('crawlee', ['--politeness-by', 'domain'], seeds);
    const data = JSON.parse(read(crawlee.dir, 'plan.json')) as PlanData;
    assert.deepEqual(
      data.hosts.map((h) => h.unit),
      ['example.co.uk', 'example.co.uk', 'other.co.uk'],
    );
  });
});
