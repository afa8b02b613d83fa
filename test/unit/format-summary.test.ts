/**
 * The summary the crawl prints when it is done (src/core/format/crawlLines.ts): the end reason, elapsed
 * against the plan and its simulated band, totals, status counts, Retry-After values, the per-host table of
 * intervals against the plan, what was not followed; and planDeviation.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlSummary } from '../../src/core/crawl/events';
import { formatSummary, planDeviation } from '../../src/core/format/crawlLines';
import { displayWidth } from '../../src/core/format/table';
import { ESC, hostSummary, run, summary, T0 } from '../helpers/crawlLines';

describe('summary on done', () => {
  it('shows the end reason, elapsed against the plan, totals, status counts and Retry-After values', () => {
    const lines = run([{ type: 'done', at: T0 + 34_200, summary: summary() }]);
    const text = lines.join('\n');
    assert.match(text, /Crawl finished: complete/);
    assert.match(text, /^elapsed 34\.2 s · planned 31 s \(\+10%\) · no band: run a test crawl to get a band$/m);
    assert.match(text, /^pages 42 · requests 47 · retries 3 · robots skips 2 · errors 1$/m);
    assert.match(text, /^status 200 ×40 · 301 ×2 · 429 ×3 · 503 ×1 · error ×1$/m);
    assert.match(text, /^Retry-After seen: 120 ×2, 5$/m);
  });

  it('has a per-host table with min/mean interval against the planned interval and source', () => {
    const lines = run([{ type: 'done', at: T0, summary: summary() }]);
    const header = lines.findIndex((l) => l.startsWith('host'));
    assert.ok(header > 0);
    assert.match(
      lines[header]!,
      /^host\s+req\s+pages\s+min int\s+mean int\s+planned int\s+retries\s+Retry-After\s+robots\s+errors\s+dropped$/,
    );
    assert.match(lines[header + 1]!, /^a\.example\s+20\s+18\s+2 s\s+2\.15 s\s+2 s crawl-delay\s+1\s+—\s+2\s+1\s+—$/);
    assert.match(
      lines[header + 2]!,
      /^b\.example\s+27\s+24\s+0\.9 s\s+1\.5 s\s+1 s configured\s+2\s+120 ×2, 5\s+0\s+0\s+retry-after-above-cap$/,
    );
  });

  it('marks a minimum interval below the planned one in red', () => {
    const lines = formatSummary(summary(), { color: true });
    assert.ok(lines.some((l) => l.includes(`${ESC}[31m0.9 s`)));
    assert.ok(!lines.some((l) => l.includes(`${ESC}[31m2 s`)));
  });

  it('shows — for a host with fewer than two requests', () => {
    const s = summary({ hosts: [hostSummary({ minIntervalSeconds: undefined, meanIntervalSeconds: undefined })] });
    const row = formatSummary(s, { color: false }).at(-1)!;
    assert.match(row, /^a\.example\s+20\s+18\s+—\s+—\s+2 s crawl-delay/);
  });

  it("gives the plan's simulated band and where the elapsed time fell in it", () => {
    const band = (p10Seconds: number, p90Seconds: number) =>
      formatSummary(
        summary({ plannedBand: { p10Seconds, p50Seconds: (p10Seconds + p90Seconds) / 2, p90Seconds, runs: 200 } }),
        { color: false },
      ).join('\n');
    assert.match(
      band(30, 36),
      /^elapsed 34\.2 s · planned 31 s \(\+10%\) · band 30 s–36 s \(p10–p90 of 200 simulated runs\): inside$/m,
    );
    assert.match(band(30, 33), /· band 30 s–33 s \(p10–p90 of 200 simulated runs\): above$/m);
    assert.match(band(35, 36), /: below$/m);
    // A band with no width (nothing measured to draw from) is one number.
    assert.match(band(31, 31), /· band 31 s \(p10–p90 of 200 simulated runs\): above$/m);
  });

  it('an uncalibrated plan (no band) says to run a test crawl to get one, and prints no band', () => {
    const text = formatSummary(summary(), { color: false }).join('\n');
    assert.match(text, /^elapsed 34\.2 s · planned 31 s \(\+10%\) · no band: run a test crawl to get a band$/m);
    assert.doesNotMatch(text, /p10–p90/);
  });

  it('falls back to the formatter’s planned seconds, and leaves the plan out without one', () => {
    const noPlan = summary({ plannedSeconds: undefined });
    assert.match(
      run([{ type: 'done', at: T0, summary: noPlan }], { planned: 38 }).join('\n'),
      /elapsed 34\.2 s · planned 38 s \(-10%\)/,
    );
    assert.match(run([{ type: 'done', at: T0, summary: noPlan }]).join('\n'), /^elapsed 34\.2 s$/m);
  });

  const reasons: Array<[CrawlSummary['endReason'], RegExp]> = [
    ['complete', /complete \(all work done\)/],
    ['max-pages', /page limit reached/],
    ['stopped', /stopped/],
    ['hosts-dropped', /every host dropped/],
  ];
  for (const [endReason, expected] of reasons) {
    it(`names the end reason ${endReason}`, () =>
      assert.match(formatSummary(summary({ endReason }), { color: false }).join('\n'), expected));
  }

  it('fits the table to the width', () => {
    for (const line of formatSummary(summary(), { color: true, width: 90 })) assert.ok(displayWidth(line) <= 90, line);
  });

  it('says what was not followed: a count on the final line, then by reason with the hosts named', () => {
    const notFollowed: CrawlSummary['notFollowed'] = [
      {
        reason: 'other-host',
        urls: 8,
        hosts: [
          { host: 'two.example', urls: 6 },
          { host: 'three.example', urls: 2 },
        ],
        moreHosts: 0,
      },
      { reason: 'robots-disallowed', urls: 2, hosts: [{ host: 'a.example', urls: 2 }], moreHosts: 0 },
      { reason: 'depth', urls: 1, hosts: [{ host: 'a.example', urls: 1 }], moreHosts: 0 },
      { reason: 'max-pages', urls: 30, hosts: [{ host: 'a.example', urls: 20 }], moreHosts: 3 },
    ];
    const text = formatSummary(summary({ notFollowed }), { color: false }).join('\n');
    assert.match(text, /^Crawl finished: complete \(all work done\) · 41 URLs not followed$/m);
    assert.match(
      text,
      /^not followed: other host 8 \(two\.example 6, three\.example 2\) · robots\.txt disallow 2 \(a\.example 2\) · depth limit 1 \(a\.example 1\) · page limit 30 \(a\.example 20, \+3 more hosts\)$/m,
    );
  });

  it('says nothing about it when everything met was followed', () => {
    const text = formatSummary(summary(), { color: false }).join('\n');
    assert.match(text, /^Crawl finished: complete \(all work done\)$/m);
    assert.doesNotMatch(text, /not followed/);
  });
});

describe('planDeviation', () => {
  const cases: Array<[number, number | undefined, string | undefined]> = [
    [34.2, 31, '+10%'],
    [31, 31, '+0%'],
    [29, 31, '-6%'],
    [62, 31, '+100%'],
    [10, 0, undefined],
    [10, undefined, undefined],
  ];
  for (const [elapsed, planned, text] of cases) {
    it(`${elapsed} s against ${planned} s → ${text}`, () => assert.equal(planDeviation(elapsed, planned), text));
  }
});
