/**
 * Bytes: a test crawl's body bytes per page (src/core/calibrate/pageBytes.ts), the plan's bytes per host, its
 * total and its peak rate (src/core/plan/transfer.ts), --page-size's reading (parseByteSize.ts) and the one
 * formatter of sizes (src/core/format/bytes.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { calibrationFromReport } from '../../src/core/calibrate/fromCrawlReport';
import { formatBytes } from '../../src/core/format/bytes';
import { formatCalibrationText } from '../../src/core/format/calibrationText';
import { transferLine } from '../../src/core/format/crawlLines';
import { transferOf } from '../../src/core/crawl/transfer';
import { formatPlanText } from '../../src/core/format/planText';
import { estimateDocument, parseByteSizeText, plan, PlanInputError } from '../../src/core/plan';

const seeds = [{ host: 'a.example' }, { host: 'b.example' }];

/** A report of one host's pages with these decoded and wire sizes (wire null: not recorded), plus extras. */
function report(pages: Array<[number, number | null]>, host = 'a.example'): unknown {
  const requests: Record<string, unknown>[] = [
    {
      host,
      url: `http://${host}/robots.txt`,
      outcome: 'response',
      status: 200,
      robotsTxt: true,
      latencyMs: 5,
      startedAt: 0,
      endedAt: 5,
      bytes: 9000,
      wireBytes: 9000,
      attempt: 1,
    },
  ];
  pages.forEach(([bytes, wire], i) =>
    requests.push({
      host,
      url: `http://${host}/${i}`,
      outcome: 'response',
      status: 200,
      latencyMs: 50,
      startedAt: 1000 * (i + 1),
      endedAt: 1000 * (i + 1) + 50,
      bytes,
      wireBytes: wire,
      attempt: 1,
    }),
  );
  // Neither a redirect, a refusal nor an error is a page: they are left out of the sizes.
  requests.push({
    host,
    url: `http://${host}/r`,
    outcome: 'response',
    status: 301,
    location: '/',
    latencyMs: 50,
    startedAt: 90_000,
    endedAt: 90_050,
    bytes: 0,
    wireBytes: 0,
    attempt: 1,
  });
  requests.push({
    host,
    url: `http://${host}/e`,
    outcome: 'response',
    status: 200,
    latencyMs: 50,
    startedAt: 91_000,
    endedAt: 91_050,
    bytes: 0,
    wireBytes: 0,
    attempt: 1,
  });
  return {
    schemaVersion: 1,
    startedAt: 0,
    endedAt: 92_000,
    requests,
    summary: { elapsedSeconds: 92, pages: pages.length, requests: requests.length, hosts: [] },
    comparison: {},
  };
}

describe('calibration: body bytes per page', () => {
  it('p50, p90 and mean of the final 2xx answers with a body, decoded and on the wire', () => {
    const sizes: Array<[number, number]> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((k) => [k * 10_000, k * 2_000]);
    const h = calibrationFromReport(report(sizes)).hosts[0]!;
    assert.deepEqual(h.pageBytes, {
      decoded: { count: 10, mean: 55_000, p50: 50_000, p90: 90_000 },
      wire: { count: 10, mean: 11_000, p50: 10_000, p90: 18_000 },
    });
  });

  it("the calibration's text gives each host's page p50 / p90 on the wire", () => {
    const calibration = calibrationFromReport(
      report([
        [40_000, 10_000],
        [40_000, 18_000],
      ]),
    );
    const text = formatCalibrationText(plan({ seeds, pages: { perHost: 10 }, calibration }), calibration, false);
    assert.match(text, /Page p50 \/ p90/);
    assert.match(text, /a\.example .* 10 KB \/ 18 KB /);
  });

  it('a report written before wire sizes were recorded has decoded sizes only', () => {
    const h = calibrationFromReport(
      report([
        [1000, null],
        [3000, null],
      ]),
    ).hosts[0]!;
    assert.deepEqual(h.pageBytes, { decoded: { count: 2, mean: 2000, p50: 1000, p90: 3000 }, wire: null });
  });
});

describe('the plan: bytes per host, the total and the peak rate', () => {
  it('pages × the mean on the wire for a measured host; --page-size for the one it did not see', () => {
    const calibration = calibrationFromReport(
      report([
        [50_000, 10_000],
        [30_000, 20_000],
      ]),
    );
    const p = plan({ seeds, pages: { perHost: 100 }, delaySeconds: 2, calibration, pageSizeBytes: 80_000 });
    const [a, b] = p.hosts;
    assert.deepEqual([a!.bytesPerPage, a!.bytesSource, a!.bytes], [15_000, 'calibrated', 1_500_000]);
    assert.deepEqual([b!.bytesPerPage, b!.bytesSource, b!.bytes], [80_000, 'page-size', 8_000_000]);
    assert.equal(p.transfer.bytes, 9_500_000);
    // Each host at its own rate at once: Σ bytes per page ÷ period.
    const peak = 15_000 / a!.periodSeconds + 80_000 / b!.periodSeconds;
    assert.equal(p.transfer.peakBytesPerSecond, Math.round(peak));
    assert.deepEqual(p.transfer.unknownHosts, []);
    const doc = estimateDocument(p);
    assert.deepEqual(doc.transfer, p.transfer);
    assert.equal(doc.settings.pageSizeBytes, 80_000);
    assert.equal(doc.hosts[1]!.bytes, 8_000_000);
    const text = formatPlanText(p, 0, false);
    assert.match(text, /Bytes/);
    assert.match(
      text,
      /Transfer: 9\.5 MB of response bodies on the wire, peak .* \(page size from test crawl and --page-size\)/,
    );
  });

  it('without a calibration or --page-size the bytes are unknown, not guessed', () => {
    const p = plan({ seeds, pages: { perHost: 10 } });
    assert.equal(p.transfer.bytes, null);
    assert.equal(p.transfer.peakBytesPerSecond, null);
    assert.deepEqual(p.transfer.unknownHosts, ['a.example', 'b.example']);
    assert.equal(p.hosts[0]!.bytes, null);
    const text = formatPlanText(p, 0, false);
    assert.doesNotMatch(text, /Bytes/);
    assert.match(
      text,
      /Transfer: unknown: page size not measured \(plan with a test crawl's report, --calibrate REPORT, or give --page-size\)/,
    );
  });

  it('a calibration of one host only: the other is unknown, and the total says "at least"', () => {
    const calibration = calibrationFromReport(report([[4000, 1000]]));
    const p = plan({ seeds, pages: { perHost: 1000 }, calibration });
    assert.equal(p.transfer.bytes, 1_000_000);
    assert.deepEqual(p.transfer.unknownHosts, ['b.example']);
    assert.match(formatPlanText(p, 0, false), /Transfer: at least 1 MB .*; 1 host's page size unknown/);
  });

  it('hosts of one politeness unit share its rate: the peak is the unit at its rate, not each member at its own', () => {
    const two = [{ host: 'a.shop.example' }, { host: 'b.shop.example' }];
    const apart = plan({ seeds: two, pages: { perHost: 100 }, pageSizeBytes: 50_000 });
    const together = plan({ seeds: two, pages: { perHost: 100 }, pageSizeBytes: 50_000, politenessBy: 'domain' });
    assert.equal(together.units.length, 1);
    assert.equal(together.transfer.bytes, apart.transfer.bytes);
    assert.equal(apart.transfer.peakBytesPerSecond, 2 * 50_000 * apart.hosts[0]!.pagesPerSecond);
    assert.equal(together.transfer.peakBytesPerSecond, Math.round((50_000 * together.units[0]!.pagesPerHour) / 3600));
  });

  it('pageSizeBytes out of its limits is refused, naming the field', () => {
    assert.throws(() => plan({ seeds, pages: { total: 1 }, pageSizeBytes: 0 }), PlanInputError);
    assert.throws(() => plan({ seeds, pages: { total: 1 }, pageSizeBytes: 1e11 }), PlanInputError);
  });
});

describe('--page-size and sizes in text', () => {
  const cases: Array<[string, number]> = [
    ['81920', 81_920],
    ['80KB', 80_000],
    ['120kB', 120_000],
    ['1.5MB', 1_500_000],
    ['1.5 mb', 1_500_000],
    ['2GiB', 2 * 1024 ** 3],
    ['64KiB', 65_536],
    ['500B', 500],
  ];
  for (const [text, bytes] of cases)
    it(`"${text}" is ${bytes} bytes`, () => assert.deepEqual(parseByteSizeText(text), { bytes }));
  const bad: Array<[string, RegExp]> = [
    ['-5KB', /must be at least 1 byte/],
    ['0', /must be at least 1 byte/],
    ['20GB', /too large/],
    ['1e400', /too large/],
    ['abc', /is not a size/],
    ['12 parsecs', /is not a size/],
    ['1.2.3MB', /is not a size/],
    ['', /is not a size/],
    ['NaN', /is not a size/],
  ];
  for (const [text, problem] of bad)
    it(`"${text}" is refused`, () => {
      const read = parseByteSizeText(text);
      assert.ok('problem' in read);
      assert.match(read.problem, problem);
    });

  it('formatBytes: decimal units, three digits at most', () => {
    assert.deepEqual([0, 999, 1000, 1499, 81_920, 999_600, 1_500_000, 2.3e9].map(formatBytes), [
      '0 B',
      '999 B',
      '1 KB',
      '1.5 KB',
      '82 KB',
      '1 MB',
      '1.5 MB',
      '2.3 GB',
    ]);
  });

  it("the crawl's end says what was transferred, on the wire and decoded", () => {
    assert.equal(
      transferLine({ bytes: 3_400_000, wireBytes: 1_200_000, wireBytesUnknown: 0 }),
      'transferred 1.2 MB on the wire (3.4 MB decoded), response bodies',
    );
    assert.match(transferLine({ bytes: 1000, wireBytes: 0, wireBytesUnknown: 3 }), /on the wire: unknown/);
  });

  it('names the response that is a large part of the bytes (a big page a test crawl did not meet), sanitised', () => {
    const t = transferOf([
      { outcome: 'response', url: 'http://a.test/', bytes: 30_000, wireBytes: 30_000 },
      { outcome: 'response', url: 'http://a.test/big\u001b[31m', bytes: 4_194_304, wireBytes: 4_194_304 },
      { outcome: 'error', url: 'http://a.test/hang', bytes: null, wireBytes: null },
      { outcome: 'response', url: 'http://a.test/2', bytes: 5_000, wireBytes: null },
    ]);
    assert.deepEqual(t, {
      bytes: 4_229_304,
      wireBytes: 4_224_304,
      wireBytesUnknown: 1,
      largest: { url: 'http://a.test/big\u001b[31m', wireBytes: 4_194_304 },
    });
    const line = transferLine(t);
    assert.match(line, /· 4.2 MB of it one response, http:\/\/a\.test\/big/);
    assert.doesNotMatch(line, /\u001b/, 'no terminal escape from a URL');
    // Bytes spread over many responses: none is named.
    const even = transferOf(
      Array.from({ length: 8 }, (_, i) => ({
        outcome: 'response',
        url: `http://a.test/${i}`,
        bytes: 10,
        wireBytes: 10,
      })),
    );
    assert.equal(transferLine(even), 'transferred 80 B on the wire (80 B decoded), response bodies');
  });
});
