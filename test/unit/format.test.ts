import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CrawlEvent, CrawlSummary, ErrorEvent, HostSummary, ResponseEvent } from '../../src/core/crawl/events';
import {
  createCrawlFormatter,
  formatElapsed,
  formatSummary,
  joinLines,
  planDeviation,
  toTerminal,
  type CrawlFormatterOptions,
} from '../../src/core/format/crawlLines';
import { displayWidth, stripAnsi } from '../../src/core/format/table';

const T0 = 1_700_000_000_000;
const ESC = '\x1b';

function response(over: Partial<ResponseEvent> = {}): ResponseEvent {
  return {
    type: 'response',
    at: T0 + 12_300,
    url: 'http://a.example/docs/page?x=1',
    host: 'a.example',
    status: 200,
    attempt: 1,
    startedAt: T0 + 12_157,
    latencyMs: 143,
    bytes: 5120,
    truncated: false,
    linksQueued: 3,
    intervalSeconds: 2,
    intervalSource: 'crawl-delay',
    ...over,
  };
}

function error(over: Partial<ErrorEvent> = {}): ErrorEvent {
  return {
    type: 'error',
    at: T0 + 20_000,
    url: 'http://a.example/slow',
    host: 'a.example',
    attempt: 1,
    kind: 'headers-timeout',
    message: 'no headers within 10000 ms',
    startedAt: T0 + 10_000,
    willRetry: true,
    ...over,
  };
}

function hostSummary(over: Partial<HostSummary> = {}): HostSummary {
  return {
    host: 'a.example',
    requests: 20,
    pages: 18,
    minIntervalSeconds: 2,
    meanIntervalSeconds: 2.15,
    plannedIntervalSeconds: 2,
    intervalSource: 'crawl-delay',
    retryAfterSeen: [],
    retries: 1,
    robotsSkips: 2,
    errors: 1,
    ...over,
  };
}

function summary(over: Partial<CrawlSummary> = {}): CrawlSummary {
  return {
    startedAt: T0,
    endedAt: T0 + 34_200,
    elapsedSeconds: 34.2,
    plannedSeconds: 31,
    pages: 42,
    requests: 47,
    statusCounts: { '503': 1, '200': 40, error: 1, '301': 2, '429': 3 },
    retries: 3,
    robotsSkips: 2,
    errors: 1,
    retryAfterSeen: ['120', '5', '120'],
    hosts: [
      hostSummary(),
      hostSummary({
        host: 'b.example',
        requests: 27,
        pages: 24,
        minIntervalSeconds: 0.9,
        meanIntervalSeconds: 1.5,
        plannedIntervalSeconds: 1,
        intervalSource: 'configured',
        retryAfterSeen: ['120', '5', '120'],
        retries: 2,
        robotsSkips: 0,
        errors: 0,
        dropped: 'retry-after-above-cap',
      }),
    ],
    notFollowed: [],
    endReason: 'complete',
    ...over,
  };
}

/** One of every event type, in a plausible order. */
function allEvents(): CrawlEvent[] {
  return [
    { type: 'queued', at: T0, url: 'http://a.example/', host: 'a.example', depth: 0 },
    {
      type: 'robots-skip',
      at: T0 + 5,
      url: 'http://a.example/private/x',
      host: 'a.example',
      line: 3,
      rule: 'Disallow: /private',
      reason: 'disallowed',
    },
    {
      type: 'request-start',
      at: T0 + 10,
      url: 'http://a.example/',
      host: 'a.example',
      method: 'GET',
      attempt: 1,
      intervalSeconds: 2,
      intervalSource: 'crawl-delay',
    },
    response({ at: T0 + 153, url: 'http://a.example/', startedAt: T0 + 10 }),
    response({ status: 301, location: 'http://a.example/new' }),
    response({
      host: 'b.example',
      url: 'http://b.example/x',
      status: 429,
      intervalSource: 'configured',
      intervalSeconds: 1,
    }),
    { type: 'host-paused', at: T0 + 13_000, host: 'b.example', until: T0 + 133_000, retryAfter: '120', status: 429 },
    {
      type: 'retry-scheduled',
      at: T0 + 13_000,
      url: 'http://b.example/x',
      host: 'b.example',
      attempt: 2,
      notBefore: T0 + 17_000,
      reason: '429 Too Many Requests',
    },
    response({
      host: 'b.example',
      url: 'http://b.example/x',
      status: 503,
      attempt: 2,
      intervalSource: 'retry-after',
      intervalSeconds: 120,
    }),
    error(),
    {
      type: 'host-dropped',
      at: T0 + 200_000,
      host: 'b.example',
      reason: 'retry-after-above-cap',
      detail: 'Retry-After 86400 s is above the cap of 300 s',
      urlsLeft: 12,
    },
    {
      type: 'progress',
      at: T0 + 62_000,
      done: 42,
      planned: 100,
      queued: 58,
      inFlight: 3,
      ratePerSecond: 1.333,
      etaSeconds: 45,
    },
    { type: 'done', at: T0 + 34_200, summary: summary() },
  ];
}

function run(events: CrawlEvent[], options: Partial<CrawlFormatterOptions> = {}): string[] {
  const f = createCrawlFormatter({ color: false, startedAt: T0, ...options });
  return events.flatMap((e) => f.format(e));
}

function one(event: CrawlEvent, options: Partial<CrawlFormatterOptions> = {}): string {
  const lines = run([event], options);
  assert.equal(lines.length, 1, `expected one line, got ${JSON.stringify(lines)}`);
  return lines[0]!;
}

describe('colour', () => {
  for (const verbose of [false, true]) {
    it(`emits no escape sequence at all when color is off (verbose ${verbose})`, () => {
      const lines = run(allEvents(), { color: false, width: 100, verbose });
      assert.ok(lines.length > 10);
      for (const line of lines) assert.ok(!line.includes(ESC), JSON.stringify(line));
    });
  }

  it('uses SGR sequences when color is on', () => {
    const lines = run(allEvents(), { color: true, width: 100 });
    assert.ok(lines.some((l) => l.includes(`${ESC}[`)));
  });

  const classes: Array<[number, string]> = [
    [200, '32'],
    [204, '32'],
    [301, '36'],
    [304, '36'],
    [404, '33'],
    [429, '33'],
    [500, '31'],
    [503, '31'],
  ];
  for (const [status, code] of classes) {
    it(`colours status ${status} with SGR ${code}`, () => {
      const line = one(response({ status }), { color: true });
      assert.ok(line.includes(`${ESC}[${code}m${status}`), JSON.stringify(line));
    });
  }

  it('colours an error red with its kind', () => {
    const line = one(error(), { color: true });
    assert.ok(line.includes(`${ESC}[31mERR`));
    assert.ok(line.includes(`${ESC}[31mheaders-timeout`));
  });
});

describe('request lines', () => {
  it('show elapsed time, host, GET path, status, latency, interval and source', () => {
    const line = one(response());
    assert.match(line, /^\s*\+12\.3s {2}a\.example {2}GET \/docs\/page\?x=1\s+200\s+143 ms {2}int 2 s crawl-delay$/);
  });

  it('show the attempt only when above 1', () => {
    assert.doesNotMatch(one(response({ attempt: 1 })), /try/);
    assert.match(one(response({ attempt: 2 })), /try 2$/);
    assert.match(
      one(error({ attempt: 3 })),
      /ERR\s+10,000 ms {2}try 3 {2}headers-timeout: no headers within 10000 ms$/,
    );
  });

  it('show a raised interval and where it came from', () => {
    assert.match(one(response({ intervalSeconds: 120, intervalSource: 'retry-after' })), /int 120 s retry-after/);
    assert.match(one(response({ intervalSeconds: 0.5, intervalSource: 'adaptive' })), /int 0\.5 s adaptive/);
  });

  it('show the redirect target (as a path on the same origin) and a truncated body', () => {
    assert.match(one(response({ status: 302, location: 'http://a.example/next' })), /302 .* → \/next$/);
    assert.match(one(response({ status: 302, location: 'https://other.example/x' })), /→ https:\/\/other\.example\/x$/);
    assert.match(one(response({ truncated: true })), /\(body truncated\)$/);
  });

  it('give an error line "ERR", its latency and kind: message', () => {
    const line = one(error());
    assert.match(
      line,
      /^\s*\+20\.0s {2}a\.example {2}GET \/slow\s+ERR\s+10,000 ms {2}headers-timeout: no headers within 10000 ms$/,
    );
  });

  const longUrl = `http://a.example/${'segment/'.repeat(30)}end?query=${'q'.repeat(50)}`;
  for (const width of [60, 80, 100, 120, 200]) {
    it(`fit a long path to width ${width} with an ellipsis`, () => {
      const line = one(response({ url: longUrl }), { width });
      assert.ok(displayWidth(line) <= width, `${displayWidth(line)} > ${width}: ${line}`);
      assert.match(line, /GET \/segm.*…/);
      // The columns after the path survive the cut (below 80 columns the interval may be cut).
      assert.match(line, width >= 80 ? /200\s+143 ms {2}int 2 s crawl-delay$/ : /200\s+143 ms/);
    });
  }

  it('do not cut a path that fits, and keep the status column aligned across lines', () => {
    const lines = run([response({ url: 'http://a.example/' }), response({ url: 'http://a.example/a/bit/longer' })], {
      width: 100,
    });
    assert.match(lines[0]!, /GET \/ /);
    assert.ok(!lines[1]!.includes('…'));
    assert.equal(lines[0]!.indexOf('200'), lines[1]!.indexOf('200'));
  });

  it('keep every line of a whole crawl within the width, in colour too', () => {
    for (const width of [70, 100, 140]) {
      for (const line of run(allEvents(), { width, color: true, verbose: true })) {
        assert.ok(displayWidth(line) <= width, `${displayWidth(line)} > ${width}: ${JSON.stringify(line)}`);
      }
    }
  });

  it('size the host column from the hosts given in advance', () => {
    const lines = run([response(), response({ host: 'longer-host.example', url: 'http://longer-host.example/' })], {
      hosts: ['a.example', 'longer-host.example'],
    });
    assert.equal(lines[0]!.indexOf('GET'), lines[1]!.indexOf('GET'));
  });

  it('print nothing for queued and request-start unless verbose', () => {
    const events = allEvents().filter((e) => e.type === 'queued' || e.type === 'request-start');
    assert.deepEqual(run(events), []);
    const verbose = run(events, { verbose: true });
    assert.equal(verbose.length, 2);
    assert.match(verbose[0]!, /queue {2}\/ {2}depth 0 · seed$/);
    assert.match(verbose[1]!, /GET \/\s+··· .*int 2 s crawl-delay {2}first start$/);
  });
});

describe('event lines', () => {
  it('host-paused shows the raw Retry-After value, the status and until when', () => {
    const line = one({
      type: 'host-paused',
      at: T0 + 3_000,
      host: 'b.example',
      until: T0 + 123_000,
      retryAfter: '120',
      status: 429,
    });
    assert.match(line, /^\s*\+3\.0s {2}b\.example {2}pause {2}Retry-After: 120 \(429\) until \+2m03\.0s \(2 m\)$/);
  });

  it('host-paused without Retry-After (backoff) still says until when', () => {
    const line = one({ type: 'host-paused', at: T0, host: 'b.example', until: T0 + 4_500, status: 503 });
    assert.match(line, /pause {2}\(503\) until \+4\.5s \(4\.5 s\)$/);
    assert.doesNotMatch(line, /Retry-After/);
  });

  it('host-paused keeps an HTTP-date Retry-After as sent', () => {
    const line = one({
      type: 'host-paused',
      at: T0,
      host: 'b.example',
      until: T0 + 60_000,
      retryAfter: 'Wed, 21 Oct 2015 07:28:00 GMT',
    });
    assert.match(line, /Retry-After: Wed, 21 Oct 2015 07:28:00 GMT until/);
  });

  it('retry-scheduled shows the next attempt, the wait and the reason', () => {
    const line = one({
      type: 'retry-scheduled',
      at: T0 + 1_000,
      url: 'http://b.example/x',
      host: 'b.example',
      attempt: 2,
      notBefore: T0 + 5_200,
      reason: '503',
    });
    assert.match(line, /^\s*\+1\.0s {2}b\.example {2}retry {2}\/x {2}try 2 in 4\.2 s · 503$/);
  });

  it('host-dropped shows the reason, detail and URLs left', () => {
    const line = one({
      type: 'host-dropped',
      at: T0,
      host: 'b.example',
      reason: 'consecutive-failures',
      detail: '5 failures in a row',
      urlsLeft: 1,
    });
    assert.match(line, /drop {3}consecutive-failures: 5 failures in a row · 1 URL left$/);
  });

  const robots: Array<[string, Partial<{ line: number; rule: string; reason: 'disallowed' | 'unreachable' }>, RegExp]> =
    [
      [
        'rule with its directive',
        { line: 3, rule: 'Disallow: /private', reason: 'disallowed' },
        /robots {1}\/private\/x {2}disallowed by L3 Disallow: \/private$/,
      ],
      ['bare rule path', { line: 7, rule: '/private', reason: 'disallowed' }, /disallowed by L7 Disallow: \/private$/],
      ['no line', { reason: 'disallowed' }, /\/private\/x {2}disallowed$/],
      ['unreachable robots.txt', { reason: 'unreachable' }, /\/private\/x {2}robots\.txt unreachable$/],
    ];
  for (const [name, over, expected] of robots) {
    it(`robots-skip: ${name}`, () => {
      const line = one({
        type: 'robots-skip',
        at: T0,
        url: 'http://a.example/private/x',
        host: 'a.example',
        reason: 'disallowed',
        ...over,
      });
      assert.match(line, expected);
    });
  }

  const progress: Array<
    [string, { done: number; planned: number; ratePerSecond: number; etaSeconds?: number }, RegExp]
  > = [
    [
      'pages of planned, rate, ETA',
      { done: 42, planned: 100, ratePerSecond: 1.333, etaSeconds: 45 },
      /progress {2}42\/100 pages \(42%\) · 1\.33 pages\/s · ETA 45 s · 58 queued · 3 in flight$/,
    ],
    [
      'long ETA in human units',
      { done: 10, planned: 1_000_000, ratePerSecond: 1, etaSeconds: 999_960 },
      /10\/1,000,000 pages \(0%\) · 1 pages\/s · ETA 11 d 13 h 46 m/,
    ],
    ['unknown ETA', { done: 1, planned: 10, ratePerSecond: 0 }, /ETA —/],
    ['no plan', { done: 5, planned: 0, ratePerSecond: 12.34 }, /progress {2}5 pages · 12\.3 pages\/s/],
  ];
  for (const [name, p, expected] of progress) {
    it(`progress: ${name}`, () => {
      assert.match(one({ type: 'progress', at: T0 + 62_000, queued: 58, inFlight: 3, ...p }), expected);
    });
  }
});

describe('formatElapsed', () => {
  const cases: Array<[number, string]> = [
    [0, '+0.0s'],
    [12_345, '+12.3s'],
    [59_940, '+59.9s'],
    [59_960, '+1m00.0s'],
    [60_000, '+1m00.0s'],
    [3_599_940, '+59m59.9s'],
    [3_599_960, '+1h00m00s'],
    [86_399_600, '+1d00h00m'],
    [245_200, '+4m05.2s'],
    [3_845_000, '+1h04m05s'],
    [176_645_000, '+2d01h04m'],
    [-1_500, '-1.5s'],
  ];
  for (const [ms, text] of cases) it(`${ms} ms → ${text}`, () => assert.equal(formatElapsed(ms), text));
});

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

describe('hostile text', () => {
  const evil = 'x\x1b[38;5;1m\x1b]0;pwned\x07\x1b[2J\u009b31m\r\nFAKE LINE\u202etxt.exe\x08\x7f';
  const hostile: CrawlEvent[] = [
    response({ url: `http://a.example/${evil}`, host: `a.example${evil}`, location: `http://a.example/${evil}` }),
    error({ message: evil, url: `not a url ${evil}` }),
    { type: 'host-paused', at: T0, host: 'b.example', until: T0 + 1_000, retryAfter: evil },
    {
      type: 'retry-scheduled',
      at: T0,
      url: `http://b.example/${evil}`,
      host: 'b.example',
      attempt: 2,
      notBefore: T0 + 1,
      reason: evil,
    },
    { type: 'host-dropped', at: T0, host: 'b.example', reason: 'retry-after-above-cap', detail: evil, urlsLeft: 2 },
    {
      type: 'robots-skip',
      at: T0,
      url: `http://a.example/${evil}`,
      host: 'a.example',
      line: 1,
      rule: evil,
      reason: 'disallowed',
    },
    { type: 'queued', at: T0, url: `http://a.example/${evil}`, host: 'a.example', depth: 1, from: evil },
    {
      type: 'done',
      at: T0,
      summary: summary({
        statusCounts: { [evil]: 1 },
        retryAfterSeen: [evil],
        hosts: [hostSummary({ host: evil, retryAfterSeen: [evil], dropped: evil })],
        notFollowed: [{ reason: 'other-host', urls: 1, hosts: [{ host: evil, urls: 1 }], moreHosts: 0 }],
      }),
    },
  ];
  /** The SGR sequences our own formatter emits. */
  const ours = /\x1b\[(?:0|1|2|31|32|33|35|36|1;31)m/g;

  for (const color of [false, true]) {
    it(`cannot inject escape sequences or line breaks (color ${color})`, () => {
      const lines = run(hostile, { color, width: 120, verbose: true });
      assert.ok(lines.length >= hostile.length);
      for (const line of lines) {
        const rest = line.replace(ours, '');
        assert.ok(!rest.includes(ESC), JSON.stringify(line));
        assert.doesNotMatch(rest, /[\u0000-\u001f\u007f-\u009f\u202e]/, JSON.stringify(line));
      }
      assert.ok(!lines.some((l) => l.startsWith('FAKE LINE')));
    });
  }

  it('keeps the visible text of a stripped sequence', () => {
    const line = one(error({ message: 'bad \x1b[2J thing' }));
    assert.match(line, /bad \[2J thing$/);
  });
});

describe('line endings', () => {
  it('toTerminal ends every line with \\r\\n; joinLines with \\n', () => {
    assert.equal(toTerminal(['a', 'b']), 'a\r\nb\r\n');
    assert.equal(toTerminal([]), '');
    assert.equal(joinLines(['a', '']), 'a\n\n');
  });

  it('formatted lines never contain a line terminator themselves', () => {
    for (const line of run(allEvents(), { verbose: true, color: true })) assert.doesNotMatch(line, /[\r\n]/);
  });

  it('the summary starts with a blank separator line and has no trailing spaces', () => {
    const lines = run([{ type: 'done', at: T0, summary: summary() }]);
    assert.equal(lines[0], '');
    for (const line of lines) assert.equal(stripAnsi(line), stripAnsi(line).trimEnd());
  });
});
