/**
 * Politeness units in the plan (docs/planning.md#politeness-units): under `politenessBy` ip or domain, hosts on
 * one address (or in one registered domain) are one queue at the largest of their intervals; the makespan, the
 * binding constraint, machines, the deadline and the document work per unit; `host` plans exactly as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { estimateDocument, plan, type PlanInput } from '../../src/core/plan';
import { planToRun, PlanDocumentError } from '../../src/core/plan/planToRun';
import { formatPlanText } from '../../src/core/format/planText';
import { validateSeeds } from '../../src/core/seeds';
import { calibration, hostCalibration } from '../helpers/calibration';

const SHOP = ['a.test', 'b.test', 'c.test'];
const ON_ONE = Object.fromEntries(SHOP.map((h) => [h, ['127.0.0.5']]));

/** Three hosts on 127.0.0.5 with Crawl-delays 1 s, 2 s and none, at a 0.5 s delay, 100 pages each. */
function three(extra: Partial<PlanInput> = {}): PlanInput {
  return {
    seeds: SHOP.map((host) => ({ host })),
    pages: { perHost: 100 },
    delaySeconds: 0.5,
    crawlDelayByHost: { 'a.test': 1, 'b.test': 2 },
    addressesByHost: ON_ONE,
    ...extra,
  };
}

test('a unit of 3 hosts (Crawl-delays 1, 2 and none, delay 0.5 s) keeps 2 s for all and sums their pages', () => {
  const p = plan(three({ politenessBy: 'ip' }));
  assert.equal(p.input.politenessBy, 'ip');
  assert.deepEqual(
    p.hosts.map((h) => [h.host, h.unit, h.intervalSeconds]),
    [
      ['a.test', '127.0.0.5', 1],
      ['b.test', '127.0.0.5', 2],
      ['c.test', '127.0.0.5', 0.5],
    ],
  );
  // 3 robots.txt and 300 pages, 303 requests, 302 gaps of 2 s + 1.3 ms, the last answered 0.5 s + 0.05 ms later.
  assert.deepEqual(p.units, [
    {
      unit: '127.0.0.5',
      hosts: SHOP,
      pages: 300,
      requests: 303,
      intervalSeconds: 2,
      intervalHost: 'b.test',
      intervalSource: 'crawl-delay',
      periodSeconds: 2,
      pagesPerHour: 1800,
      seconds: 604.89265,
      faultSeconds: 0,
    },
  ]);
  assert.equal(p.totalSeconds, 604.89265);
  assert.equal(p.bounds.hostSeconds, 604.89265);
  assert.equal(p.bindingConstraint, 'crawl-delay');
  assert.equal(p.bindingHost, 'b.test');
  assert.equal(p.bindingUnit, '127.0.0.5');
  assert.equal(p.totalPages, 300);

  // The same hosts planned apart: the slowest host alone, 1 robots.txt and 100 pages at 2 s.
  const apart = plan(three());
  assert.equal(apart.totalSeconds, 200.63005);
  assert.deepEqual(apart.units, []);
  assert.equal(apart.bindingUnit, 'b.test');
  assert.ok(apart.hosts.every((h) => h.unit === undefined));
});

test('the binding constraint names the unit and its size, and the member whose interval it keeps', () => {
  const p = plan(three({ politenessBy: 'ip' }));
  assert.equal(
    p.bindingDescription,
    "127.0.0.5 (3 hosts) limits the crawl: its hosts are one politeness unit (by ip), and b.test's Crawl-delay of 2 s, " +
      "measured from start to start, gives the unit one request every 2 s (1,800 pages/h), so its hosts' robots.txt and " +
      '300 pages take 10 m 5 s.',
  );
  const text = formatPlanText(p, 0, false);
  assert.match(text, /^Limited by: Crawl-delay at 127\.0\.0\.5 \(3 hosts\)$/m);
  assert.match(text, /^Lower bounds: slowest unit 10 m 5 s,/m);
  assert.match(
    text,
    /^ {2}3 hosts on 127\.0\.0\.5 \(a\.test, b\.test, c\.test\): one request every 2 s \(crawl-delay of b\.test\), 300 pages, 10 m 5 s$/m,
  );
  assert.match(text, /^Host {4}Unit {7}Pages/m);
  // The finding says the address is now planned as one unit.
  assert.equal(
    p.warnings.find((w) => w.code === 'shared-address')?.message,
    '3 hosts on 127.0.0.5 (loopback): a.test, b.test and c.test. Planned as one politeness unit: 127.0.0.5 gets up to 1 request per 2 s, the interval of its slowest member.',
  );
  assert.deepEqual(p.sharedServers.groups[0]?.worstCase, { requests: 1, perSeconds: 2 });
  assert.equal(p.sharedServers.groups[0]?.unit, '127.0.0.5');
});

test('host (the default, or asked for) plans exactly as before, with or without addresses', () => {
  const input = three();
  assert.deepEqual(plan({ ...input, politenessBy: 'host' }), plan(input));
  // ip without a shared address: every host its own unit, the same figures, each host's `unit` itself.
  const alone = plan({ ...input, addressesByHost: { 'a.test': ['10.0.0.1'], 'b.test': ['10.0.0.2'] } });
  const byIp = plan({
    ...input,
    addressesByHost: { 'a.test': ['10.0.0.1'], 'b.test': ['10.0.0.2'] },
    politenessBy: 'ip',
  });
  assert.deepEqual(byIp.units, []);
  assert.equal(byIp.totalSeconds, alone.totalSeconds);
  assert.deepEqual(
    byIp.hosts.map((h) => [h.unit, h.seconds]),
    alone.hosts.map((h) => [h.host, h.seconds]),
  );
  assert.equal(byIp.bindingDescription, alone.bindingDescription);
});

test('domain: one registered domain is one unit; a.co.uk and b.co.uk, x.github.io and y.github.io are apart', () => {
  const hosts = ['shop.example.com', 'www.example.com', 'a.co.uk', 'b.co.uk', 'x.github.io', 'y.github.io'];
  const p = plan({ seeds: hosts.map((host) => ({ host })), pages: { perHost: 10 }, politenessBy: 'domain' });
  assert.deepEqual(
    p.hosts.map((h) => h.unit),
    ['example.com', 'example.com', 'a.co.uk', 'b.co.uk', 'x.github.io', 'y.github.io'],
  );
  assert.deepEqual(
    p.units.map((u) => [u.unit, u.hosts, u.pages, u.requests]),
    [['example.com', ['shop.example.com', 'www.example.com'], 20, 22]],
  );
  // 22 requests at 1 s: 21 gaps of 1.0013 s and the last answer.
  assert.equal(p.units[0]!.seconds, 21.52735);
  assert.equal(p.totalSeconds, 21.52735);
  assert.equal(
    p.warnings.find((w) => w.code === 'shared-domain')?.message,
    '2 hosts in example.com: shop.example.com and www.example.com. Planned as one politeness unit: example.com gets up to 1 request per 1 s, the interval of its slowest member.',
  );
  // No address was looked up: ip groups nothing, and domain needs no lookup.
  assert.deepEqual(
    plan({ seeds: hosts.map((host) => ({ host })), pages: { perHost: 10 }, politenessBy: 'ip' }).units,
    [],
  );
});

test('per-host concurrency applies to the unit: 2 lanes for the whole unit', () => {
  const one = plan(three({ politenessBy: 'ip' }));
  const two = plan(three({ politenessBy: 'ip', perHostConcurrency: 2 }));
  assert.ok(two.units[0]!.seconds < one.units[0]!.seconds);
  assert.equal(two.units[0]!.pagesPerHour, 3600);
  // Each member's robots.txt first, then its 100 pages on 2 lanes: 152 gaps of 2.0013 s and the last answer.
  assert.equal(two.units[0]!.seconds, 304.69765);
});

test('machines: a unit goes to one machine, by the hash of its name; the global bounds still count every request', () => {
  const p = plan({
    ...three({ politenessBy: 'ip' }),
    seeds: [...SHOP, 'd.test'].map((host) => ({ host })),
    machines: 4,
  });
  const machines = new Set(p.hosts.filter((h) => h.unit === '127.0.0.5').map((h) => h.machine));
  assert.equal(machines.size, 1);
  assert.equal(p.units[0]!.machine, [...machines][0]);
  const m = p.sharding!.perMachine[p.units[0]!.machine!]!;
  assert.deepEqual(m.hosts, SHOP);
  assert.equal(m.seconds, 604.89265);
  assert.equal(m.bindingUnit, '127.0.0.5');
  assert.equal(p.bindingMachine, p.units[0]!.machine);
});

test('deadline: the earliest finish is the unit alone; its members are capped by one share and the cap meets it', () => {
  const p = plan(
    three({ politenessBy: 'ip', seeds: [...SHOP, 'd.test'].map((host) => ({ host })), deadlineSeconds: 300 }),
  );
  const d = p.deadline!;
  assert.equal(d.met, false);
  assert.equal(d.earliestSeconds, 604.89265);
  assert.deepEqual(d.blockingHosts, SHOP);
  // 3 robots.txt and 3 × 49 pages: 149 gaps of 2.0013 s and the last answer, 298.69375 s; 50 each would not fit.
  assert.deepEqual(d.pagesByHost, { 'd.test': 598, 'a.test': 49, 'b.test': 49, 'c.test': 49 });
  const cap = d.options.find((o) => o.kind === 'cap')!;
  assert.deepEqual(cap.change.pagesByHost, { 'a.test': 49, 'b.test': 49, 'c.test': 49 });
  assert.ok(cap.totalSeconds <= 300);
  assert.equal(cap.pages, 247);
  const checked = plan({
    ...three({ politenessBy: 'ip' }),
    pages: { byHost: { 'a.test': 50, 'b.test': 49, 'c.test': 49 } },
  });
  assert.ok(checked.totalSeconds > 300, 'one page more does not fit');
  const drop = d.options.find((o) => o.kind === 'drop')!;
  assert.deepEqual(drop.change.dropHosts, SHOP);
  assert.match(
    formatPlanText(p, 0, false),
    /Earliest finish possible: 10 m 5 s, 127\.0\.0\.5 \(3 hosts\) as one unit at its interval \(the politeness bound\)\./,
  );
});

test('a CDN edge under ip is planned as asked, and the finding says grouping there is too cautious', () => {
  const p = plan({
    seeds: [{ host: 'a.example' }, { host: 'b.example' }],
    pages: { perHost: 10 },
    addressesByHost: { 'a.example': ['104.16.132.229'], 'b.example': ['104.16.132.229'] },
    politenessBy: 'ip',
  });
  assert.deepEqual(p.units[0]!.hosts, ['a.example', 'b.example']);
  const found = p.warnings.find((w) => w.code === 'shared-address')!.message;
  assert.match(found, /Planned as one politeness unit: 104\.16\.132\.229 gets up to 1 request per 1 s/);
  assert.match(found, /Grouping by this address is too cautious: a CDN edge answers for many unrelated sites/);
  assert.match(found, /--politeness-by host plans them apart\.$/);
});

test('an IP-literal seed joins the names that resolve to its address: one server, one unit', () => {
  const p = plan({
    seeds: [{ host: '127.0.0.5:8080' }, { host: 'a.test' }, { host: 'b.test' }],
    pages: { perHost: 10 },
    addressesByHost: { 'a.test': ['127.0.0.5'], 'b.test': ['127.0.0.5'] },
    politenessBy: 'ip',
  });
  assert.deepEqual(
    p.hosts.map((h) => h.unit),
    ['127.0.0.5', '127.0.0.5', '127.0.0.5'],
  );
});

test('the estimate document carries politenessBy and the units; planToRun reads politenessBy back', () => {
  const { seeds } = validateSeeds(SHOP.map((h, i) => ({ text: `https://${h}/`, line: i + 1 })));
  const p = plan({ ...three({ politenessBy: 'ip' }), seeds });
  const doc = JSON.parse(JSON.stringify(estimateDocument(p))) as Record<string, unknown> & {
    settings: Record<string, unknown>;
  };
  assert.equal(doc.settings.politenessBy, 'ip');
  assert.deepEqual(doc.units, p.units);
  assert.equal(doc.bindingUnit, '127.0.0.5');
  assert.deepEqual(
    (doc.hosts as Array<{ unit: string }>).map((h) => h.unit),
    ['127.0.0.5', '127.0.0.5', '127.0.0.5'],
  );
  const run = planToRun(doc);
  assert.equal(run.politenessBy, 'ip');
  assert.deepEqual(run.crawlDelayByHost, { 'a.test': 1, 'b.test': 2 });
  // A document from before the setting: host. A value it does not know: refused, saying which.
  const { politenessBy: _gone, ...older } = doc.settings;
  assert.equal(planToRun({ ...doc, settings: older }).politenessBy, 'host');
  assert.throws(
    () => planToRun({ ...doc, settings: { ...doc.settings, politenessBy: 'ASN' } }),
    (err: unknown) =>
      err instanceof PlanDocumentError && err.message === 'settings.politenessBy: "ASN" is not one of host, ip, domain',
  );
});

test("calibrated: a member's measured answers and faults count in its unit, at the unit's interval", () => {
  const cal = calibration([hostCalibration('c.test', { samples: [0.1, 0.2, 0.3], rate429: 0.1, ra: 5, every: true })]);
  const plain = plan(three({ politenessBy: 'ip' }));
  const calibrated = plan(three({ politenessBy: 'ip', calibration: cal }));
  const u = calibrated.units[0]!;
  assert.ok(u.faultSeconds > 0, 'the 429s of c.test and their 5 s pauses');
  assert.ok(u.requests > plain.units[0]!.requests, 'their retries');
  assert.ok(u.seconds > plain.units[0]!.seconds);
  assert.equal(calibrated.totalSeconds, u.seconds);
  assert.equal(u.intervalHost, 'b.test');
  assert.match(calibrated.bindingDescription, /of it for the faults the test crawl measured\.$/);
});

test('property: grouping never plans a crawl faster, and a unit keeps the largest interval and all the pages', () => {
  const hosts = ['a.test', 'b.test', 'c.test', 'd.test', 'e.test'];
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: 3 }), { minLength: hosts.length, maxLength: hosts.length }),
      fc.array(fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }), {
        minLength: hosts.length,
        maxLength: hosts.length,
      }),
      fc.array(fc.integer({ min: 0, max: 50 }), { minLength: hosts.length, maxLength: hosts.length }),
      fc.integer({ min: 1, max: 3 }),
      fc.constantFrom('start', 'end') as fc.Arbitrary<'start' | 'end'>,
      (addr, delays, pages, lanes, delayFrom) => {
        const input: PlanInput = {
          seeds: hosts.map((host) => ({ host })),
          pages: { byHost: Object.fromEntries(hosts.map((h, i) => [h, pages[i]!])) },
          crawlDelayByHost: Object.fromEntries(
            hosts.flatMap((h, i) => (delays[i] === undefined ? [] : [[h, delays[i]!]])),
          ),
          addressesByHost: Object.fromEntries(hosts.map((h, i) => [h, [`10.0.0.${addr[i]}`]])),
          perHostConcurrency: lanes,
          delayFrom,
        };
        const apart = plan(input);
        const grouped = plan({ ...input, politenessBy: 'ip' });
        assert.ok(grouped.totalSeconds >= apart.totalSeconds - 1e-9);
        assert.equal(grouped.totalPages, apart.totalPages);
        for (const u of grouped.units) {
          const members = grouped.hosts.filter((h) => h.unit === u.unit);
          assert.deepEqual(
            members.map((h) => h.host),
            u.hosts,
          );
          const active = members.filter((h) => h.pages > 0);
          assert.equal(
            u.pages,
            active.reduce((s, h) => s + h.pages, 0),
          );
          assert.equal(u.intervalSeconds, Math.max(0, ...active.map((h) => h.intervalSeconds)));
          for (const h of active) assert.ok(u.seconds >= h.seconds - 1e-9, `${u.unit} ≥ ${h.host} alone`);
        }
      },
    ),
    { numRuns: 200 },
  );
});
