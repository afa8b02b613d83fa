/**
 * An estimate document read back as the crawl it plans (src/core/plan/planToRun.ts): seeds, each host's planned
 * pages as its budget by the one rule, the settings, the hosts left out with why, and bad documents refused.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageBudgetOf, planBudgets } from '../../src/core/crawl/pageBudgets';
import { estimateDocument, plan } from '../../src/core/plan';
import { planToRun, PlanDocumentError } from '../../src/core/plan/planToRun';
import { validateSeeds } from '../../src/core/seeds';

const SEEDS = ['https://a.example/', 'https://a.example/x', 'https://b.example/', 'https://c.example/'];

function documentOf(
  pages: Parameters<typeof plan>[0]['pages'],
  extra: Partial<Parameters<typeof plan>[0]> = {},
  urls: readonly string[] = SEEDS,
) {
  const { seeds } = validateSeeds(
    urls.map((text, i) => ({
      text,
      line: i + 1,
    })),
  );
  const p = plan({ seeds, pages, delaySeconds: 0.5, workers: 3, ...extra });
  return { p, doc: JSON.parse(JSON.stringify(estimateDocument(p))) as Record<string, unknown> };
}

describe('planToRun', () => {
  it("the plan's seeds, each host's planned pages as its budget, the settings", () => {
    const { p, doc } = documentOf({ byHost: { 'b.example': 7 }, otherwise: 3 });
    const run = planToRun(doc);
    assert.deepEqual(run.seeds, [
      'https://a.example/',
      'https://a.example/x',
      'https://b.example/',
      'https://c.example/',
    ]);
    const rule = planBudgets(p.hosts);
    for (const h of p.hosts) assert.equal(pageBudgetOf(run.pageBudgets, h.host), pageBudgetOf(rule, h.host), h.host);
    assert.equal(pageBudgetOf(run.pageBudgets, 'other.example'), 0);
    assert.deepEqual(
      run.hosts.map((h) => [h.host, h.pages, h.requests]),
      p.hosts.map((h) => [h.host, h.pages, h.requests]),
    );
    assert.deepEqual(run.settings, {
      delaySeconds: 0.5,
      delayFrom: 'start',
      concurrency: 3,
      perHostConcurrency: 1,
      crawlDelayPolicy: 'cap',
      maxCrawlDelaySeconds: 30,
      adaptive: false,
      latencySeconds: 0.5,
    });
    assert.deepEqual(run.leftOut, []);
    assert.equal(run.calibrated, false);
    assert.deepEqual(run.crawlDelayByHost, {});
  });

  it("the plan's Crawl-delays of the hosts it runs", () => {
    const { doc } = documentOf({ perHost: 2 }, { crawlDelayByHost: { 'b.example': 4, 'z.example': 9 } });
    assert.deepEqual(planToRun(doc).crawlDelayByHost, { 'b.example': 4 });
  });

  it('hosts whose pages are unknown, skipped or given 0 are left out with why, and their seeds too', () => {
    const { doc } = documentOf(
      {
        byHost: { 'a.example': 4, 'c.example': 0, 'd.example': 5 },
        unknown: { 'b.example': { code: 'unreadable', reason: 'a 503' } },
      },
      { crawlDelayByHost: { 'a.example': 100 }, crawlDelayPolicy: 'skip' },
      [...SEEDS, 'https://d.example/'],
    );
    const run = planToRun(doc);
    assert.deepEqual(run.seeds, ['https://d.example/']);
    assert.deepEqual(run.pageBudgets.byHost, { 'd.example': 5 });
    assert.deepEqual(run.leftOut, [
      { host: 'a.example', why: 'skipped' },
      { host: 'b.example', why: 'pages-unknown', reason: 'a 503' },
      { host: 'c.example', why: 'no-pages' },
    ]);
  });

  it('refuses what is not an estimate document a crawl can run, saying why', () => {
    const { doc } = documentOf({ perHost: 2 });
    const refused = (d: unknown, message: RegExp) =>
      assert.throws(
        () => planToRun(d),
        (err: unknown) => err instanceof PlanDocumentError && message.test(err.message),
      );
    refused('text', /not a JSON object/);
    refused({ summary: {}, requests: [] }, /a crawl report, not an estimate document/);
    refused(
      { ...doc, schemaVersion: 9 },
      /schemaVersion 9: this crawl-planner reads estimate documents of schemaVersion 1/,
    );
    refused({ schemaVersion: 1 }, /no hosts, settings or totalSeconds/);
    refused({ ...doc, seedUrls: undefined }, /no seedUrls/);
    refused({ ...doc, seedUrls: ['https://z.example/'] }, /seedUrls\[0\]: z\.example is not a host of the plan/);
    refused({ ...doc, seedUrls: ['ftp://a.example/'] }, /seedUrls\[0\]: not an http\(s\) URL/);
    refused(
      { ...doc, settings: { ...(doc.settings as object), workers: 0 } },
      /settings\.workers: 0 must be at least 1/,
    );
    refused({ ...doc, settings: { ...(doc.settings as object), delayFrom: 'middle' } }, /settings\.delayFrom/);
    const hosts = doc.hosts as Array<Record<string, unknown>>;
    refused({ ...doc, hosts: [hosts[0], hosts[0]] }, /hosts\[1\]: a\.example is listed twice/);
    refused({ ...doc, hosts: hosts.map((h) => ({ ...h, pages: 0 })) }, /no host of the plan has pages to crawl/);
  });
});
