/**
 * Key names are checked, not guessed: every key the Nutch and StormCrawler exports write exists in the
 * framework's own default configuration (test/fixtures/frameworks/, copied from apache/nutch and
 * apache/incubator-stormcrawler, see NOTICE.md there), and its value has the type of the default there.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  exportPlan,
  nutchProperties,
  stormCrawlerProperties,
  type ConfProperty,
  type ConfType,
} from '../../src/core/export';
import { exportShards } from '../../src/core/export/hosts';
import { plan, type PlanInput } from '../../src/core/plan';
import type { PolitenessBy } from '../../src/core/servers';
import { validateSeeds } from '../../src/core/seeds';

const FIXTURES = path.resolve(__dirname, '../fixtures/frameworks');

/** A default value's type as the framework reads it: whole number, number, boolean or text. */
function typeOf(raw: string): ConfType {
  const text = raw.trim().replace(/^"(.*)"$/, '$1');
  if (/^-?\d+$/.test(text)) return 'int';
  if (/^-?\d+\.\d+$/.test(text)) return 'float';
  if (text === 'true' || text === 'false') return 'boolean';
  return 'string';
}

interface DefaultKey {
  type: ConfType;
  /** The default value as written (quotes removed). */
  value: string;
  /** Documentation around the key (Nutch's description), for the choices a string key takes. */
  text: string;
  /** StormCrawler: the key is in the file only as a commented example (`# http.agent.name: "…"`). */
  commented: boolean;
}

/** nutch-default.xml: `<property><name>N</name><value>V</value><description>D</description></property>`. */
function nutchDefaults(): Map<string, DefaultKey> {
  const xml = fs.readFileSync(path.join(FIXTURES, 'nutch-default.xml'), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const keys = new Map<string, DefaultKey>();
  for (const m of xml.matchAll(
    /<property>\s*<name>([^<]+)<\/name>\s*<value>([^<]*)<\/value>(?:\s*<description>([\s\S]*?)<\/description>)?/g,
  )) {
    keys.set(m[1]!.trim(), { type: typeOf(m[2]!), value: m[2]!.trim(), text: m[3] ?? '', commented: false });
  }
  return keys;
}

/** crawler-default.yaml: `  key: value` under `config:`, and `  # key: value` examples. */
function stormDefaults(): Map<string, DefaultKey> {
  const yaml = fs.readFileSync(path.join(FIXTURES, 'stormcrawler-crawler-default.yaml'), 'utf8');
  const keys = new Map<string, DefaultKey>();
  const lines = yaml.split('\n');
  for (const [i, line] of lines.entries()) {
    const m = /^ {2}(#\s*)?([a-z][\w.-]*):\s*(.*)$/.exec(line);
    if (!m) continue;
    const [, hash, name, value] = m;
    const commented = hash !== undefined;
    if (commented && keys.has(name!)) continue;
    const text = lines.slice(Math.max(0, i - 8), i).join('\n');
    const raw = value!.replace(/\s+#.*$/, '').trim();
    keys.set(name!, { type: typeOf(raw), value: raw.replace(/^"(.*)"$/, '$1'), text, commented });
  }
  return keys;
}

function seedsOf(urls: string[]) {
  return validateSeeds(urls.map((text, i) => ({ text, line: i + 1 }))).seeds;
}

/** Plans that reach every branch of the properties: each Crawl-delay policy, lanes, fractional numbers, a contact of each kind. */
const PLANS: { input: Omit<PlanInput, 'seeds'>; contact?: string; timeoutSeconds?: number }[] = [
  { input: { pages: { perHost: 10 } } },
  {
    input: {
      pages: { total: 7 },
      delaySeconds: 2.5,
      crawlDelayPolicy: 'skip',
      maxCrawlDelaySeconds: 12.5,
      perHostConcurrency: 3,
      workers: 40,
    },
    contact: 'mailto:ops@example.com',
    timeoutSeconds: 2.25,
  },
  {
    input: { pages: { perHost: 1 }, crawlDelayPolicy: 'obey', delayFrom: 'end', delaySeconds: 0 },
    contact: 'https://ops.example/bot',
  },
];

function fits(p: ConfProperty, want: ConfType): boolean {
  switch (want) {
    case 'int':
      return typeof p.value === 'number' && Number.isInteger(p.value);
    case 'float':
      return typeof p.value === 'number' && Number.isFinite(p.value);
    case 'boolean':
      return typeof p.value === 'boolean';
    case 'string':
      return typeof p.value === 'string';
  }
}

/**
 * String choices a key takes that its default file does not list, from the framework's code: StormCrawler's
 * `fetcher.queue.mode` is read by FetcherBolt.FetchItemQueues, which takes QUEUE_MODE_HOST, QUEUE_MODE_DOMAIN
 * and QUEUE_MODE_IP ("byHost", "byDomain", "byIP"; core/src/main/java/org/apache/stormcrawler/bolt/
 * FetcherBolt.java at apache/incubator-stormcrawler 4b8cea0, the fixture's commit) and forces byHost otherwise.
 */
const CODE_CHOICES: Record<string, Record<string, readonly string[]>> = {
  stormcrawler: { 'fetcher.queue.mode': ['byHost', 'byDomain', 'byIP'] },
  nutch: {},
};

/** Every plan with each politeness unit: two hosts on one address, so `ip` groups them. */
const UNITS: PolitenessBy[] = ['host', 'ip', 'domain'];

function checkAgainst(name: string, defaults: Map<string, DefaultKey>, properties: typeof nutchProperties) {
  for (const [i, c] of PLANS.entries()) {
    for (const by of UNITS) checkPlan(name, defaults, properties, i, c, by);
  }
}

function checkPlan(
  name: string,
  defaults: Map<string, DefaultKey>,
  properties: typeof nutchProperties,
  i: number,
  c: (typeof PLANS)[number],
  by: PolitenessBy,
) {
  {
    const seeds = seedsOf(['https://a.example/', 'https://b.example/']);
    const addressesByHost = { 'a.example': ['192.0.2.1'], 'b.example': ['192.0.2.1'] };
    const p = plan({ ...c.input, seeds, politenessBy: by, addressesByHost });
    const o = {
      productToken: 'ExampleBot',
      timeoutSeconds: c.timeoutSeconds ?? 15,
      maxRetries: 2,
      ...(c.contact ? { contact: c.contact } : {}),
    };
    const shards = exportShards(p, seeds);
    for (const prop of properties(p, shards, o)) {
      const d = defaults.get(prop.name);
      assert.ok(d, `${name} (plan ${i}): ${prop.name} is not a key of the defaults`);
      assert.equal(prop.type, d.type, `${name}: ${prop.name} is declared ${prop.type}, the default is ${d.type}`);
      assert.ok(fits(prop, d.type), `${name}: ${prop.name} = ${JSON.stringify(prop.value)} is not a ${d.type}`);
      if (d.type === 'string' && /mode$/.test(prop.name)) {
        const documented =
          prop.value === d.value ||
          d.text.includes(`'${prop.value}'`) ||
          d.text.includes(`"${prop.value}"`) ||
          (CODE_CHOICES[name]?.[prop.name] ?? []).includes(String(prop.value));
        assert.ok(
          documented,
          `${name}: ${prop.name} = ${prop.value} is neither the default nor one of the documented choices`,
        );
      }
    }
  }
}

describe("export keys against the frameworks' own defaults", () => {
  it("the fixtures are the frameworks' files (non-trivial, with the keys the exports are about)", () => {
    const nutch = nutchDefaults();
    const storm = stormDefaults();
    assert.ok(nutch.size > 300, `nutch-default.xml: ${nutch.size} properties`);
    assert.ok(storm.size > 80, `crawler-default.yaml: ${storm.size} keys`);
    assert.equal(nutch.get('fetcher.server.delay')?.type, 'float');
    assert.equal(nutch.get('fetcher.max.crawl.delay')?.type, 'int');
    assert.equal(storm.get('fetcher.threads.per.queue')?.type, 'int');
    assert.equal(storm.get('http.agent.name')?.commented, true);
    assert.equal(storm.get('fetcher.server.delay.force')?.type, 'boolean');
    assert.equal(nutch.get('no.such.key'), undefined);
  });

  it("Nutch: every property of nutch-site.xml is in nutch-default.xml, with the default's type", () => {
    checkAgainst('nutch', nutchDefaults(), nutchProperties);
  });

  it("StormCrawler: every key of crawler-conf.yaml is in crawler-default.yaml, with the default's type", () => {
    checkAgainst('stormcrawler', stormDefaults(), stormCrawlerProperties);
  });

  it('the files hold exactly those properties, no more', () => {
    const seeds = seedsOf(['https://a.example/']);
    const p = plan({ pages: { perHost: 3 }, seeds });
    const o = { seeds, productToken: 'ExampleBot', userAgentHeader: 'ExampleBot/1', contact: 'https://ops.example/' };
    const nutch = exportPlan('nutch', p, o).files[0]!.content;
    const names = [...nutch.matchAll(/<name>([^<]+)<\/name>/g)].map((m) => m[1]);
    const shards = exportShards(p, seeds);
    const cluster = { productToken: 'ExampleBot', contact: 'https://ops.example/', timeoutSeconds: 15, maxRetries: 2 };
    assert.deepEqual(
      names,
      nutchProperties(p, shards, cluster).map((x) => x.name),
    );
    const storm = exportPlan('stormcrawler', p, o).files[0]!.content;
    const keys = [...storm.matchAll(/^ {2}([a-z][\w.-]*):/gm)].map((m) => m[1]);
    assert.deepEqual(
      keys,
      stormCrawlerProperties(p, shards, cluster).map((x) => x.name),
    );
  });
});
