/**
 * Properties of the deadline solver (src/core/plan/deadline.ts) over random plans: every option meets the
 * deadline when applied, dropping nothing never meets an unreachable one, a deadline already met offers no
 * change, each host's pages by the deadline fit it and one more does not, and with a calibration all of it
 * comes from the calibrated plan.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyPlanChange, plan, planHost, PLAN_LIMITS, type PlanInput } from '../../src/core/plan';
import { calibrationMatcher } from '../../src/core/calibrate/match';
import { calibration, hostCalibration } from '../helpers/calibration';
import { applied } from '../helpers/planDeadline';

// ---- Properties. ----

const HOSTS = [
  'a.example',
  'b.example',
  'c.example:8080',
  'd.example',
  'e.example',
  'f.example',
  'g.example',
  'h.example',
];

/** A random valid plan input without a deadline, small enough to re-plan quickly. */
const inputs = fc
  .record({
    hostCount: fc.integer({ min: 1, max: HOSTS.length }),
    pages: fc.integer({ min: 1, max: 1_000_000 }),
    mode: fc.constantFrom('total' as const, 'perHost' as const, 'byHost' as const),
    byHost: fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: HOSTS.length, maxLength: HOSTS.length }),
    rate: fc.option(fc.double({ min: 0.01, max: 100, noNaN: true }), { nil: undefined }),
    // Few workers often, so that the workers bind as often as the rate and the hosts.
    workers: fc.option(fc.oneof(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 64 })), { nil: undefined }),
    delaySeconds: fc.double({ min: 0, max: 30, noNaN: true }),
    delayFrom: fc.constantFrom('start' as const, 'end' as const),
    latencySeconds: fc.double({ min: 0.01, max: 10, noNaN: true }),
    crawlDelays: fc.array(fc.option(fc.double({ min: 0, max: 120, noNaN: true }), { nil: undefined }), {
      minLength: HOSTS.length,
      maxLength: HOSTS.length,
    }),
    crawlDelayPolicy: fc.constantFrom('cap' as const, 'skip' as const, 'obey' as const),
    adaptive: fc.boolean(),
    perHostConcurrency: fc.integer({ min: 1, max: 3 }),
    machines: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  })
  .map((r): PlanInput => {
    const names = HOSTS.slice(0, r.hostCount);
    const crawlDelayByHost: Record<string, number> = {};
    names.forEach((host, i) => {
      if (r.crawlDelays[i] !== undefined) crawlDelayByHost[host] = r.crawlDelays[i]!;
    });
    return {
      seeds: names.map((host) => ({ host })),
      pages:
        r.mode === 'total'
          ? { total: r.pages }
          : r.mode === 'perHost'
            ? { perHost: r.pages }
            : { byHost: Object.fromEntries(names.map((h, i) => [h, r.byHost[i]!])), otherwise: 0 },
      ...(r.rate === undefined ? {} : { rate: r.rate }),
      ...(r.workers === undefined ? {} : { workers: r.workers }),
      delaySeconds: r.delaySeconds,
      delayFrom: r.delayFrom,
      latencySeconds: r.latencySeconds,
      crawlDelayByHost,
      crawlDelayPolicy: r.crawlDelayPolicy,
      adaptive: r.adaptive,
      perHostConcurrency: r.perHostConcurrency,
      ...(r.machines === undefined ? {} : { machines: r.machines }),
    };
  });

/** An input with a deadline somewhere between far too short and comfortably long for its plan. */
const withDeadlines = fc.tuple(inputs, fc.double({ min: 0.001, max: 1.5, noNaN: true })).map(([input, factor]) => {
  const total = plan(input).totalSeconds;
  return {
    ...input,
    deadlineSeconds: Math.max(0.001, Math.min(PLAN_LIMITS.deadlineSeconds.max, (total || 1) * factor)),
  };
});

/**
 * An input with a deadline between its earliest finish and its total, so that no host is too slow alone:
 * many busy hosts, few workers, sometimes a rate, so that the workers, the rate and the machines bind.
 */
const capacityBound = fc
  .tuple(
    inputs,
    fc.integer({ min: 1, max: 4 }),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.double({ min: 0.5, max: 10, noNaN: true }),
    fc.double({ min: 0, max: 0.999, noNaN: true }),
  )
  .map(([input, workers, delaySeconds, latencySeconds, u]) => {
    const busy: PlanInput = {
      ...input,
      seeds: HOSTS.map((host) => ({ host })),
      workers,
      delaySeconds,
      latencySeconds,
      crawlDelayByHost: {},
    };
    const p = plan(busy);
    const earliest = p.hosts.filter((h) => !h.skipped && h.pages > 0).reduce((max, h) => Math.max(max, h.seconds), 0);
    return { ...busy, deadlineSeconds: Math.max(0.001, earliest + u * (p.totalSeconds - earliest)) };
  });

test('property: every option offered meets the deadline when applied to the plan', () => {
  fc.assert(
    fc.property(fc.oneof(withDeadlines, capacityBound), (input) => {
      const d = plan(input).deadline!;
      for (const o of d.options) {
        const q = applied(input, o);
        assert.ok(q.totalSeconds <= input.deadlineSeconds!, `${o.text}: ${q.totalSeconds} > ${input.deadlineSeconds}`);
        assert.equal(q.deadline!.met, true);
        assert.equal(q.totalSeconds, o.totalSeconds);
        assert.equal(q.totalPages, o.pages);
      }
    }),
    { numRuns: 300 },
  );
});

test('property: dropping nothing never meets an unreachable deadline', () => {
  fc.assert(
    fc.property(withDeadlines, (input) => {
      const d = plan(input).deadline!;
      if (d.seconds >= d.earliestSeconds) return;
      assert.equal(d.met, false);
      assert.ok(d.blockingHosts.length > 0);
      // Every option cuts pages from a blocking host.
      for (const o of d.options) {
        assert.ok(o.kind === 'cap' || o.kind === 'drop', o.text);
        assert.ok(Object.keys(o.change.pagesByHost ?? {}).length + (o.change.dropHosts ?? []).length > 0, o.text);
      }
      // No number of workers or machines, and no rate, gets there.
      const most = plan(
        applyPlanChange(input, { workers: PLAN_LIMITS.workers.max, rate: PLAN_LIMITS.rate.max, machines: 1_000 }),
      );
      assert.equal(most.deadline!.met, false);
      assert.ok(most.totalSeconds >= d.earliestSeconds);
    }),
    { numRuns: 200 },
  );
});

test('property: a deadline already met offers no changes', () => {
  fc.assert(
    fc.property(withDeadlines, (input) => {
      const p = plan(input);
      if (!p.deadline!.met) return;
      assert.deepEqual(p.deadline!.options, []);
      assert.deepEqual(p.deadline!.blockingHosts, []);
      assert.ok(p.deadline!.earliestSeconds <= p.totalSeconds);
    }),
    { numRuns: 200 },
  );
});

test("property: each host's pages by the deadline fit it, and one more does not", () => {
  fc.assert(
    fc.property(withDeadlines, (input) => {
      const p = plan(input);
      for (const h of p.hosts) {
        const n = p.deadline!.pagesByHost[h.host];
        if (h.skipped) {
          assert.equal(n, undefined);
          continue;
        }
        assert.ok(n !== undefined);
        assert.ok(n === 0 || planHost(h.host, h.seeds, n, p.input).seconds <= input.deadlineSeconds!);
        assert.ok(planHost(h.host, h.seeds, n + 1, p.input).seconds > input.deadlineSeconds!);
      }
    }),
    { numRuns: 200 },
  );
});

/**
 * A plan with what a test crawl measured (--calibrate) for some of its hosts: answer times spread around the
 * interval and a 429 with Retry-After on every Nth request. Small, since each host's faults are walked request
 * by request.
 */
const calibrated = fc
  .tuple(
    inputs,
    fc.integer({ min: 1, max: 2_000 }),
    fc.array(fc.option(fc.integer({ min: 5, max: 20 }), { nil: undefined }), {
      minLength: HOSTS.length,
      maxLength: HOSTS.length,
    }),
    fc.double({ min: 0.05, max: 1.5, noNaN: true }),
  )
  .map(([input, pages, every, factor]) => {
    const seen = input.seeds.map((s, i) => ({ host: s.host, every: every[i] })).filter((h) => h.every !== undefined);
    const cal = calibration(
      seen.map((h, i) =>
        hostCalibration(h.host, {
          samples: Array.from({ length: 11 }, (_, k) => 0.02 * (i + 1) + 0.03 * k),
          rate429: 1 / h.every!,
          every: true,
        }),
      ),
    );
    const small: PlanInput = { ...input, pages: { perHost: pages }, calibration: cal };
    const total = plan(small).totalSeconds;
    return { ...small, deadlineSeconds: Math.max(0.001, (total || 1) * factor) };
  });

test('property: with a calibration, pages by the deadline and every option come from the calibrated plan', () => {
  fc.assert(
    fc.property(calibrated, (input) => {
      const p = plan(input);
      const calibrationOf = calibrationMatcher(p.input.calibration);
      for (const h of p.hosts) {
        if (h.skipped) continue;
        const n = p.deadline!.pagesByHost[h.host]!;
        const seconds = (pages: number) =>
          planHost(h.host, h.seeds, pages, p.input, calibrationOf(h.host), p.overhead).seconds;
        assert.ok(n === 0 || seconds(n) <= input.deadlineSeconds!, `${h.host}: ${n} pages take ${seconds(n)} s`);
        assert.ok(seconds(n + 1) > input.deadlineSeconds!, `${h.host}: ${n + 1} pages take ${seconds(n + 1)} s`);
      }
      for (const o of p.deadline!.options) {
        const q = applied(input, o);
        assert.ok(q.totalSeconds <= input.deadlineSeconds!, `${o.text}: ${q.totalSeconds} > ${input.deadlineSeconds}`);
        assert.equal(q.deadline!.met, true);
        assert.equal(q.totalSeconds, o.totalSeconds);
      }
    }),
    { numRuns: 60 },
  );
});
