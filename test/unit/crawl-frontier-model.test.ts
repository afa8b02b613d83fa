/**
 * Property test: the frontier against a reference model of the same rules. The model keeps each host's
 * queue as a plain array and answers every question by scanning every host and every item (O(n) per
 * step); the frontier keeps deques, heaps and two budget heaps. Random sequences of enqueue, take, end,
 * pause, drop, rate changes, budget changes and removeWhere must give the same item starting on the same
 * host at the same time, the same next-ready time and the same counts, step by step.
 *
 * Hosts come in politeness units (docs/how-it-works.md#politeness-units): a unit of one host is the case
 * without grouping; a unit of several shares its slots, its last start and end, its pause, its rate and its
 * bucket.
 *
 * The rules the model states:
 * - a unit may start when it has a free slot and a member that is not dropped with an item that may start;
 * - an item may start when it is exempt or the budget is open, and its notBefore (0 or less counts as 0)
 *   has passed;
 * - the unit's ready time is max(its previous start + interval, its previous end + interval under the end
 *   reading, paused until, next token time, the earliest notBefore of an item of a member that may start);
 * - the unit with the earliest ready time goes first; on a tie, the one that has had startable work
 *   (under the budget's reading) for longest;
 * - within the unit, the member whose earliest startable item is earliest goes, where an item whose
 *   notBefore had passed when its member last started from its queue counts as 0 (it is due); on a tie, the
 *   one that has had startable work, or last started, longest ago;
 * - it starts the first item in its queue order (front items before, back items after everything queued)
 *   whose notBefore has passed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Frontier, intervalMs, type HostSlot } from '../../src/core/crawl/frontier';
import { HOST_RATE_DEFAULTS, HostRate } from '../../src/core/politeness/hostRate';
import { TokenBucket } from '../../src/core/politeness/tokenBucket';

interface Item {
  id: number;
  notBefore: number;
  exempt: boolean;
  /** Its notBefore had passed when its host last started from its queue: it counts as 0 in the ranking. */
  due?: boolean;
}

interface ModelUnit {
  name: string;
  inFlight: number;
  lastStartAt: number | undefined;
  lastEndAt: number | undefined;
  pausedUntil: number;
  rate: HostRate;
  bucket: TokenBucket | undefined;
  members: ModelHost[];
  /** When the unit last came to have startable work, per budget reading (the tie-break). */
  since: { open: number | undefined; closed: number | undefined };
}

interface ModelHost {
  name: string;
  unit: ModelUnit;
  queue: Item[];
  dropped: boolean;
  /** When the host last came to have startable work or last started, per budget reading (the tie-break in its unit). */
  since: { open: number | undefined; closed: number | undefined };
}

interface Config {
  delayFrom: 'start' | 'end';
  perHostConcurrency: number;
}

const readingOf = (open: boolean): 'open' | 'closed' => (open ? 'open' : 'closed');

/** The rules, written the obvious way. */
class Model {
  readonly hosts: ModelHost[] = [];
  readonly units: ModelUnit[] = [];
  open = true;
  private sinceCounter = 0;

  constructor(private readonly config: Config) {}

  /** A host's earliest startable item under a budget reading (a due item counts as 0), or undefined. */
  earliest(h: ModelHost, open: boolean): number | undefined {
    if (h.dropped) return undefined;
    const startable = h.queue.filter((item) => open || item.exempt);
    if (startable.length === 0) return undefined;
    return Math.min(...startable.map((item) => (item.due ? 0 : Math.max(0, item.notBefore))));
  }

  /** Every rule of the unit but its items' own times; undefined when it has no free slot. */
  base(u: ModelUnit): number | undefined {
    if (u.inFlight >= this.config.perHostConcurrency) return undefined;
    const interval = intervalMs(u.rate.intervalSeconds);
    const limits = [u.pausedUntil];
    if (u.lastStartAt !== undefined) limits.push(u.lastStartAt + interval);
    if (this.config.delayFrom === 'end' && u.lastEndAt !== undefined) limits.push(u.lastEndAt + interval);
    if (u.bucket) limits.push(u.bucket.nextTokenAt());
    return Math.max(...limits);
  }

  unitReadyAt(u: ModelUnit, open: boolean): number | undefined {
    const base = this.base(u);
    const earliest = u.members.map((h) => this.earliest(h, open)).filter((e): e is number => e !== undefined);
    if (base === undefined || earliest.length === 0) return undefined;
    return Math.max(base, Math.min(...earliest));
  }

  /** The host's own ready time: its unit's rules and its own earliest item. */
  readyAt(h: ModelHost, open: boolean): number | undefined {
    const base = this.base(h.unit);
    const earliest = this.earliest(h, open);
    return base === undefined || earliest === undefined ? undefined : Math.max(base, earliest);
  }

  /** Records which units and hosts have just come to have startable work (call after every operation). */
  sync(): void {
    for (const u of this.units) {
      for (const open of [true, false]) {
        const reading = readingOf(open);
        if (this.unitReadyAt(u, open) === undefined) u.since[reading] = undefined;
        else u.since[reading] ??= this.sinceCounter++;
      }
    }
    for (const h of this.hosts) {
      for (const open of [true, false]) {
        const reading = readingOf(open);
        if (this.earliest(h, open) === undefined) h.since[reading] = undefined;
        else h.since[reading] ??= this.sinceCounter++;
      }
    }
  }

  /** The unit that goes next and its ready time. */
  top(): { unit: ModelUnit; at: number } | undefined {
    let best: { unit: ModelUnit; at: number; since: number } | undefined;
    for (const unit of this.units) {
      const at = this.unitReadyAt(unit, this.open);
      if (at === undefined) continue;
      const since = unit.since[readingOf(this.open)]!;
      if (!best || at < best.at || (at === best.at && since < best.since)) best = { unit, at, since };
    }
    return best;
  }

  take(now: number): { host: ModelHost; item: Item; previousStartAt: number | undefined } | undefined {
    const top = this.top();
    if (!top || top.at > now) return undefined;
    const u = top.unit;
    const reading = readingOf(this.open);
    let h: ModelHost | undefined;
    let best: { earliest: number; since: number } | undefined;
    for (const m of u.members) {
      const earliest = this.earliest(m, this.open);
      if (earliest === undefined) continue;
      const since = m.since[reading]!;
      if (!best || earliest < best.earliest || (earliest === best.earliest && since < best.since)) {
        h = m;
        best = { earliest, since };
      }
    }
    const index = h!.queue.findIndex((item) => (this.open || item.exempt) && item.notBefore <= now);
    assert.ok(index >= 0, 'model: a ready host has an item that may start');
    const [item] = h!.queue.splice(index, 1) as [Item];
    // The items whose time has come, of the classes the host started from, are due from now on.
    for (const other of h!.queue) if ((this.open || other.exempt) && other.notBefore <= now) other.due = true;
    const previousStartAt = u.lastStartAt;
    u.inFlight++;
    u.lastStartAt = now;
    u.bucket?.take(now);
    // The host that started goes behind the unit's other members of its rank.
    h!.since = { open: undefined, closed: undefined };
    return { host: h!, item, previousStartAt };
  }

  queued(): number {
    return this.hosts.reduce((n, h) => n + h.queue.length, 0);
  }
}

type Op =
  | {
      op: 'enqueue';
      host: number;
      notBefore: 'none' | 'negative' | 'past' | 'future';
      offset: number;
      exempt: boolean;
      where: 'front' | 'back';
    }
  | { op: 'take'; advance: 'next' | 'step'; step: number }
  | { op: 'end'; pick: number; latency: number; sentAt: boolean }
  | { op: 'pause'; host: number; ms: number }
  | { op: 'drop'; host: number }
  | { op: 'rate'; host: number; change: 'crawl-delay' | 'throttle' | 'success'; seconds: number }
  | { op: 'budget'; open: boolean }
  | { op: 'removeWhere'; rule: 'not-exempt' | 'odd' | 'all' };

const opArb = (hosts: number): fc.Arbitrary<Op> => {
  const host = fc.integer({ min: 0, max: hosts - 1 });
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc.record({
        op: fc.constant('enqueue' as const),
        host,
        notBefore: fc.constantFrom(
          'none' as const,
          'none' as const,
          'negative' as const,
          'past' as const,
          'future' as const,
        ),
        offset: fc.integer({ min: 1, max: 4000 }),
        exempt: fc.boolean(),
        where: fc.constantFrom('back' as const, 'back' as const, 'front' as const),
      }),
    },
    {
      weight: 8,
      arbitrary: fc.record({
        op: fc.constant('take' as const),
        advance: fc.constantFrom('next' as const, 'step' as const),
        step: fc.integer({ min: 0, max: 1500 }),
      }),
    },
    {
      weight: 5,
      arbitrary: fc.record({
        op: fc.constant('end' as const),
        pick: fc.nat(),
        latency: fc.integer({ min: 0, max: 1200 }),
        sentAt: fc.boolean(),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({ op: fc.constant('pause' as const), host, ms: fc.integer({ min: 0, max: 5000 }) }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant('drop' as const), host }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('rate' as const),
        host,
        change: fc.constantFrom('crawl-delay' as const, 'throttle' as const, 'success' as const),
        seconds: fc.constantFrom(0, 0.5, 1.5, 3),
      }),
    },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('budget' as const), open: fc.boolean() }) },
    {
      weight: 1,
      arbitrary: fc.record({
        op: fc.constant('removeWhere' as const),
        rule: fc.constantFrom('not-exempt' as const, 'odd' as const, 'all' as const),
      }),
    },
  );
};

const scenarioArb = fc.integer({ min: 1, max: 4 }).chain((hosts) =>
  fc.record({
    hosts: fc.array(
      fc.record({
        /** The host's unit (hosts with one index share it; its first host's rate and bucket are the unit's). */
        unit: fc.integer({ min: 0, max: hosts - 1 }),
        delaySeconds: fc.constantFrom(0, 0.25, 1, 2),
        bucket: fc.option(
          fc.record({ ratePerSecond: fc.constantFrom(0.5, 2, 10), capacity: fc.integer({ min: 1, max: 3 }) }),
          { nil: undefined },
        ),
      }),
      { minLength: hosts, maxLength: hosts },
    ),
    delayFrom: fc.constantFrom('start' as const, 'end' as const),
    perHostConcurrency: fc.integer({ min: 1, max: 3 }),
    ops: fc.array(opArb(hosts), { minLength: 1, maxLength: 200, size: 'max' }),
  }),
);

const rate = (seconds: number): HostRate =>
  new HostRate({
    configuredSeconds: seconds,
    crawlDelayPolicy: 'cap',
    maxCrawlDelaySeconds: 30,
    adaptive: false,
    ...HOST_RATE_DEFAULTS,
  });
const ids = (items: Item[]): number[] => items.map((item) => item.id);

describe('frontier against a reference model', () => {
  it('agrees step by step on which item starts, on which host, and when', () => {
    // What the runs exercised, so that the property cannot pass by never reaching the interesting cases.
    const seen = { starts: 0, closedStarts: 0, waitedStarts: 0, frontStarts: 0, tiedHosts: 0, sharedUnitStarts: 0 };
    fc.assert(
      fc.property(scenarioArb, (sc) => {
        const T0 = 1_000_000;
        const model = new Model(sc);
        const frontier = new Frontier<Item>({
          delayFrom: sc.delayFrom,
          perHostConcurrency: sc.perHostConcurrency,
          exempt: (item) => item.exempt,
          mayStartNew: () => model.open,
        });
        const slots: HostSlot<Item>[] = [];
        const unitsByIndex = new Map<number, ModelUnit>();
        sc.hosts.forEach((h, i) => {
          const name = `h${i}`;
          let unit = unitsByIndex.get(h.unit);
          if (unit === undefined) {
            // Both sides read the same rate and the same kind of bucket: those are inputs, not frontier logic.
            unit = {
              name: `u${h.unit}`,
              inFlight: 0,
              lastStartAt: undefined,
              lastEndAt: undefined,
              pausedUntil: Number.NEGATIVE_INFINITY,
              rate: rate(h.delaySeconds),
              bucket: h.bucket && new TokenBucket(h.bucket, T0),
              members: [],
              since: { open: undefined, closed: undefined },
            };
            unitsByIndex.set(h.unit, unit);
            model.units.push(unit);
            slots.push(frontier.add(name, unit.rate, h.bucket && new TokenBucket(h.bucket, T0), unit.name));
          } else {
            // A host that joins a unit shares the unit's own rate and bucket (what it passes is not used).
            slots.push(frontier.add(name, rate(h.delaySeconds), undefined, unit.name));
          }
          const host: ModelHost = {
            name,
            unit,
            queue: [],
            dropped: false,
            since: { open: undefined, closed: undefined },
          };
          unit.members.push(host);
          model.hosts.push(host);
        });
        let now = T0;
        let nextId = 0;
        const inFlight: { host: number; startedAt: number }[] = [];
        const fronts = new Set<number>();

        sc.ops.forEach((o, step) => {
          const where = `step ${step} (${o.op}) at t=${now - T0}`;
          switch (o.op) {
            case 'enqueue': {
              const h = model.hosts[o.host]!;
              const notBefore = { none: 0, negative: -o.offset, past: now - o.offset, future: now + o.offset }[
                o.notBefore
              ];
              const item: Item = { id: nextId++, notBefore, exempt: o.exempt };
              if (h.dropped) {
                assert.throws(() => frontier.enqueue(slots[o.host]!, item, o.where), /dropped/);
                break;
              }
              frontier.enqueue(slots[o.host]!, item, o.where);
              if (o.where === 'front') fronts.add(item.id);
              if (o.where === 'front') h.queue.unshift(item);
              else h.queue.push(item);
              break;
            }
            case 'take': {
              if (o.advance === 'next') now = Math.max(now, model.top()?.at ?? now);
              else now += o.step;
              const ready = model.units.filter((u) => model.unitReadyAt(u, model.open) === model.top()?.at);
              if (ready.length > 1) seen.tiedHosts++;
              const top = model.top();
              if (
                top &&
                top.at <= now &&
                top.unit.members.filter((m) => model.earliest(m, model.open) !== undefined).length > 1
              )
                seen.sharedUnitStarts++;
              const got = frontier.takeReady(now);
              const want = model.take(now);
              assert.deepEqual(
                got && { host: got.slot.name, id: got.item.id, previousStartAt: got.previousStartAt },
                want && { host: want.host.name, id: want.item.id, previousStartAt: want.previousStartAt },
                where,
              );
              if (want) {
                inFlight.push({ host: model.hosts.indexOf(want.host), startedAt: now });
                seen.starts++;
                if (!model.open) seen.closedStarts++;
                if (want.item.notBefore > 0) seen.waitedStarts++;
                if (fronts.has(want.item.id)) seen.frontStarts++;
              }
              break;
            }
            case 'end': {
              if (inFlight.length === 0) break;
              const [request] = inFlight.splice(o.pick % inFlight.length, 1) as [{ host: number; startedAt: number }];
              now += o.latency;
              const h = model.hosts[request.host]!;
              const u = h.unit;
              const sentAt = o.sentAt ? request.startedAt + Math.floor(o.latency / 2) : undefined;
              frontier.end(slots[request.host]!, now, sentAt);
              // Always: a dropped host's unit goes on with its other members.
              frontier.refresh(slots[request.host]!);
              if (sentAt !== undefined && u.lastStartAt !== undefined && sentAt > u.lastStartAt && sentAt <= now)
                u.lastStartAt = sentAt;
              u.inFlight = Math.max(0, u.inFlight - 1);
              u.lastEndAt = u.lastEndAt === undefined ? now : Math.max(u.lastEndAt, now);
              break;
            }
            case 'pause': {
              const h = model.hosts[o.host]!;
              frontier.pause(slots[o.host]!, now + o.ms);
              h.unit.pausedUntil = Math.max(h.unit.pausedUntil, now + o.ms);
              break;
            }
            case 'drop': {
              const h = model.hosts[o.host]!;
              const left = frontier.drop(slots[o.host]!);
              h.dropped = true;
              assert.deepEqual(ids(left), ids(h.queue.splice(0)), where);
              break;
            }
            case 'rate': {
              const h = model.hosts[o.host]!;
              if (o.change === 'crawl-delay') h.unit.rate.mergeCrawlDelay(o.seconds);
              else if (o.change === 'throttle') h.unit.rate.onThrottle('backoff');
              else h.unit.rate.onSuccess();
              frontier.refresh(slots[o.host]!);
              break;
            }
            case 'budget':
              model.open = o.open;
              break;
            case 'removeWhere': {
              const match = (item: Item): boolean =>
                o.rule === 'all' ? true : o.rule === 'odd' ? item.id % 2 === 1 : !item.exempt;
              const got = frontier.removeWhere(match);
              const want: Item[] = [];
              for (const h of model.hosts) {
                want.push(...h.queue.filter(match));
                h.queue = h.queue.filter((item) => !match(item));
              }
              assert.deepEqual(ids(got), ids(want), where);
              break;
            }
          }
          model.sync();
          assert.equal(frontier.nextReadyAt(), model.top()?.at, `${where}: next ready time`);
          assert.equal(frontier.queued, model.queued(), `${where}: queued`);
          model.hosts.forEach((h, i) => {
            assert.equal(slots[i]!.queued, h.queue.length, `${where}: ${h.name} queued`);
            assert.equal(frontier.readyAt(slots[i]!), model.readyAt(h, model.open), `${where}: ${h.name} ready at`);
          });
        });
      }),
      { numRuns: 400 },
    );
    for (const [what, count] of Object.entries(seen))
      assert.ok(count > 100, `the runs reached ${what} only ${count} times`);
  });

  it('drains one host of 200,000 items in FIFO order with front items first', () => {
    const f = new Frontier<Item>({
      delayFrom: 'start',
      perHostConcurrency: 1,
      exempt: () => false,
      mayStartNew: () => true,
    });
    const a = f.add('a', rate(0));
    const n = 200_000;
    for (let i = 0; i < n; i++) f.enqueue(a, { id: i, notBefore: 0, exempt: false }, i % 1000 === 0 ? 'front' : 'back');
    const order: number[] = [];
    for (let t = 0; f.queued > 0; t++) {
      const taken = f.takeReady(t)!;
      order.push(taken.item.id);
      f.end(a, t);
      f.refresh(a);
    }
    const fronts = Array.from({ length: n / 1000 }, (_, k) => (n / 1000 - 1 - k) * 1000);
    const backs = Array.from({ length: n }, (_, i) => i).filter((i) => i % 1000 !== 0);
    assert.deepEqual(order, [...fronts, ...backs]);
  });
});
