/**
 * `--politeness-by host|ip|domain` from the built CLI (docs/cli.md#politeness-units): ip plans hosts on one
 * address as one unit (the addresses from --resolve: no DNS, no network), domain needs no lookup, a bad value is
 * a usage error for estimate and export alike.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateDocument } from '../../src/core/plan';
import { buildCli, runCli } from '../helpers/cli';

before(() => buildCli());

const TWO = ['--resolve', 'a.test=127.0.0.5', '--resolve', 'b.test=127.0.0.5', 'https://a.test/', 'https://b.test/'];

test('estimate --politeness-by ip: two names on 127.0.0.5 are one unit, in text and JSON', async () => {
  const run = await runCli(['estimate', '--pages-per-host', '100', '--politeness-by', 'ip', ...TWO]);
  assert.equal(run.status, 0, run.stderr);
  // 2 robots.txt and 200 pages at 1 s: 201 gaps of 1.0013 s and the last answer, 201.76135 s.
  assert.match(run.stdout, /^Total: 3 m 22 s for 200 pages on 2 hosts$/m);
  assert.match(run.stdout, /^Limited by: per-host interval at 127\.0\.0\.5 \(2 hosts\)$/m);
  assert.match(
    run.stdout,
    /^ {2}2 hosts on 127\.0\.0\.5 \(a\.test, b\.test\): one request every 1 s \(configured of a\.test\), 200 pages, 3 m 22 s$/m,
  );
  assert.match(run.stdout, /Planned as one politeness unit: 127\.0\.0\.5 gets up to 1 request per 1 s/);

  const json = await runCli(['estimate', '--pages-per-host', '100', '--politeness-by', 'ip', '--json', ...TWO]);
  assert.equal(json.status, 0, json.stderr);
  const doc = JSON.parse(json.stdout) as EstimateDocument;
  assert.equal(doc.settings.politenessBy, 'ip');
  assert.equal(doc.totalSeconds, 201.76135);
  assert.equal(doc.bindingUnit, '127.0.0.5');
  assert.deepEqual(
    doc.units.map((u) => [u.unit, u.hosts, u.pages, u.requests, u.seconds]),
    [['127.0.0.5', ['a.test', 'b.test'], 200, 202, 201.76135]],
  );
  assert.deepEqual(doc.sharedServers.unresolved, []);

  // The default plans them apart, and the finding names the flag.
  const host = await runCli(['estimate', '--pages-per-host', '100', '--json', ...TWO]);
  const apart = JSON.parse(host.stdout) as EstimateDocument;
  assert.equal(apart.settings.politenessBy, 'host');
  assert.equal(apart.totalSeconds, 100.63005);
  assert.deepEqual(apart.units, []);
  assert.match(
    apart.warnings.find((w) => w.code === 'shared-address')!.message,
    /--politeness-by ip plans them as one unit\.$/,
  );
});

test('estimate --politeness-by domain needs no lookup', async () => {
  const run = await runCli([
    'estimate',
    '--pages-per-host',
    '10',
    '--politeness-by',
    'domain',
    '--json',
    'https://shop.example.com/',
    'https://www.example.com/',
    'https://a.co.uk/',
    'https://b.co.uk/',
  ]);
  assert.equal(run.status, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as EstimateDocument;
  assert.equal(doc.sharedServers.addressesChecked, false);
  assert.deepEqual(
    doc.units.map((u) => [u.unit, u.hosts]),
    [['example.com', ['shop.example.com', 'www.example.com']]],
  );
});

test('a bad --politeness-by is a usage error, for estimate and export', async () => {
  for (const command of [['estimate'], ['export', '--format', 'nutch']]) {
    const run = await runCli([...command, '--pages', '10', '--politeness-by', 'asn', 'https://a.test/']);
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /--politeness-by: "asn" must be one of host, ip, domain/);
    assert.equal(run.stdout, '');
  }
});

test('--help lists --politeness-by for estimate and export', async () => {
  for (const command of ['estimate', 'export']) {
    const run = await runCli([command, '--help']);
    assert.match(run.stdout, /--politeness-by UNIT {6}what one queue and one interval are kept for: host\|ip\|domain/);
  }
});
