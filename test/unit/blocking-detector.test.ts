import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BlockDetector, matchBlockMarker, type BlockObservation, type BlockSignal } from '../../src/core/blocking';
import { mulberry32 } from '../../src/core/random';

/** Feeds observations; returns each signal with the index (0-based) of the answer that raised it. */
function feed(observations: BlockObservation[]): Array<{ at: number; signal: BlockSignal }> {
  const d = new BlockDetector();
  const out: Array<{ at: number; signal: BlockSignal }> = [];
  observations.forEach((o, at) => {
    const signal = d.observe(o);
    if (signal !== undefined) out.push({ at, signal });
  });
  return out;
}

/** A healthy host: lognormal sizes around `bytes` with spread σ, links around `links`, rare 404s and 503s. */
function healthy(n: number, seed: number, sigma: number, bytes = 20_000, links = 30): BlockObservation[] {
  const random = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  return Array.from({ length: n }, () => {
    const u = random();
    if (u < 0.01) return { status: 503 };
    if (u < 0.05) return { status: 404 };
    const scale = Math.exp(sigma * normal());
    return {
      status: 200,
      page: { bytes: Math.round(bytes * scale), links: Math.max(0, Math.round(links * Math.exp(0.3 * normal()))) },
    };
  });
}

const CHANGE = 60;

test('a host that switches to 403 raises the refusal signal within 20 requests of the change', () => {
  const obs = [...healthy(CHANGE, 1, 0.5), ...Array.from({ length: 40 }, () => ({ status: 403 }))];
  const signals = feed(obs);
  assert.equal(signals[0]!.signal.kind, 'refusals');
  const delay = signals[0]!.at - CHANGE + 1;
  assert.ok(delay <= 20, `raised ${delay} requests after the change`);
  assert.match(signals[0]!.signal.text, /^403 share rose from \d+% to \d+% over the last 20 requests$/);
  // A second signal needs new evidence: it comes later, from the requests after the first.
  assert.ok(signals.length >= 2 && signals[1]!.at >= signals[0]!.at + 5);
});

test('a CAPTCHA-like page with status 200 raises the marker signal within 20 requests', () => {
  const captcha =
    '<html><head><title>Just a moment...</title></head><body><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></body></html>';
  const marker = matchBlockMarker({ headers: {}, bodyStart: captcha, links: 0 });
  assert.deepEqual(marker && { id: marker.id, service: marker.service }, {
    id: 'cloudflare-challenge-platform',
    service: 'Cloudflare challenge',
  });
  const obs = [
    ...healthy(CHANGE, 2, 0.5),
    ...Array.from({ length: 30 }, () => ({ status: 200, page: { bytes: captcha.length, links: 0 }, marker })),
  ];
  const signals = feed(obs);
  assert.equal(signals[0]!.signal.kind, 'marker');
  assert.ok(signals[0]!.at - CHANGE + 1 <= 20);
  assert.match(signals[0]!.signal.text, /2 of the last 20 answers were a block page \(Cloudflare challenge/);
});

test('pages that shrink to an empty shell raise the shrunk signal within 20 requests, with the numbers', () => {
  const obs = [
    ...healthy(CHANGE, 3, 0.5),
    ...Array.from({ length: 30 }, () => ({ status: 200, page: { bytes: 1_200, links: 0 } })),
  ];
  const signals = feed(obs);
  assert.equal(signals[0]!.signal.kind, 'shrunk');
  assert.ok(signals[0]!.at - CHANGE + 1 <= 20);
  assert.match(signals[0]!.signal.text, /^pages shrank to \d+% of this host's median size, 0 links$/);
  assert.ok(signals[0]!.signal.numbers.ratio! < 0.1);
});

test('pages that keep their size but lose their records raise the links signal', () => {
  const obs = [
    ...healthy(CHANGE, 4, 0.3),
    ...Array.from({ length: 30 }, () => ({ status: 200, page: { bytes: 20_000, links: 1 } })),
  ];
  const signals = feed(obs);
  assert.equal(signals[0]!.signal.kind, 'links');
  assert.ok(signals[0]!.at - CHANGE + 1 <= 20);
});

test('a healthy host with natural size variance raises nothing in 1,000 requests', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 2 ** 31 - 1 }),
      fc.double({ min: 0.1, max: 1, noNaN: true }),
      (seed, sigma) => {
        const signals = feed(healthy(1_000, seed, sigma));
        assert.deepEqual(signals, [], `seed ${seed}, σ ${sigma}`);
      },
    ),
    { numRuns: 60, seed: 26 },
  );
});

test('markers: headers and body texts, widgets only on a page with few links, your own texts', () => {
  assert.equal(
    matchBlockMarker({ headers: { 'cf-mitigated': 'challenge' }, bodyStart: '', links: 0 })?.id,
    'cloudflare-mitigated',
  );
  assert.equal(
    matchBlockMarker({ headers: { 'x-amzn-waf-action': 'captcha' }, bodyStart: undefined, links: undefined })?.id,
    'aws-waf-action',
  );
  const form = '<form><div class="g-recaptcha" data-sitekey="x"></div></form>';
  assert.equal(matchBlockMarker({ headers: {}, bodyStart: form, links: 40 }), undefined);
  assert.equal(matchBlockMarker({ headers: {}, bodyStart: form, links: 1 })?.id, 'recaptcha-widget');
  assert.equal(
    matchBlockMarker({ headers: {}, bodyStart: '<p>Please sign in to continue</p>', links: 2 }, ['Sign in to continue'])
      ?.id,
    'own',
  );
  assert.equal(matchBlockMarker({ headers: {}, bodyStart: '<p>Welcome</p>', links: 2 }, ['']), undefined);
});
