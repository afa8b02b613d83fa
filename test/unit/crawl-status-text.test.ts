/**
 * The crawl status bar item's text (src/extension/crawl/statusText.ts): progress, and a warning while a host
 * looks like it is blocking the crawl (docs/crawl-engine.md#blocking-suspected).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BlockingSuspectedEvent } from '../../src/core/crawl/events';
import type { RunningCrawl } from '../../src/extension/crawl/runningCrawls';
import { crawlStatusText } from '../../src/extension/crawl/statusText';

const run = (blocking: BlockingSuspectedEvent[] = []): RunningCrawl => ({
  id: 1,
  name: 'Test crawl',
  startedAt: 0,
  maxPages: 50,
  progress: {
    type: 'progress',
    at: 0,
    done: 12,
    planned: 50,
    queued: 30,
    inFlight: 1,
    ratePerSecond: 1.25,
    etaSeconds: 31,
  },
  blocking,
});

const signal: BlockingSuspectedEvent = {
  type: 'blocking-suspected',
  at: 0,
  host: 'a.example',
  kind: 'refusals',
  text: '403 share rose from 0% to 40% over the last 20 requests',
  numbers: {},
  signal: 1,
  action: 'slowed',
  intervalSeconds: 2,
};

test('the status bar: progress, no warning while no host looks like it is blocking', () => {
  const s = crawlStatusText([run()]);
  assert.equal(s.text, '$(sync~spin) 12/50 pages · 1.25/s · ETA 31 s');
  assert.equal(s.warning, false);
  assert.doesNotMatch(s.tooltip, /Blocking/);
});

test('the status bar warns while a host looks like it is blocking the crawl, naming it and the numbers', () => {
  const s = crawlStatusText([run([signal, { ...signal, host: 'b.example\x1b[2J', action: 'dropped' }])]);
  assert.equal(s.text, '$(sync~spin) 12/50 pages · 1.25/s · ETA 31 s $(warning)');
  assert.equal(s.warning, true);
  assert.match(
    s.tooltip,
    /Blocking suspected on a\.example \(403 share rose from 0% to 40% over the last 20 requests; slowed ×2\), b\.example\[2J \(.*; dropped\)\. Click to stop\.$/,
  );
  const starting = crawlStatusText([{ ...run([signal]), progress: undefined }]);
  assert.equal(starting.text, '$(sync~spin) Crawling… $(warning)');
});
