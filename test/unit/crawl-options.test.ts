/** The test-crawl option validator shared by the CLI, the VS Code task and the sidebar. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CrawlOptionsError,
  SAMPLE_CRAWL_DEFAULTS,
  validateSampleCrawlOptions,
} from '../../src/core/crawl/sampleCrawlOptions';

describe('validateSampleCrawlOptions', () => {
  it('fills the defaults and normalises seeds (fragment dropped)', () => {
    const o = validateSampleCrawlOptions({ seeds: [' https://a.example/x#frag '] });
    assert.deepEqual(o.seeds, ['https://a.example/x']);
    assert.equal(o.maxPages, SAMPLE_CRAWL_DEFAULTS.maxPages);
    assert.equal(o.delayFrom, 'start');
    assert.equal(o.userAgent, 'CrawlPlanner');
    assert.equal(o.respectRobots, true);
    assert.equal(o.followOtherHostRedirects, false);
    assert.equal(o.connectTimeoutSeconds, 10);
  });

  it('accepts numeric strings from settings and task files', () => {
    const o = validateSampleCrawlOptions({ seeds: ['http://a.example/'], maxPages: '7', delaySeconds: '0.5' });
    assert.equal(o.maxPages, 7);
    assert.equal(o.delaySeconds, 0.5);
  });

  const bad: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['no seeds', { seeds: [] }, 'seeds', /at least one/],
    ['seeds not an array', { seeds: 'http://a/' }, 'seeds', /at least one/],
    ['a non-string seed', { seeds: [3] }, 'seeds', /item 1 is not a string/],
    ['a relative seed', { seeds: ['/x'] }, 'seeds', /not a URL/],
    ['an ftp seed', { seeds: ['ftp://a.example/'] }, 'seeds', /not http or https/],
    ['a javascript: seed', { seeds: ['javascript:alert(1)'] }, 'seeds', /not http or https/],
    ['a fractional page count', { maxPages: 1.5 }, 'maxPages', /whole number/],
    ['zero pages', { maxPages: 0 }, 'maxPages', /at least 1/],
    ['absurd pages', { maxPages: 1e308 }, 'maxPages', /too large/],
    ['a negative delay', { delaySeconds: -1 }, 'delaySeconds', /at least 0/],
    ['NaN delay', { delaySeconds: Number.NaN }, 'delaySeconds', /finite/],
    ['Infinity timeout', { timeoutSeconds: Infinity }, 'timeoutSeconds', /finite/],
    ['zero timeout', { timeoutSeconds: 0 }, 'timeoutSeconds', /greater than 0/],
    ['text concurrency', { concurrency: 'lots' }, 'concurrency', /finite/],
    ['a bad delay reading', { delayFrom: 'middle' }, 'delayFrom', /start, end/],
    ['a bad policy', { crawlDelayPolicy: 'ignore' }, 'crawlDelayPolicy', /cap, skip, obey/],
    ['a product token with a space', { userAgent: 'My Bot' }, 'userAgent', /a-zA-Z_-/],
    [
      'an ftp contact',
      { contactUrl: 'ftp://ops.example/' },
      'contactUrl',
      /must be an absolute http\(s\) URL or a mailto: address/,
    ],
    ['a contact with a parenthesis', { contactUrl: 'https://ops.example/(bot)' }, 'contactUrl', /parentheses/],
    ['a non-boolean robots switch', { respectRobots: 'yes' }, 'respectRobots', /true or false/],
    ['a non-boolean redirect switch', { followOtherHostRedirects: 1 }, 'followOtherHostRedirects', /true or false/],
  ];
  for (const [what, extra, field, message] of bad) {
    it(`refuses ${what}, naming ${field}`, () => {
      assert.throws(
        () => validateSampleCrawlOptions({ seeds: ['http://a.example/'], ...extra }),
        (err: unknown) => err instanceof CrawlOptionsError && err.field === field && message.test(err.message),
      );
    });
  }
});

describe('validateSampleCrawlOptions: the optional per-host token bucket', () => {
  it('is absent unless a host rate is given', () => {
    assert.equal(validateSampleCrawlOptions({ seeds: ['http://a.example/'] }).tokenBucket, undefined);
  });
  it('takes a rate and a burst (default 1)', () => {
    assert.deepEqual(validateSampleCrawlOptions({ seeds: ['http://a.example/'], hostRatePerSecond: 2 }).tokenBucket, {
      ratePerSecond: 2,
      burst: 1,
    });
    assert.deepEqual(
      validateSampleCrawlOptions({ seeds: ['http://a.example/'], hostRatePerSecond: 2, hostBurst: 4 }).tokenBucket,
      { ratePerSecond: 2, burst: 4 },
    );
  });
  it('refuses a burst without a rate, and a zero rate', () => {
    assert.throws(
      () => validateSampleCrawlOptions({ seeds: ['http://a.example/'], hostBurst: 4 }),
      /hostBurst: only with hostRatePerSecond/,
    );
    assert.throws(
      () => validateSampleCrawlOptions({ seeds: ['http://a.example/'], hostRatePerSecond: 0 }),
      /greater than 0/,
    );
  });
});
