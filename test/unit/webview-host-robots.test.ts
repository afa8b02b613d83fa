/**
 * The planner's robots.txt step (robotsStep.ts, robotsResults.ts): turning it on inspects the seeds and its
 * Crawl-delays feed the plan, a newer check supersedes an older one, failures are reported, and the views.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  crawlDelaysFrom,
  robotsTargets,
  toRobotsView,
  MAX_ROBOTS_ORIGINS,
} from '../../src/extension/planner/robotsResults';
import type { RobotsInspection } from '../../src/net/robotsInspect';
import {
  SEEDS,
  form,
  robotsInspection,
  inspection,
  type Deferred,
  deferred,
  harness,
  settle,
} from '../helpers/plannerHost';

test('turning robots.txt on inspects the seeds; its Crawl-delay feeds the plan as crawl-delay', async () => {
  const h = harness({ seeds: SEEDS, form });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, useRobots: true, userAgent: 'ExampleBot/2' } });
  assert.deepEqual(h.types().slice(-2), ['planResult', 'robotsPending']);
  assert.equal(h.inspections.length, 1);
  const [urls, options] = h.inspections[0]!;
  assert.deepEqual(urls, ['https://a.example/', 'https://b.example/private/x']);
  assert.equal(options.userAgent, 'ExampleBot/2');
  assert.equal(options.configuredDelaySeconds, 1);
  assert.equal(options.crawlDelayPolicy, 'cap');
  assert.ok(options.signal instanceof AbortSignal);
  await settle();
  const robots = h.last('robotsResult')!.robots;
  assert.equal(robots.userAgent, 'ExampleBot/2');
  assert.equal(robots.origins.length, 2);
  assert.ok(!('text' in robots.origins[0]!), 'the robots.txt text is not posted');
  assert.deepEqual(robots.results[1], {
    url: 'https://b.example/private/x',
    origin: 'https://b.example',
    verdict: 'disallowed',
    line: 3,
    rule: 'Disallow: /private',
    reason: 'Disallowed by line 3.',
  });
  const planned = h.last('planResult')!.result;
  const b = h.controller.currentPlan().plan!.hosts.find((x) => x.host === 'b.example')!;
  assert.equal(b.intervalSource, 'crawl-delay');
  assert.equal(b.intervalSeconds, 10);
  assert.deepEqual(planned.crawlDelayHosts, ['b.example']);
  const first = planned.summary!.groups[0]!;
  assert.deepEqual(
    [first.host, first.binding, first.interval, first.source],
    ['b.example', true, '10 s', 'Crawl-delay'],
  );
  // The cards learn the plan's interval and what is covered.
  assert.deepEqual(planned.robots, {
    unchecked: 0,
    stale: [],
    intervals: [
      { origin: 'https://a.example', intervalSeconds: 1, source: 'configured' },
      { origin: 'https://b.example', intervalSeconds: 10, source: 'crawl-delay' },
    ],
  });
  // The JSON copy carries the same Crawl-delay.
  assert.equal(JSON.parse(h.controller.currentPlanJson()!).settings.crawlDelayByHost['b.example'], 10);
  // Turning it off drops the Crawl-delays and fetches nothing more.
  h.controller.receive({ type: 'formChanged', form: { ...form, useRobots: false } });
  assert.equal(
    h.controller.currentPlan().plan!.hosts.find((x) => x.host === 'b.example')!.intervalSource,
    'configured',
  );
  assert.equal(h.last('planResult')!.result.robots, null);
  assert.equal(h.inspections.length, 1);
});

test('a newer robots.txt request aborts the older one, whose result is dropped', async () => {
  const pending: Array<Deferred<RobotsInspection>> = [];
  const h = harness({
    seeds: SEEDS,
    form: { ...form, useRobots: true },
    inspect: () => {
      const d = deferred<RobotsInspection>();
      pending.push(d);
      return d.promise;
    },
  });
  h.controller.receive({ type: 'ready' });
  assert.equal(h.inspections.length, 1, 'ready with robots on starts a check');
  h.controller.receive({ type: 'requestRobots' });
  assert.equal(h.inspections.length, 2);
  assert.equal(h.inspections[0]![1].signal.aborted, true);
  assert.equal(h.inspections[1]![1].signal.aborted, false);
  pending[0]!.resolve(inspection(['https://stale.example/']));
  await settle();
  assert.equal(h.last('robotsResult'), undefined);
  pending[1]!.resolve(inspection(h.inspections[1]![0]));
  await settle();
  assert.deepEqual(
    h.last('robotsResult')!.robots.origins.map((o) => o.origin),
    ['https://a.example', 'https://b.example'],
  );
});

test('robots.txt failures and untrusted workspaces are reported, not thrown', async () => {
  const failing = harness({
    seeds: SEEDS,
    form: { ...form, useRobots: true },
    inspect: () => Promise.reject(new Error('network down')),
  });
  failing.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(failing.last('robotsError')!.message, 'robots.txt check failed: network down');
  assert.ok(failing.logs.some((l) => l.includes('network down')));

  const untrusted = harness({ seeds: SEEDS, form: { ...form, useRobots: true }, trusted: false });
  untrusted.controller.receive({ type: 'ready' });
  assert.equal(untrusted.inspections.length, 0);
  assert.match(untrusted.last('robotsError')!.message, /trusted workspace/);
  assert.equal(untrusted.last('state')!.trusted, false);

  const noSeeds = harness({ seeds: 'nope', form: { ...form, useRobots: true } });
  noSeeds.controller.receive({ type: 'ready' });
  assert.match(noSeeds.last('robotsError')!.message, /No valid seed/);

  const off = harness({ seeds: SEEDS, form });
  off.controller.receive({ type: 'ready' });
  off.controller.receive({ type: 'requestRobots' });
  assert.equal(off.inspections.length, 0, 'requestRobots with the toggle off fetches nothing');
});

test('robotsTargets keeps the first origins; crawlDelaysFrom takes ok files and the larger delay per host', () => {
  const seeds = Array.from({ length: MAX_ROBOTS_ORIGINS + 5 }, (_, i) => ({
    url: `https://h${i}.example/`,
    origin: `https://h${i}.example`,
  }));
  const { urls, omittedOrigins } = robotsTargets(seeds);
  assert.equal(urls.length, MAX_ROBOTS_ORIGINS);
  assert.equal(omittedOrigins, 5);

  const finding = (line: number) => ({
    code: 'unknown-directive' as const,
    severity: 'warning' as const,
    line,
    message: 'Unknown directive.',
  });
  const view = toRobotsView(
    robotsInspection([
      { origin: 'http://a.example', crawlDelaySeconds: 5, effectiveIntervalSeconds: 5, intervalSource: 'crawl-delay' },
      { origin: 'https://a.example', crawlDelaySeconds: 8, effectiveIntervalSeconds: 8, intervalSource: 'crawl-delay' },
      {
        origin: 'https://b.example:8443',
        crawlDelaySeconds: 2,
        effectiveIntervalSeconds: 2,
        intervalSource: 'crawl-delay',
        sitemaps: Array.from({ length: 30 }, (_, i) => `https://b.example:8443/s${i}.xml`),
        findings: [finding(1), finding(2)],
      },
      {
        origin: 'https://c.example',
        outcome: 'unreachable',
        crawlDelaySeconds: 100,
        effectiveIntervalSeconds: 1,
        intervalSource: 'configured',
      },
    ]),
    'Bot',
  );
  assert.deepEqual(crawlDelaysFrom(view), { 'a.example': 8, 'b.example:8443': 2 });
  assert.equal(view.origins[2]!.sitemaps.length, 20);
  assert.equal(view.origins[2]!.sitemapCount, 30);
  assert.equal(view.origins[2]!.findingCount, 2);
});

test('toRobotsView leaves out what the inspection reports as null, and the text', () => {
  const view = toRobotsView(
    robotsInspection(
      [
        {
          origin: 'https://a.example',
          status: 200,
          group: { line: 4, lines: [4], userAgents: ['examplebot'], matchedBy: 'product-token' },
          crawlDelaySeconds: 3,
          text: 'User-agent: examplebot',
        },
        {
          origin: 'https://b.example',
          outcome: 'unavailable',
          group: { line: null, lines: [], userAgents: [], matchedBy: 'none' },
        },
      ],
      [
        {
          url: 'https://a.example/x',
          verdict: 'disallowed',
          line: 5,
          rule: 'Disallow: /x',
          reason: 'Disallowed by line 5.',
        },
        { url: 'https://b.example/', reason: 'robots.txt unavailable.' },
        {
          url: 'https://other.example/',
          origin: null,
          verdict: 'not-applicable',
          reason: 'No robots.txt was fetched for this origin.',
        },
      ],
    ),
    'ExampleBot',
  );
  assert.deepEqual(view.origins, [
    {
      origin: 'https://a.example',
      robotsUrl: 'https://a.example/robots.txt',
      outcome: 'ok',
      status: 200,
      crawlDelaySeconds: 3,
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      sitemaps: [],
      sitemapCount: 0,
      group: { line: 4, userAgents: ['examplebot'] },
      findingCount: 0,
      reason: '',
    },
    {
      origin: 'https://b.example',
      robotsUrl: 'https://b.example/robots.txt',
      outcome: 'unavailable',
      effectiveIntervalSeconds: 1,
      intervalSource: 'configured',
      sitemaps: [],
      sitemapCount: 0,
      findingCount: 0,
      reason: '',
    },
  ]);
  assert.deepEqual(view.results, [
    {
      url: 'https://a.example/x',
      origin: 'https://a.example',
      verdict: 'disallowed',
      line: 5,
      rule: 'Disallow: /x',
      reason: 'Disallowed by line 5.',
    },
    { url: 'https://b.example/', origin: 'https://b.example', verdict: 'allowed', reason: 'robots.txt unavailable.' },
  ]);
});

test('toRobotsView names the Crawl-delay line and passes the not-text finding on', () => {
  const view = toRobotsView(
    robotsInspection([
      {
        origin: 'https://a.example',
        crawlDelaySeconds: 42,
        crawlDelayLine: 2,
        findings: [
          {
            code: 'not-text',
            severity: 'warning',
            line: 1,
            message: 'This file does not look like text: its first 1,024 bytes hold NUL bytes.',
          },
          {
            code: 'crawl-delay-scope',
            severity: 'warning',
            line: 2,
            message: 'This Crawl-delay applies to A (line 1).',
          },
        ],
      },
      { origin: 'https://b.example', crawlDelaySeconds: null, crawlDelayLine: null },
    ]),
    'ExampleBot',
  );
  assert.deepEqual([view.origins[0]!.crawlDelaySeconds, view.origins[0]!.crawlDelayLine], [42, 2]);
  assert.equal(view.origins[0]!.notText, 'This file does not look like text: its first 1,024 bytes hold NUL bytes.');
  assert.equal(view.origins[0]!.findingCount, 2);
  assert.equal('crawlDelayLine' in view.origins[1]!, false);
  assert.equal('notText' in view.origins[1]!, false);
});
