/**
 * What a deadline option changes (src/core/plan): applyPlanChange on a plan input (a total pinned before a
 * drop, caps over a number per host and over sitemap counts, the levers), pagesByDeadline by the plan's own
 * per-host duration, and cliChange, the estimate options an option stands for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyPlanChange,
  cliChange,
  pagesByDeadline,
  plan,
  planHost,
  PLAN_LIMITS,
  type PlanInput,
} from '../../src/core/plan';
import { hosts } from '../helpers/planDeadline';

// ---- applyPlanChange. ----

test('applyPlanChange pins a total before dropping, and removes the dropped host everywhere', () => {
  const input: PlanInput = {
    seeds: hosts('a.example', 'B.example', 'c.example', 'b.example'),
    pages: { total: 10 },
    latencyByHost: { 'B.EXAMPLE': 2, 'a.example': 1 },
    crawlDelayByHost: { 'b.example': 5 },
    workers: 3,
  };
  const out = applyPlanChange(input, { dropHosts: ['b.example'] });
  assert.deepEqual(out.seeds, hosts('a.example', 'c.example'));
  // 10 over 3 hosts: 4, 3, 3; b's 3 are not spread again.
  assert.deepEqual(out.pages, { byHost: { 'a.example': 4 }, otherwise: 3 });
  assert.deepEqual(out.latencyByHost, { 'a.example': 1 });
  assert.deepEqual(out.crawlDelayByHost, {});
  assert.equal(out.workers, 3);
  assert.deepEqual(input.seeds.length, 4, 'the input is not changed');
});

test('applyPlanChange: caps over a number per host, sitemap counts, and the levers', () => {
  assert.deepEqual(
    applyPlanChange({ seeds: hosts('a.example'), pages: { perHost: 7 } }, { pagesByHost: { 'A.example': 2 } }).pages,
    { byHost: { 'a.example': 2 }, otherwise: 7 },
  );
  assert.deepEqual(
    applyPlanChange(
      { seeds: hosts('a.example', 'b.example'), pages: { byHost: { 'a.example': 9, 'b.example': 4 }, otherwise: 1 } },
      { pagesByHost: { 'b.example': 2 } },
    ).pages,
    { byHost: { 'a.example': 9, 'b.example': 2 }, otherwise: 1 },
  );
  // Only dropping, with a number per host: the target stays as it is.
  assert.deepEqual(
    applyPlanChange({ seeds: hosts('a.example', 'b.example'), pages: { perHost: 7 } }, { dropHosts: ['a.example'] })
      .pages,
    { perHost: 7 },
  );
  const levers = applyPlanChange(
    { seeds: hosts('a.example'), pages: { total: 7 } },
    { workers: 9, rate: 2.5, machines: 3 },
  );
  assert.deepEqual(levers, { seeds: hosts('a.example'), pages: { total: 7 }, workers: 9, rate: 2.5, machines: 3 });
});

test("pagesByDeadline: the most pages within the deadline, by the plan's own per-host duration", () => {
  const p = plan({
    seeds: hosts('a.example'),
    pages: { total: 1 },
    perHostConcurrency: 3,
    delayFrom: 'end',
    latencySeconds: 0.7,
    delaySeconds: 2,
  });
  const h = p.hosts[0]!;
  for (const deadline of [0.5, 0.7, 3.4, 3.5, 100, 86_400]) {
    const n = pagesByDeadline(h, p.input, deadline);
    assert.ok(n === 0 || planHost(h.host, h.seeds, n, p.input).seconds <= deadline, `${deadline}: ${n}`);
    assert.ok(planHost(h.host, h.seeds, n + 1, p.input).seconds > deadline, `${deadline}: ${n + 1}`);
  }
  // The plan's limit bounds it.
  const fast = plan({
    seeds: hosts('a.example'),
    pages: { total: 1 },
    delaySeconds: 0,
    latencySeconds: 0.001,
    perHostConcurrency: 1000,
  }).hosts[0]!;
  assert.equal(
    pagesByDeadline(
      fast,
      plan({
        seeds: hosts('a.example'),
        pages: { total: 1 },
        delaySeconds: 0,
        latencySeconds: 0.001,
        perHostConcurrency: 1000,
      }).input,
      1e10,
    ),
    PLAN_LIMITS.pages.max,
  );
});

test('cliChange names what the CLI takes', () => {
  const base = plan({ seeds: hosts('a.example', '[::1]:8080'), pages: { perHost: 5 } });
  assert.deepEqual(cliChange({ pagesByHost: { '[::1]:8080': 2 } }, base), {
    add: ['--pages-for', '[::1]:8080=2'],
    remove: [],
  });
  assert.deepEqual(cliChange({ dropHosts: ['a.example', '[::1]:8080'], machines: 4, rate: 0.125, workers: 2 }, base), {
    add: [
      '--drop-host',
      'a.example',
      '--drop-host',
      '[::1]:8080',
      '--workers',
      '2',
      '--rate',
      '0.125',
      '--machines',
      '4',
    ],
    remove: [],
  });
});
