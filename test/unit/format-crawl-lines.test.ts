/**
 * The crawl's lines in the terminal (src/core/format/crawlLines.ts): a request line (elapsed time, host, path,
 * status, latency, interval and its source; the attempt, a redirect target, a truncated body, an error), cut
 * to the width and aligned; the lines of the other events (pauses, retries, dropped hosts, robots.txt skips,
 * progress); and formatElapsed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatElapsed } from '../../src/core/format/crawlLines';
import { displayWidth } from '../../src/core/format/table';
import { allEvents, error, one, response, run, T0 } from '../helpers/crawlLines';

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
