import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { plan, tidy, type PlanInput } from '../../src/core/plan';

const HOSTS = ['a.example', 'b.example', 'c.example:8080', 'd.example', 'e.example', 'f.example'];

/** A random, valid plan input (small enough to run quickly). */
const inputs = fc
  .record({
    hostCount: fc.integer({ min: 1, max: HOSTS.length }),
    pages: fc.integer({ min: 1, max: 10_000_000 }),
    perHost: fc.boolean(),
    rate: fc.option(fc.double({ min: 0.01, max: 1000, noNaN: true }), { nil: undefined }),
    workers: fc.option(fc.integer({ min: 1, max: 256 }), { nil: undefined }),
    delaySeconds: fc.double({ min: 0, max: 120, noNaN: true }),
    delayFrom: fc.constantFrom('start' as const, 'end' as const),
    latencySeconds: fc.double({ min: 0.001, max: 30, noNaN: true }),
    latencyOverrides: fc.array(fc.option(fc.double({ min: 0.001, max: 30, noNaN: true }), { nil: undefined }), {
      minLength: HOSTS.length,
      maxLength: HOSTS.length,
    }),
    crawlDelays: fc.array(fc.option(fc.double({ min: 0, max: 300, noNaN: true }), { nil: undefined }), {
      minLength: HOSTS.length,
      maxLength: HOSTS.length,
    }),
    crawlDelayPolicy: fc.constantFrom('cap' as const, 'skip' as const, 'obey' as const),
    maxCrawlDelaySeconds: fc.double({ min: 0, max: 120, noNaN: true }),
    adaptive: fc.boolean(),
    perHostConcurrency: fc.integer({ min: 1, max: 4 }),
    machines: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  })
  .map((r): PlanInput => {
    const seeds = HOSTS.slice(0, r.hostCount).map((host) => ({ host }));
    const latencyByHost: Record<string, number> = {};
    const crawlDelayByHost: Record<string, number> = {};
    HOSTS.forEach((host, i) => {
      if (r.latencyOverrides[i] !== undefined) latencyByHost[host] = r.latencyOverrides[i]!;
      if (r.crawlDelays[i] !== undefined) crawlDelayByHost[host] = r.crawlDelays[i]!;
    });
    return {
      seeds,
      pages: r.perHost ? { perHost: r.pages } : { total: r.pages },
      ...(r.rate === undefined ? {} : { rate: r.rate }),
      ...(r.workers === undefined ? {} : { workers: r.workers }),
      delaySeconds: r.delaySeconds,
      delayFrom: r.delayFrom,
      latencySeconds: r.latencySeconds,
      latencyByHost,
      crawlDelayByHost,
      crawlDelayPolicy: r.crawlDelayPolicy,
      maxCrawlDelaySeconds: r.maxCrawlDelaySeconds,
      adaptive: r.adaptive,
      perHostConcurrency: r.perHostConcurrency,
      ...(r.machines === undefined ? {} : { machines: r.machines }),
    };
  });

const withPages = (input: PlanInput, n: number): PlanInput => ({
  ...input,
  pages: 'perHost' in input.pages ? { perHost: n } : { total: n },
});
const pagesOf = (input: PlanInput) =>
  'perHost' in input.pages ? input.pages.perHost : 'total' in input.pages ? input.pages.total : Number.NaN;

/** Every host's duration and the total, for a pointwise comparison. */
const durations = (input: PlanInput) => {
  const p = plan(input);
  return { total: p.totalSeconds, hosts: p.hosts.map((h) => h.seconds) };
};

function assertNotBelow(more: ReturnType<typeof durations>, less: ReturnType<typeof durations>): void {
  assert.ok(more.total >= less.total, `total ${more.total} < ${less.total}`);
  more.hosts.forEach((s, i) => assert.ok(s >= less.hosts[i]!, `host ${i}: ${s} < ${less.hosts[i]}`));
}

test('property: durations are non-decreasing in pages', () => {
  fc.assert(
    fc.property(inputs, fc.integer({ min: 0, max: 1_000_000 }), (input, extra) => {
      assertNotBelow(durations(withPages(input, pagesOf(input) + extra)), durations(input));
    }),
  );
});

test('property: durations are non-decreasing in the configured interval', () => {
  fc.assert(
    fc.property(inputs, fc.double({ min: 0, max: 120, noNaN: true }), (input, extra) => {
      const more = { ...input, delaySeconds: Math.min(86_400, input.delaySeconds! + extra) };
      assertNotBelow(durations(more), durations(input));
    }),
  );
});

test('property: durations are non-decreasing in latency', () => {
  fc.assert(
    fc.property(inputs, fc.double({ min: 0, max: 30, noNaN: true }), (input, extra) => {
      const latencyByHost = Object.fromEntries(Object.entries(input.latencyByHost!).map(([h, l]) => [h, l + extra]));
      const more = { ...input, latencySeconds: input.latencySeconds! + extra, latencyByHost };
      assertNotBelow(durations(more), durations(input));
    }),
  );
});

test('property: durations are non-decreasing in Crawl-delay', () => {
  fc.assert(
    fc.property(inputs, fc.double({ min: 0, max: 300, noNaN: true }), (input, extra) => {
      // Only hosts that stay on the same side of the cap: under `skip` a host leaving the plan shortens it.
      const cap = input.maxCrawlDelaySeconds!;
      const crawlDelayByHost = Object.fromEntries(
        Object.entries(input.crawlDelayByHost!).map(([h, d]) => [h, d > cap || d + extra <= cap ? d + extra : d]),
      );
      assertNotBelow(durations({ ...input, crawlDelayByHost }), durations(input));
    }),
  );
});

test('property: never below the politeness bound (⌈pages / lanes⌉ − 1) × interval for any planned host', () => {
  fc.assert(
    fc.property(inputs, (input) => {
      const p = plan(input);
      const lanes = p.input.perHostConcurrency;
      for (const h of p.hosts) {
        if (h.skipped || h.pages === 0) continue;
        const bound = (Math.ceil(h.pages / lanes) - 1) * h.intervalSeconds + h.latencySeconds;
        assert.ok(h.seconds >= bound * (1 - 1e-11), `${h.host}: ${h.seconds} < ${bound}`);
        assert.ok(p.totalSeconds >= h.seconds, `total ${p.totalSeconds} < ${h.host} ${h.seconds}`);
        assert.ok(h.intervalSeconds >= p.input.delaySeconds, `${h.host}: interval below the configured delay`);
      }
    }),
  );
});

test('property: never below the global bounds of the machine that sets the total', () => {
  fc.assert(
    fc.property(inputs, (input) => {
      const p = plan(input);
      assert.equal(
        p.totalSeconds,
        Math.max(p.bounds.hostSeconds, p.bounds.globalRateSeconds ?? 0, p.bounds.workersSeconds),
      );
      if (p.input.machines === null && p.input.rate !== null && p.totalPages > 0) {
        assert.ok(p.totalSeconds >= ((p.totalPages - 1) / p.input.rate) * (1 - 1e-11));
      }
    }),
  );
});

test('property: pages are conserved and every host is on exactly one machine', () => {
  fc.assert(
    fc.property(inputs, (input) => {
      const p = plan(input);
      const all = p.hosts.reduce((s, h) => s + h.pages, 0);
      assert.equal(p.totalPages + p.skippedPages, all);
      if ('total' in input.pages) assert.equal(all, input.pages.total);
      if (p.sharding) {
        const listed = p.sharding.perMachine.flatMap((m) => m.hosts).sort();
        assert.deepEqual(listed, p.hosts.map((h) => h.host).sort());
        assert.equal(
          p.sharding.perMachine.reduce((s, m) => s + m.pages, 0),
          p.totalPages,
        );
        assert.ok(p.sharding.imbalance >= 1 - 1e-9);
      }
    }),
  );
});

test('property: the plan is plain data with finite numbers', () => {
  fc.assert(
    fc.property(inputs, (input) => {
      const p = plan(input);
      assert.deepEqual(JSON.parse(JSON.stringify(p)), p);
      for (const h of p.hosts) {
        for (const n of [h.intervalSeconds, h.periodSeconds, h.pagesPerHour, h.seconds])
          assert.ok(Number.isFinite(n) && n >= 0);
      }
    }),
  );
});

test('property: tidy(x) is Number(x.toPrecision(12)), its fast path included', () => {
  // Decimals with up to 6 places take the fast path; float noise (0.1 + 0.2) and large or tiny numbers do not.
  const decimals = fc
    .tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 0, max: 8 }))
    .map(([m, e]) => m / 10 ** e);
  const noisy = fc.tuple(decimals, decimals).map(([a, b]) => a + b);
  fc.assert(
    fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), decimals, noisy), (x) => {
      assert.ok(Object.is(tidy(x), x === 0 ? 0 : Number(x.toPrecision(12))), `tidy(${x})`);
    }),
    { numRuns: 20_000 },
  );
});
