import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatPlanText } from '../../src/core/format/planText';
import { plan, type PlanInput, type PlanWarning, type PlanWarningCode } from '../../src/core/plan';

const A = [{ host: 'a.example' }];
const SHOP = [{ host: 'shop.test' }, { host: 'blog.test' }, { host: 'www.test' }];
const hosts = (n: number) => Array.from({ length: n }, (_, i) => ({ host: `h${i}.example` }));

interface WarningCase {
  /** Input that raises the warning. */
  raise: PlanInput;
  /** The warning exactly as expected. */
  expected: PlanWarning;
  /** A near miss that must not raise it. */
  nearMiss: PlanInput;
}

/** A Record so that a new warning code without a test is a type error. */
const CASES: Record<PlanWarningCode, WarningCase> = {
  'rate-exceeds-host-ceilings': {
    raise: { seeds: A, pages: { total: 100 }, rate: 2 },
    expected: {
      code: 'rate-exceeds-host-ceilings',
      message:
        'The target rate of 2 req/s is above the sum of the per-host ceilings (1 req/s over 1 host); the crawl can never reach it.',
    },
    nearMiss: { seeds: A, pages: { total: 100 }, rate: 1 },
  },
  'per-host-burst': {
    raise: { seeds: A, pages: { total: 100 }, perHostConcurrency: 4 },
    expected: {
      code: 'per-host-burst',
      message:
        '4 requests in flight per host: each host can see 4 requests at the same instant, a burst of 4× its configured rate. Keep 1 unless the server is known to absorb more.',
    },
    nearMiss: { seeds: A, pages: { total: 100 }, perHostConcurrency: 1 },
  },
  'crawl-delay-capped': {
    raise: { seeds: A, pages: { total: 100 }, crawlDelayByHost: { 'a.example': 60 } },
    expected: {
      code: 'crawl-delay-capped',
      message: 'Crawl-delay of 60 s is above the 30 s cap; planned at 30 s (policy cap).',
      host: 'a.example',
    },
    nearMiss: { seeds: A, pages: { total: 100 }, crawlDelayByHost: { 'a.example': 30 } },
  },
  'crawl-delay-host-skipped': {
    raise: { seeds: hosts(2), pages: { total: 100 }, crawlDelayByHost: { 'h1.example': 60 }, crawlDelayPolicy: 'skip' },
    expected: {
      code: 'crawl-delay-host-skipped',
      message:
        'Crawl-delay of 60 s is above the 30 s cap; the host is skipped (policy skip) and its 50 pages are not planned.',
      host: 'h1.example',
    },
    nearMiss: {
      seeds: hosts(2),
      pages: { total: 100 },
      crawlDelayByHost: { 'h1.example': 60 },
      crawlDelayPolicy: 'obey',
    },
  },
  'host-dominates': {
    // h1: robots.txt, 100 steps of 10.0013 s and a 0.50005 s answer = 1000.63005 s against h0's 100.63005 s:
    // 91% of the time and 9.9× the next host.
    raise: { seeds: hosts(2), pages: { perHost: 100 }, crawlDelayByHost: { 'h1.example': 10 } },
    expected: {
      code: 'host-dominates',
      message:
        "h1.example takes 91% of all hosts' crawl time and 9.9× as long as the next host (h0.example); the crawl ends when it does. More hosts or fewer pages from this one shorten the crawl.",
      host: 'h1.example',
    },
    // 150.63005 s against 100.63005 s: 60% of the time but under 2× the next host.
    nearMiss: { seeds: hosts(2), pages: { perHost: 100 }, crawlDelayByHost: { 'h1.example': 1.5 } },
  },
  'zero-delay': {
    raise: { seeds: A, pages: { total: 100 }, delaySeconds: 0 },
    expected: {
      code: 'zero-delay',
      message:
        'A delay of 0 s imposes no wait between requests to a host; it is not a licence for unbounded concurrency (1 host will be paced only by response time).',
    },
    nearMiss: { seeds: A, pages: { total: 100 }, delaySeconds: 0.1 },
  },
  'deadline-unreachable': {
    raise: { seeds: A, pages: { total: 1_000_000 }, deadlineSeconds: 2 * 86_400 },
    expected: {
      code: 'deadline-unreachable',
      message: 'The crawl takes 11 d 14 h 8 m, longer than the 2 d deadline by 9 d 14 h 8 m.',
    },
    nearMiss: { seeds: A, pages: { total: 1_000_000 }, deadlineSeconds: 1_001_300.50005 },
  },
  'latency-exceeds-interval': {
    raise: { seeds: A, pages: { total: 100 }, latencySeconds: 2 },
    expected: {
      code: 'latency-exceeds-interval',
      message:
        'Responses take 2 s, longer than the 1 s interval: with requests measured start to start and 1 request in flight, the host gets one page every 2 s per lane, 50% of the configured rate.',
      host: 'a.example',
    },
    // Measured from the end of a response, latency always adds to the interval: that is the reading, not a surprise.
    nearMiss: { seeds: A, pages: { total: 100 }, latencySeconds: 2, delayFrom: 'end' },
  },
  'workers-exceed-hosts': {
    raise: { seeds: A, pages: { total: 100 }, workers: 4 },
    expected: {
      code: 'workers-exceed-hosts',
      message: '4 workers, more than can ever be busy (at most 1 in flight with 1 host × 1 per host, 3 idle).',
    },
    // The default worker count is no claim about the user's set-up, so it is not warned about.
    nearMiss: { seeds: A, pages: { total: 100 } },
  },
  'hosts-without-pages': {
    raise: { seeds: hosts(3), pages: { total: 2 } },
    expected: {
      code: 'hosts-without-pages',
      message: '1 of 3 hosts gets no pages: the page total is smaller than the number of hosts.',
    },
    nearMiss: { seeds: hosts(3), pages: { total: 3 } },
  },
  'pages-unknown': {
    raise: {
      seeds: hosts(3),
      pages: {
        byHost: { 'h0.example': 10 },
        unknown: {
          'h1.example': { code: 'http-status', reason: '429: the sitemap was not served; 3 attempts' },
          'h2.example': { code: 'no-sitemap', reason: 'no sitemap' },
        },
      },
    },
    expected: {
      code: 'pages-unknown',
      message:
        "2 hosts' pages are unknown: h1.example (429: the sitemap was not served; 3 attempts) and h2.example (no sitemap). They are left out of the plan: its total is a lower bound, for the other host only. Give each a number of pages to plan them.",
    },
    // A number for every host (its own, or the one for the others) makes them known.
    nearMiss: {
      seeds: hosts(3),
      pages: {
        byHost: { 'h0.example': 10, 'h1.example': 5 },
        otherwise: 0,
        unknown: {
          'h1.example': { code: 'http-status', reason: '429' },
          'h2.example': { code: 'no-sitemap', reason: 'no sitemap' },
        },
      },
    },
  },
  'all-hosts-skipped': {
    raise: { seeds: A, pages: { total: 100 }, crawlDelayByHost: { 'a.example': 60 }, crawlDelayPolicy: 'skip' },
    expected: {
      code: 'all-hosts-skipped',
      message: 'Every host is skipped for its Crawl-delay: nothing is planned. Raise the cap or use the cap policy.',
    },
    nearMiss: {
      seeds: hosts(2),
      pages: { total: 100 },
      crawlDelayByHost: { 'h0.example': 60 },
      crawlDelayPolicy: 'skip',
    },
  },
  'shard-imbalance': {
    raise: { seeds: A, pages: { total: 100 }, machines: 2 },
    expected: {
      code: 'shard-imbalance',
      message:
        'The slowest of 2 machines takes 2× the mean machine time (hosts are assigned by hash, not by size); 1 machine has nothing to crawl.',
    },
    // h0 and h1 hash to different machines of 2 (fnv1a32 mod 2).
    nearMiss: { seeds: [{ host: 'a.example' }, { host: 'b.example' }], pages: { perHost: 100 }, machines: 2 },
  },
  'override-for-unknown-host': {
    raise: { seeds: A, pages: { total: 100 }, latencyByHost: { 'b.example': 1 } },
    expected: {
      code: 'override-for-unknown-host',
      message: 'A latency was given for b.example, which is not the host of any seed.',
      host: 'b.example',
    },
    nearMiss: { seeds: A, pages: { total: 100 }, latencyByHost: { 'A.Example': 1 } },
  },
  'shared-address': {
    raise: {
      seeds: SHOP,
      pages: { perHost: 10 },
      addressesByHost: { 'shop.test': ['127.0.0.5'], 'blog.test': ['127.0.0.5'], 'www.test': ['127.0.0.5'] },
    },
    expected: {
      code: 'shared-address',
      message:
        '3 hosts on 127.0.0.5 (loopback): shop.test, blog.test and www.test. 127.0.0.5 gets up to 3 requests per 1 s from 3 host queues, 3× what one host is allowed. --politeness-by ip plans them as one unit.',
    },
    nearMiss: {
      seeds: SHOP,
      pages: { perHost: 10 },
      addressesByHost: { 'shop.test': ['127.0.0.5'], 'blog.test': ['127.0.0.6'], 'www.test': ['127.0.0.7'] },
    },
  },
  'shared-domain': {
    raise: {
      seeds: [{ host: 'shop.example.com' }, { host: 'www.example.com' }],
      pages: { perHost: 10 },
      delaySeconds: 2,
    },
    expected: {
      code: 'shared-domain',
      message:
        '2 hosts in example.com: shop.example.com and www.example.com. If one server answers for example.com, it gets up to 2 requests per 2 s from 2 host queues, 2× what one host is allowed.',
    },
    nearMiss: {
      seeds: [{ host: 'a.co.uk' }, { host: 'b.co.uk' }, { host: 'x.github.io' }, { host: 'y.github.io' }],
      pages: { perHost: 10 },
    },
  },
};

for (const [code, c] of Object.entries(CASES) as Array<[PlanWarningCode, WarningCase]>) {
  test(`warning ${code} is raised with its message and host`, () => {
    const found = plan(c.raise).warnings.filter((w) => w.code === code);
    assert.deepEqual(found, [c.expected]);
  });
  test(`warning ${code} is not raised by a near miss`, () => {
    assert.deepEqual(
      plan(c.nearMiss).warnings.filter((w) => w.code === code),
      [],
    );
  });
}

test('warning codes are kebab-case', () => {
  for (const code of Object.keys(CASES)) assert.match(code, /^[a-z]+(-[a-z]+)*$/);
});

test('a skipped host raises no latency warning and a zero delay no latency warning', () => {
  const skipped = plan({
    seeds: A,
    pages: { total: 10 },
    latencySeconds: 100,
    crawlDelayByHost: { 'a.example': 60 },
    crawlDelayPolicy: 'skip',
  });
  assert.deepEqual(
    skipped.warnings.map((w) => w.code),
    ['crawl-delay-host-skipped', 'all-hosts-skipped'],
  );
  const zero = plan({ seeds: A, pages: { total: 10 }, delaySeconds: 0 });
  assert.deepEqual(
    zero.warnings.map((w) => w.code),
    ['zero-delay'],
  );
  assert.equal(zero.hosts[0]!.intervalSource, 'latency');
});

test('host-dominates only names the host that sets the makespan', () => {
  // h1 would dominate the hosts' time, but a global rate of 0.1 req/s sets the makespan.
  const p = plan({ seeds: hosts(2), pages: { perHost: 100 }, crawlDelayByHost: { 'h1.example': 10 }, rate: 0.1 });
  assert.equal(p.bindingConstraint, 'global-rate');
  assert.deepEqual(
    p.warnings.filter((w) => w.code === 'host-dominates'),
    [],
  );
});

test('sharded ceiling and idle-worker warnings name the machines', () => {
  const p = plan({
    seeds: [{ host: 'a.example' }, { host: 'b.example' }],
    pages: { perHost: 10 },
    machines: 2,
    rate: 5,
    workers: 3,
  });
  const byCode = new Map(p.warnings.map((w) => [w.code, w.message]));
  assert.equal(
    byCode.get('rate-exceeds-host-ceilings'),
    'The target rate of 5 req/s per machine is above the sum of the per-host ceilings on 2 of 2 machines (machine 0: 1 req/s over 1 host; machine 1: 1 req/s over 1 host); the crawl can never reach it.',
  );
  assert.equal(
    byCode.get('workers-exceed-hosts'),
    '3 workers per machine, more than can ever be busy on 2 of 2 machines (machine 0: at most 1 in flight with 1 host × 1 per host, 2 idle; machine 1: at most 1 in flight with 1 host × 1 per host, 2 idle).',
  );
});

test('warnings come in a stable order: overrides, per host in host order, then the whole crawl', () => {
  const p = plan({
    seeds: hosts(3),
    pages: { perHost: 100 },
    latencyByHost: { 'x.example': 1, 'h2.example': 3 },
    crawlDelayByHost: { 'h0.example': 60 },
    perHostConcurrency: 2,
    deadlineSeconds: 60,
  });
  assert.deepEqual(
    p.warnings.map((w) => [w.code, w.host ?? null]),
    [
      ['override-for-unknown-host', 'x.example'],
      ['crawl-delay-capped', 'h0.example'],
      ['latency-exceeds-interval', 'h2.example'],
      ['per-host-burst', null],
      ['host-dominates', 'h0.example'],
      ['deadline-unreachable', null],
    ],
  );
});

test('shared-address: a Cloudflare edge says grouping there would be too cautious, and why', () => {
  const found = plan({
    seeds: [{ host: 'a.example' }, { host: 'b.example' }],
    pages: { perHost: 10 },
    addressesByHost: { 'a.example': ['104.16.132.229'], 'b.example': ['104.16.132.229', '2606:4700::6810:84e5'] },
  }).warnings.filter((w) => w.code === 'shared-address');
  assert.equal(found.length, 1);
  assert.match(found[0]!.message, /^2 hosts on 104\.16\.132\.229 \(a Cloudflare edge\): a\.example and b\.example\. /);
  assert.match(
    found[0]!.message,
    /Grouping by this address would be too cautious: a CDN edge answers for many unrelated sites/,
  );
});

test('shared-address: chained addresses make one group; intervals differ; a private address is marked', () => {
  const p = plan({
    seeds: [{ host: 'a.test' }, { host: 'b.test' }, { host: 'c.test' }, { host: 'd.test' }],
    pages: { perHost: 10 },
    crawlDelayByHost: { 'c.test': 4 },
    addressesByHost: {
      'a.test': ['10.0.0.1'],
      'b.test': ['10.0.0.1', '10.0.0.2'],
      'c.test': ['10.0.0.2'],
      'd.test': ['8.8.8.8'],
    },
  });
  assert.deepEqual(p.sharedServers.groups, [
    {
      kind: 'address',
      key: '10.0.0.1, 10.0.0.2',
      addresses: [
        { address: '10.0.0.1', class: 'private' },
        { address: '10.0.0.2', class: 'private' },
      ],
      hosts: ['a.test', 'b.test', 'c.test'],
      worstCase: { requests: 2.25, perSeconds: 1 },
      perHostRequests: 1,
    },
  ]);
  assert.equal(
    p.warnings.find((w) => w.code === 'shared-address')?.message,
    '3 hosts on 10.0.0.1, 10.0.0.2 (private network): a.test, b.test and c.test. 10.0.0.1, 10.0.0.2 gets up to 2.25 requests per 1 s from 3 host queues, 2.25× what one host is allowed. --politeness-by ip plans them as one unit.',
  );
  assert.equal(p.sharedServers.addressesChecked, true);
});

test('shared servers: not checked without addresses; unresolved hosts and IP literals', () => {
  const offline = plan({ seeds: SHOP, pages: { perHost: 10 } });
  assert.deepEqual(offline.sharedServers, { addressesChecked: false, unresolved: [], groups: [] });
  const p = plan({
    seeds: [{ host: 'gone.test' }, { host: '127.0.0.5:8080' }, { host: 'shop.test' }],
    pages: { perHost: 10 },
    addressesByHost: { 'shop.test': ['127.0.0.5'] },
    unresolvedHosts: { 'gone.test': 'no such host' },
  });
  assert.deepEqual(p.sharedServers.unresolved, [{ host: 'gone.test', reason: 'no such host' }]);
  assert.deepEqual(
    p.sharedServers.groups.map((g) => g.hosts),
    [['127.0.0.5:8080', 'shop.test']],
  );
});

test('shared servers: a zero delay has no worst case in requests; many groups are counted past the first ten', () => {
  const zero = plan({
    seeds: SHOP,
    pages: { perHost: 10 },
    delaySeconds: 0,
    addressesByHost: { 'shop.test': ['127.0.0.5'], 'blog.test': ['127.0.0.5'], 'www.test': ['127.0.0.5'] },
  });
  assert.match(
    zero.warnings.find((w) => w.code === 'shared-address')!.message,
    /127\.0\.0\.5 gets requests from 3 host queues with no delay between them: only response times pace them\. --politeness-by ip plans them as one unit\.$/,
  );
  const seeds = Array.from({ length: 30 }, (_, i) => ({ host: `h${i}.test` }));
  const addressesByHost = Object.fromEntries(seeds.map((s, i) => [s.host, [`10.0.0.${i >> 1}`]]));
  const many = plan({ seeds, pages: { perHost: 1 }, addressesByHost });
  assert.equal(many.sharedServers.groups.length, 15);
  const found = many.warnings.filter((w) => w.code === 'shared-address');
  assert.equal(found.length, 11);
  assert.equal(
    found[10]!.message,
    "5 more groups of hosts on one address (10 hosts in all); the plan's sharedServers lists them.",
  );
});

test('plan text: shared servers not checked, or the hosts that did not resolve', () => {
  const seeds = [{ host: 'a.test' }, { host: 'b.test' }];
  assert.match(
    formatPlanText(plan({ seeds, pages: { perHost: 5 } }), 0, false),
    /\nShared servers: addresses not looked up, so hosts on one server were not checked \(only registered domains were\)\.\n/,
  );
  assert.doesNotMatch(
    formatPlanText(plan({ seeds: seeds.slice(0, 1), pages: { perHost: 5 } }), 0, false),
    /Shared servers/,
  );
  const text = formatPlanText(
    plan({
      seeds,
      pages: { perHost: 5 },
      addressesByHost: { 'a.test': ['127.0.0.5'] },
      unresolvedHosts: { 'b.test': 'no such host' },
    }),
    0,
    false,
  );
  assert.match(text, /\nShared servers: 1 host did not resolve and is planned as given: b\.test \(no such host\)\.\n/);
});

test('addressesByHost: an address not in canonical form is a clear input problem', () => {
  assert.throws(
    () => plan({ seeds: SHOP, pages: { perHost: 1 }, addressesByHost: { 'shop.test': ['0:0::1'] } }),
    /addressesByHost\[shop\.test\]: "0:0::1" is not an IP address in canonical form/,
  );
});
