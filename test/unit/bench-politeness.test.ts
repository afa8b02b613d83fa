/**
 * The crawler bench's judge (bench/lib/politeness.ts): what it counts as a short gap, an early request
 * after Retry-After, a fetch from a host whose robots.txt is unreachable or a disallowed path, and how it
 * computes the bound and start lateness, on hand-made arrival logs.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DemoArrival } from '../../src/demo';
import type { ServerLog } from '../../bench/lib/hostServer';
import { analyseRun, percentile, type HostFacts } from '../../bench/lib/politeness';

function facts(name: string, intervalMs: number, o: Partial<Omit<HostFacts, 'name' | 'intervalMs'>> = {}): HostFacts {
  return { name, intervalMs, robotsUnreachable: false, disallowed: () => false, ...o };
}

/** [path, start, end, status?, retryAfter?] on one host. */
type Req = [string, number, number, number?, string?];

function log(byHost: Record<string, Req[]>, inFlightMax: Record<string, number> = {}): ServerLog {
  const arrivals: DemoArrival[] = [];
  for (const [host, reqs] of Object.entries(byHost)) {
    for (const [path, at, endedAt, status = 200, retryAfter] of reqs) {
      arrivals.push({
        host,
        path,
        method: 'GET',
        userAgent: '',
        at,
        endedAt,
        status,
        ...(retryAfter ? { retryAfter } : {}),
      });
    }
  }
  arrivals.sort((a, b) => a.at - b.at);
  return {
    arrivals,
    inFlightMax: { ...Object.fromEntries(Object.keys(byHost).map((h) => [h, 1])), ...inFlightMax },
    lagMs: 0,
  };
}

describe('bench: the politeness judge', () => {
  it('counts robots.txt as a request: a page 100 ms after it is a short gap', () => {
    const m = analyseRun(
      [facts('a', 250)],
      log({
        a: [
          ['/robots.txt', 0, 5],
          ['/', 100, 110],
          ['/page/1', 350, 360],
        ],
      }),
      8,
    );
    assert.equal(m.requests, 3);
    assert.equal(m.pages, 2);
    assert.equal(m.shortGaps, 1);
    assert.equal(m.worstShortfallMs, 150);
  });

  it('allows 2 ms of loopback slack and no more', () => {
    const ok = analyseRun(
      [facts('a', 250)],
      log({
        a: [
          ['/', 0, 5],
          ['/page/1', 248, 250],
        ],
      }),
      8,
    );
    assert.equal(ok.shortGaps, 0);
    const short = analyseRun(
      [facts('a', 250)],
      log({
        a: [
          ['/', 0, 5],
          ['/page/1', 247.9, 250],
        ],
      }),
      8,
    );
    assert.equal(short.shortGaps, 1);
  });

  it("counts apart the short gaps that the servers' event-loop delay cannot explain", () => {
    const l = {
      ...log({
        a: [
          ['/', 0, 5],
          ['/1', 245, 250],
          ['/2', 475, 480],
        ],
      }),
      lagMs: 10,
    };
    const m = analyseRun([facts('a', 250)], l, 8);
    assert.equal(m.shortGaps, 2); // 245 and 230
    assert.equal(m.shortGapsBeyondLag, 1); // only 230 < 250 − 2 − 10
  });

  it('measures each host against its own interval (Crawl-delay merged in by the caller)', () => {
    const m = analyseRun(
      [facts('a', 250), facts('b', 500)],
      log({
        a: [
          ['/', 0, 5],
          ['/1', 260, 265],
        ],
        b: [
          ['/', 0, 5],
          ['/1', 260, 265],
        ],
      }),
      8,
    );
    assert.equal(m.shortGaps, 1);
    assert.equal(m.worstShortfallMs, 240);
  });

  it('counts requests to a host that arrive after its Retry-After answer and before the wait is over', () => {
    const reqs: Req[] = [
      ['/robots.txt', 0, 10],
      ['/1', 300, 310, 429, '2'], // wait until 2310
      ['/2', 600, 610], // early
      ['/3', 2000, 2010], // early
      ['/4', 2309, 2315], // within the slack
    ];
    const m = analyseRun([facts('a', 250)], log({ a: reqs }), 8);
    assert.equal(m.earlyAfterRetryAfter, 2);
  });

  it('ignores a Retry-After the host had not finished sending when the next request arrived', () => {
    const m = analyseRun(
      [facts('a', 250)],
      log(
        {
          a: [
            ['/1', 0, 500, 503, '5'],
            ['/2', 300, 320],
          ],
        },
        { a: 2 },
      ),
      8,
    );
    assert.equal(m.earlyAfterRetryAfter, 0);
    assert.equal(m.maxInFlight, 2);
  });

  it('counts pages from a host whose robots.txt is unreachable, and disallowed paths, but not robots.txt itself', () => {
    const hosts = [
      facts('down', 250, { robotsUnreachable: true }),
      facts('priv', 250, { disallowed: (p) => p.startsWith('/private') }),
    ];
    const m = analyseRun(
      hosts,
      log({
        down: [
          ['/robots.txt', 0, 5, 503],
          ['/robots.txt', 300, 305, 503],
          ['/', 600, 605],
          ['/1', 900, 905],
        ],
        priv: [
          ['/robots.txt', 0, 5],
          ['/', 300, 305],
          ['/private/1?x', 600, 605],
        ],
      }),
      8,
    );
    assert.equal(m.unreachableRobotsFetches, 2);
    assert.equal(m.disallowedFetches, 1);
  });

  it('bounds the makespan by the slowest host: Σ max(interval, answer time) + the last answer', () => {
    const m = analyseRun(
      [facts('a', 250), facts('b', 250)],
      log({
        a: [
          ['/robots.txt', 0, 10],
          ['/', 250, 550],
          ['/1', 550, 560],
        ],
        b: [['/', 0, 10]],
      }),
      8,
    );
    assert.equal(m.boundMs, 250 + 300 + 10);
    assert.equal(m.makespanMs, 560);
    assert.equal(m.efficiency, 1);
  });

  it('bounds the makespan by the slots when all answer time over the slots is larger', () => {
    const hosts = ['a', 'b', 'c', 'd'].map((h) => facts(h, 100));
    const m = analyseRun(
      hosts,
      log(Object.fromEntries(hosts.map((h) => [h.name, [['/', 0, 100] as Req, ['/1', 200, 300] as Req]]))),
      1,
    );
    assert.equal(m.boundMs, 800); // 8 answers of 100 ms through one slot
  });

  it('measures start lateness from when each request was allowed', () => {
    const m = analyseRun(
      [facts('a', 250), facts('b', 250)],
      log({
        a: [
          ['/robots.txt', 0, 10],
          ['/', 300, 320],
          ['/1', 580, 900],
          ['/2', 910, 920],
        ],
        b: [['/robots.txt', 40, 50]],
      }),
      8,
    );
    // a: 0 (first), 50 (allowed at 250), 30 (allowed at 550), 10 (allowed at 900, the previous answer's end); b: 40.
    assert.equal(m.latenessP50Ms, 30);
    assert.equal(m.latenessP99Ms, 50);
  });

  it('after a Retry-After, a request is allowed only when the wait is over', () => {
    const m = analyseRun(
      [facts('a', 250)],
      log({
        a: [
          ['/1', 0, 10, 429, '1'],
          ['/2', 1100, 1110],
        ],
      }),
      8,
    );
    assert.equal(m.latenessP99Ms, 90); // allowed at 1010
  });

  it('percentile: nearest rank', () => {
    assert.equal(percentile([], 50), 0);
    assert.equal(percentile([5, 1, 3, 2, 4], 50), 3);
    assert.equal(percentile([5, 1, 3, 2, 4], 99), 5);
    assert.equal(percentile([1, 2], 50), 1);
  });
});
