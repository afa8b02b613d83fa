/** The plan a test crawl is checked against (src/core/crawl/samplePlan.ts), from its options and its hosts' Crawl-delays. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateSampleCrawlOptions } from '../../src/core/crawl/sampleCrawlOptions';
import { crawlDelaysByHost, planSampleCrawl, samplePlanInput } from '../../src/core/crawl/samplePlan';

const options = validateSampleCrawlOptions({
  seeds: ['https://a.example/', 'https://a.example/x', 'http://b.example:8080/'],
  maxPages: 7,
  delaySeconds: 2,
  delayFrom: 'end',
  concurrency: 3,
  maxCrawlDelaySeconds: 20,
});

describe('samplePlanInput', () => {
  it('plans the seed hosts with maxPages spread over them and the crawl’s own pacing', () => {
    const input = samplePlanInput(options);
    assert.deepEqual(
      input.seeds.map((s) => s.host),
      ['a.example', 'a.example', 'b.example:8080'],
    );
    assert.deepEqual(input.pages, { total: 7 });
    assert.equal(input.workers, 3);
    assert.equal(input.delaySeconds, 2);
    assert.equal(input.delayFrom, 'end');
    assert.equal(input.maxCrawlDelaySeconds, 20);
    assert.equal(input.crawlDelayPolicy, options.crawlDelayPolicy);
    assert.equal(input.adaptive, options.adaptive);
    assert.equal(input.perHostConcurrency, options.perHostConcurrency);
    assert.deepEqual(input.crawlDelayByHost, {});
    assert.equal('latencySeconds' in input, false);
    assert.equal('calibration' in input, false);
  });

  it('takes the latency when given', () => {
    assert.equal(samplePlanInput(options, { latencySeconds: 0.25 }).latencySeconds, 0.25);
  });
});

describe('crawlDelaysByHost', () => {
  it('keys each origin’s Crawl-delay by its host; none declared is left out; of two origins of one host, the larger (merged by max, as estimate --robots does)', () => {
    assert.deepEqual(
      crawlDelaysByHost([
        { origin: 'http://a.example', crawlDelaySeconds: 3 },
        { origin: 'https://a.example', crawlDelaySeconds: 5 },
        { origin: 'http://b.example:8080', crawlDelaySeconds: null },
        { origin: 'https://c.example', crawlDelaySeconds: 0 },
        { origin: 'https://d.example', crawlDelaySeconds: 7 },
        { origin: 'http://d.example', crawlDelaySeconds: 2 },
      ]),
      { 'a.example': 5, 'c.example': 0, 'd.example': 7 },
    );
    assert.deepEqual(crawlDelaysByHost(), {});
  });
});

describe('planSampleCrawl', () => {
  it('plans every page, with a host’s robots.txt Crawl-delay raising its interval', () => {
    const result = planSampleCrawl(options, { crawlDelays: [{ origin: 'https://a.example', crawlDelaySeconds: 10 }] });
    const a = result.hosts.find((h) => h.host === 'a.example')!;
    const b = result.hosts.find((h) => h.host === 'b.example:8080')!;
    assert.equal(a.pages + b.pages, 7);
    assert.equal(a.crawlDelaySeconds, 10);
    assert.equal(a.intervalSeconds, 10);
    assert.equal(b.crawlDelaySeconds, null);
    assert.equal(b.intervalSeconds, 2);
  });
});
