/** The indexed min-heap, the frontier's ready-time rule, and the virtual clock the engine tests rely on. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Frontier, intervalMs } from '../../src/core/crawl/frontier';
import { IndexedMinHeap } from '../../src/core/crawl/heap';
import { HOST_RATE_DEFAULTS, HostRate } from '../../src/core/politeness/hostRate';
import { TokenBucket } from '../../src/core/politeness/tokenBucket';
import { VirtualClock } from '../helpers/virtualClock';

describe('IndexedMinHeap', () => {
  it('pops in key order, ties in insertion order', () => {
    const h = new IndexedMinHeap<string>();
    h.set('c', 3);
    h.set('a', 1);
    h.set('b1', 2);
    h.set('b2', 2);
    assert.deepEqual(
      [h.pop()?.item, h.pop()?.item, h.pop()?.item, h.pop()?.item, h.pop()],
      ['a', 'b1', 'b2', 'c', undefined],
    );
  });

  it('re-keys and deletes', () => {
    const h = new IndexedMinHeap<string>();
    for (const [k, v] of [
      ['a', 5],
      ['b', 6],
      ['c', 7],
    ] as const)
      h.set(k, v);
    h.set('c', 1);
    assert.equal(h.peek()?.item, 'c');
    h.set('c', 10);
    assert.equal(h.peek()?.item, 'a');
    assert.equal(h.delete('a'), true);
    assert.equal(h.delete('a'), false);
    assert.equal(h.has('a'), false);
    assert.equal(h.keyOf('b'), 6);
    assert.equal(h.size, 2);
    assert.deepEqual([h.pop()?.item, h.pop()?.item], ['b', 'c']);
  });

  it('matches a sort under random operations', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('set', 'delete', 'pop'),
            fc.integer({ min: 0, max: 15 }),
            fc.integer({ min: -100, max: 100 }),
          ),
          { maxLength: 200 },
        ),
        (ops) => {
          const h = new IndexedMinHeap<number>();
          const model = new Map<number, number>();
          for (const [op, item, key] of ops) {
            if (op === 'set') {
              h.set(item, key);
              model.set(item, key);
            } else if (op === 'delete') {
              assert.equal(h.delete(item), model.delete(item));
            } else {
              const top = h.pop();
              if (model.size === 0) assert.equal(top, undefined);
              else {
                const min = Math.min(...model.values());
                assert.equal(top!.key, min);
                assert.equal(model.get(top!.item), min);
                model.delete(top!.item);
              }
            }
            assert.equal(h.size, model.size);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

interface Item {
  id: string;
  notBefore: number;
  retry?: boolean;
}

function rate(seconds: number): HostRate {
  return new HostRate({
    configuredSeconds: seconds,
    crawlDelayPolicy: 'cap',
    maxCrawlDelaySeconds: 30,
    adaptive: false,
    ...HOST_RATE_DEFAULTS,
  });
}

describe('Frontier', () => {
  const make = (delayFrom: 'start' | 'end', perHost = 1, open = () => true) =>
    new Frontier<Item>({ delayFrom, perHostConcurrency: perHost, exempt: (i) => i.retry === true, mayStartNew: open });

  it('a host is ready at previous start + interval (start reading) and only after its request ended', () => {
    const f = make('start');
    const a = f.add('a', rate(1));
    f.enqueue(a, { id: '1', notBefore: 0 }, 'back');
    f.enqueue(a, { id: '2', notBefore: 0 }, 'back');
    const first = f.takeReady(0);
    assert.equal(first?.item.id, '1');
    assert.equal(f.nextReadyAt(), undefined, 'in flight: not in the heap');
    f.end(a, 300);
    f.refresh(a);
    assert.equal(f.nextReadyAt(), 1000);
    assert.equal(f.takeReady(999), undefined);
    assert.equal(f.takeReady(1000)?.previousStartAt, 0);
  });

  it('end reading: ready at previous end + interval', () => {
    const f = make('end');
    const a = f.add('a', rate(1));
    f.enqueue(a, { id: '1', notBefore: 0 }, 'back');
    f.enqueue(a, { id: '2', notBefore: 0 }, 'back');
    f.takeReady(0);
    f.end(a, 400);
    f.refresh(a);
    assert.equal(f.nextReadyAt(), 1400);
  });

  it('a slow response under the start reading: the next start waits for the end', () => {
    const f = make('start');
    const a = f.add('a', rate(1));
    f.enqueue(a, { id: '1', notBefore: 0 }, 'back');
    f.enqueue(a, { id: '2', notBefore: 0 }, 'back');
    f.takeReady(0);
    assert.equal(f.takeReady(1500), undefined);
    f.end(a, 2500);
    f.refresh(a);
    assert.equal(f.nextReadyAt(), 1000, 'the interval has passed...');
    assert.equal(f.takeReady(2500)?.item.id, '2', '...so it starts right at the end');
  });

  it('notBefore holds an item back without blocking the rest of the queue (no head-of-line blocking)', () => {
    const f = make('start');
    const a = f.add('a', rate(0));
    f.enqueue(a, { id: 'retry', notBefore: 5000, retry: true }, 'back');
    f.enqueue(a, { id: 'fresh', notBefore: 0 }, 'back');
    assert.equal(f.takeReady(0)?.item.id, 'fresh');
    f.end(a, 10);
    f.refresh(a);
    assert.equal(f.nextReadyAt(), 5000);
    assert.equal(f.takeReady(5000)?.item.id, 'retry');
  });

  it('a pause excludes the host until it ends and only ever extends', () => {
    const f = make('start');
    const a = f.add('a', rate(1));
    f.enqueue(a, { id: '1', notBefore: 0 }, 'back');
    f.pause(a, 10_000);
    f.pause(a, 5_000);
    assert.equal(f.nextReadyAt(), 10_000);
  });

  it('the page budget holds new items back but not exempt ones', () => {
    let open = true;
    const f = make('start', 1, () => open);
    const a = f.add('a', rate(0));
    f.enqueue(a, { id: 'new', notBefore: 0 }, 'back');
    f.enqueue(a, { id: 'retry', notBefore: 100, retry: true }, 'back');
    open = false;
    f.refreshAll();
    assert.equal(f.nextReadyAt(), 100);
    assert.equal(f.takeReady(100)?.item.id, 'retry');
  });

  it('per-host concurrency 2 with the start reading keeps starts an interval apart', () => {
    const f = make('start', 2);
    const a = f.add('a', rate(1));
    for (const id of ['1', '2', '3']) f.enqueue(a, { id, notBefore: 0 }, 'back');
    assert.equal(f.takeReady(0)?.item.id, '1');
    assert.equal(f.takeReady(0), undefined);
    assert.equal(f.takeReady(1000)?.item.id, '2');
    assert.equal(f.nextReadyAt(), undefined, 'two in flight');
  });

  it('token bucket: bursts then the rate', () => {
    const f = make('start', 10);
    const a = f.add('a', rate(0), new TokenBucket({ ratePerSecond: 2, capacity: 4 }, 0));
    for (let i = 0; i < 6; i++) f.enqueue(a, { id: String(i), notBefore: 0 }, 'back');
    const starts: number[] = [];
    for (let t = 0; t <= 2000 && starts.length < 6; t += 50) {
      while (f.takeReady(t)) starts.push(t);
    }
    assert.deepEqual(starts, [0, 0, 0, 0, 500, 1000]);
  });

  it('front and back', () => {
    const f = make('start');
    const a = f.add('a', rate(0));
    f.enqueue(a, { id: 'b', notBefore: 0 }, 'back');
    f.enqueue(a, { id: 'f', notBefore: 0 }, 'front');
    assert.equal(f.takeReady(0)?.item.id, 'f');
    assert.equal(f.queued, 1);
    assert.deepEqual(
      f.drop(a).map((i) => i.id),
      ['b'],
    );
    assert.equal(f.queued, 0);
    assert.equal(f.nextReadyAt(), undefined);
  });

  it('intervalMs rounds up without float noise', () => {
    assert.equal(intervalMs(1.1), 1100);
    assert.equal(intervalMs(0.3), 300);
    assert.equal(intervalMs(0.0011), 2);
    assert.equal(intervalMs(0), 0);
  });
});

describe('VirtualClock', () => {
  it('fires sleeps in time order and settles promise work between them', async () => {
    const clock = new VirtualClock(1000);
    const order: string[] = [];
    const p = Promise.all([
      clock.sleep(300).then(() => order.push(`b@${clock.now()}`)),
      clock
        .sleep(100)
        .then(() => order.push(`a@${clock.now()}`))
        .then(() => clock.sleep(100))
        .then(() => order.push(`a2@${clock.now()}`)),
      clock.sleep(0).then(() => order.push(`z@${clock.now()}`)),
    ]);
    await clock.run(p);
    assert.deepEqual(order, ['z@1000', 'a@1100', 'a2@1200', 'b@1300']);
  });

  it('aborting a sleep rejects it and removes its timer', async () => {
    const clock = new VirtualClock();
    const ac = new AbortController();
    const s = clock.sleep(1000, ac.signal);
    assert.equal(clock.pending, 1);
    ac.abort();
    await assert.rejects(s, { name: 'AbortError' });
    assert.equal(clock.pending, 0);
    await assert.rejects(clock.sleep(5, ac.signal), { name: 'AbortError' });
  });

  it('advance fires only what is due', async () => {
    const clock = new VirtualClock();
    let fired = 0;
    void clock.sleep(100).then(() => fired++);
    void clock.sleep(200).then(() => fired++);
    await clock.advance(150);
    assert.equal(fired, 1);
    assert.equal(clock.now(), 150);
    await clock.advance(50);
    assert.equal(fired, 2);
  });

  it('run reports a hang instead of hanging', async () => {
    const clock = new VirtualClock();
    await assert.rejects(clock.run(new Promise(() => undefined)), /no timer is set/);
  });
});
