/**
 * summarizeFromRequests (src/core/crawl/crawlReport.ts): per host, the requests, the measured minimum and mean
 * interval and the starts below the interval in force, table-driven; and the engine's figure on the sample crawl.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { summarizeFromRequests } from '../../src/core/crawl/crawlReport';
import { build, crawl } from '../helpers/crawlReport';

describe('summarizeFromRequests', () => {
  const cases: Array<{
    name: string;
    starts: Array<[string, number, number?]>;
    expected: Array<[string, number, number | null, number | null, number]>;
  }> = [
    { name: 'one start: no interval', starts: [['a', 0]], expected: [['a', 1, null, null, 0]] },
    {
      name: 'regular 2 s gaps',
      starts: [
        ['a', 0, 2],
        ['a', 2_000, 2],
        ['a', 4_000, 2],
      ],
      expected: [['a', 3, 2, 2, 0]],
    },
    {
      name: 'min and mean of uneven gaps, input unsorted',
      starts: [
        ['a', 6_500, 2],
        ['a', 0, 2],
        ['a', 4_500, 2],
        ['a', 2_000, 2],
      ],
      expected: [['a', 4, 2, 6.5 / 3, 0]],
    },
    {
      name: 'starts closer than the interval are counted',
      starts: [
        ['a', 0, 2],
        ['a', 1_500, 2],
        ['a', 3_500, 2],
        ['a', 4_000, 0.5],
      ],
      expected: [['a', 4, 0.5, 4 / 3, 1]],
    },
    {
      name: '1 ms of slack',
      starts: [
        ['a', 0, 2],
        ['a', 1_999, 2],
      ],
      expected: [['a', 2, 1.999, 1.999, 0]],
    },
    {
      name: 'hosts apart, in order of first start',
      starts: [
        ['b', 100],
        ['a', 0],
        ['b', 1_100],
        ['a', 3_000],
      ],
      expected: [
        ['b', 2, 1, 1, 0],
        ['a', 2, 3, 3, 0],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const records = c.starts.map(([host, at, interval]) => ({
        host,
        startedAt: at,
        intervalSeconds: interval ?? null,
      }));
      const got = summarizeFromRequests(records).map((m) => [
        m.host,
        m.requests,
        m.minIntervalSeconds,
        m.meanIntervalSeconds,
        m.startsBelowInterval,
      ]);
      assert.equal(got.length, c.expected.length);
      for (let i = 0; i < got.length; i++) {
        const [host, n, min, mean, below] = got[i]!;
        const [eh, en, emin, emean, ebelow] = c.expected[i]!;
        assert.equal(host, eh);
        assert.equal(n, en);
        assert.equal(below, ebelow);
        for (const [g, e] of [
          [min, emin],
          [mean, emean],
        ] as const) {
          if (e === null) assert.equal(g, null);
          else assert.ok(Math.abs((g as number) - e) < 1e-9, `${g} ≠ ${e}`);
        }
      }
    });
  }

  it('agrees with the engine summary on the sample crawl', () => {
    const r = build(crawl());
    const measured = summarizeFromRequests(r.requests)[0]!;
    assert.equal(measured.minIntervalSeconds, r.summary.hosts[0]!.minIntervalSeconds);
  });
});
