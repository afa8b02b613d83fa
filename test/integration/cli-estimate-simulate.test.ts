/**
 * `crawl-planner estimate --simulate` end to end: the band in the JSON and a line in the text (with typed answer
 * times, the plan), and the refusals of --runs, --seed and --calibrate. The BUILT dist/cli.js in a child process,
 * as a user runs it (test/helpers/estimateCli.ts). No network: estimate never fetches anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateDocument } from '../../src/core/plan';
import { estimate, estimateJson as json, scratchDir, seedsFile, useEstimateCli } from '../helpers/estimateCli';

useEstimateCli();

// ---- --calibrate and --simulate (the whole road, test crawl to full crawl: calibrate-estimate.test.ts). ----

test('--simulate adds the band to the JSON and a line to the text; with typed answer times it is the plan', () => {
  const doc = json(
    'https://a.example/',
    'https://b.example/',
    '--pages',
    '40',
    '--delay',
    '0.5',
    '--simulate',
    '--runs',
    '20',
    '--seed',
    '7',
  ) as EstimateDocument & {
    simulation: {
      method: string;
      runs: number;
      seed: number;
      p10Seconds: number;
      p50Seconds: number;
      p90Seconds: number;
      hosts: unknown[];
      timeline: { hosts: unknown[] };
    };
  };
  assert.equal(doc.simulation.method, 'engine');
  assert.equal(doc.simulation.runs, 20);
  assert.equal(doc.simulation.seed, 7);
  for (const p of [doc.simulation.p10Seconds, doc.simulation.p50Seconds, doc.simulation.p90Seconds])
    assert.ok(Math.abs(p - doc.totalSeconds) < 1e-6);
  assert.equal(doc.simulation.hosts.length, 2);
  assert.equal(doc.simulation.timeline.hosts.length, 2);
  assert.equal(doc.calibration, null);
  const text = estimate('https://a.example/', '--pages', '10', '--simulate', '--runs', '5');
  assert.equal(text.status, 0, text.stderr);
  assert.match(
    text.stdout,
    /^Simulated: no band: run a test crawl to get a band \(--calibrate REPORT\): the plan is not calibrated, so the simulation has nothing measured to draw from \(p50 10\.5 s over 5 runs; the plan says 10\.5 s\)$/m,
  );
  // Without --simulate, no simulation.
  assert.equal(
    (json('https://a.example/', '--pages', '10') as EstimateDocument & { simulation: unknown }).simulation,
    null,
  );
});

const refusals: Array<[string, string[], RegExp]> = [
  ['--runs without --simulate', ['--runs', '5'], /^crawl-planner estimate: --runs: only with --simulate$/],
  ['--seed without --simulate', ['--seed', '5'], /^crawl-planner estimate: --seed: only with --simulate$/],
  ['--runs 0', ['--simulate', '--runs', '0'], /^crawl-planner estimate: --runs: 0 must be at least 1$/],
  ['--runs 1.5', ['--simulate', '--runs', '1.5'], /^crawl-planner estimate: --runs: "1\.5" must be a whole number$/],
  [
    '--calibrate a missing file',
    ['--calibrate', 'DIR/missing.json'],
    /^crawl-planner estimate: --calibrate: cannot read .*missing\.json: ENOENT$/,
  ],
  [
    '--calibrate a file that is not JSON',
    ['--calibrate', 'DIR/not-json.json'],
    /^crawl-planner estimate: --calibrate: .*not-json\.json is not JSON \(give the report that crawl --report wrote\)$/,
  ],
  [
    '--calibrate an estimate document',
    ['--calibrate', 'DIR/estimate.json'],
    /^crawl-planner estimate: --calibrate: .*estimate\.json: not a crawl report \(one that crawl --report writes\): it has no requests and summary$/,
  ],
  [
    '--calibrate a report of another schema',
    ['--calibrate', 'DIR/v2.json'],
    /^crawl-planner estimate: --calibrate: .*v2\.json: crawl report schemaVersion 2 is not supported \(this version reads 1\)$/,
  ],
];
for (const [name, args, message] of refusals) {
  test(`${name} → exit 2 with one line`, () => {
    seedsFile('not-json.json', 'not json at all');
    seedsFile('estimate.json', JSON.stringify(json('https://a.example/', '--pages', '10')));
    seedsFile('v2.json', JSON.stringify({ schemaVersion: 2, requests: [], summary: {}, comparison: {} }));
    const r = estimate('https://a.example/', '--pages', '10', ...args.map((a) => a.replace('DIR', scratchDir())));
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr.trimEnd(), message);
    assert.equal(r.stderr.trimEnd().split('\n').length, 1);
  });
}
