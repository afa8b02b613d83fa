/**
 * Shared servers from the built CLI (docs/cli.md#shared-servers): `--resolve` maps several names onto one
 * loopback address, the plan finds them (`shared-address`, text and JSON), robots.txt and the crawl connect
 * there with each name's Host header; a plain estimate stays offline and says shared servers were not checked.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { EstimateDocument } from '../../src/core/plan';
import { buildCli, runCli } from '../helpers/cli';
import { startLoopback, text, type LoopbackServer } from '../helpers/loopback';

let srv: LoopbackServer;
const NAMES = ['shop.test', 'blog.test', 'www.test'];

before(async () => {
  buildCli();
  srv = await startLoopback({
    host: '127.0.0.5',
    routes: { '/robots.txt': text(200, 'User-agent: *\nCrawl-delay: 2\n') },
    handler: text(200, '<html><body>page</body></html>', { 'content-type': 'text/html' }),
  });
});
after(async () => {
  await srv?.close();
});

const seeds = () => NAMES.map((n) => `http://${n}:${srv.port}/`);
const resolveFlags = () => NAMES.flatMap((n) => ['--resolve', `${n}=127.0.0.5`]);

test('a plain estimate stays offline and says shared servers were not checked', async () => {
  const run = await runCli(['estimate', '--pages-per-host', '10', ...seeds()]);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /Shared servers: addresses not looked up, so hosts on one server were not checked/);
  const json = await runCli(['estimate', '--pages-per-host', '10', '--json', ...seeds()]);
  const doc = JSON.parse(json.stdout) as EstimateDocument;
  assert.equal(doc.sharedServers.addressesChecked, false);
  assert.equal(srv.arrivals.length, 0);
});

test('--resolve: three names on 127.0.0.5 are one shared-address finding, in text and JSON, with no DNS', async () => {
  const run = await runCli(['estimate', '--pages-per-host', '10', ...resolveFlags(), ...seeds()]);
  assert.equal(run.status, 0, run.stderr);
  const p = srv.port;
  assert.ok(
    run.stdout.includes(
      `shared-address: 3 hosts on 127.0.0.5 (loopback): shop.test:${p}, blog.test:${p} and www.test:${p}. 127.0.0.5 gets up to 3 requests per 1 s from 3 host queues, 3× what one host is allowed.`,
    ),
    run.stdout,
  );
  const json = await runCli(['estimate', '--pages-per-host', '10', '--json', ...resolveFlags(), ...seeds()]);
  const doc = JSON.parse(json.stdout) as EstimateDocument;
  assert.equal(doc.sharedServers.addressesChecked, true);
  assert.deepEqual(doc.sharedServers.groups, [
    {
      kind: 'address',
      key: '127.0.0.5',
      addresses: [{ address: '127.0.0.5', class: 'loopback' }],
      hosts: NAMES.map((n) => `${n}:${p}`),
      worstCase: { requests: 3, perSeconds: 1 },
      perHostRequests: 1,
    },
  ]);
  assert.equal(doc.warnings.filter((w) => w.code === 'shared-address').length, 1);
  assert.equal(srv.arrivals.length, 0, 'estimate without --robots sends nothing');
});

test('--resolve for one host, the others not looked up offline: said per host', async () => {
  const json = await runCli([
    'estimate',
    '--pages-per-host',
    '10',
    '--json',
    '--resolve',
    'shop.test=127.0.0.5',
    ...seeds(),
  ]);
  const doc = JSON.parse(json.stdout) as EstimateDocument;
  assert.deepEqual(
    doc.sharedServers.unresolved.map((u) => u.host),
    [`blog.test:${srv.port}`, `www.test:${srv.port}`],
  );
  assert.match(doc.sharedServers.unresolved[0]!.reason, /not looked up: no --resolve for it and no --resolve-hosts/);
});

test("estimate --robots with --resolve fetches each name's robots.txt from 127.0.0.5 with its Host header", async () => {
  const before = srv.arrivals.length;
  const run = await runCli(['estimate', '--pages-per-host', '10', '--robots', '--json', ...resolveFlags(), ...seeds()]);
  assert.equal(run.status, 0, run.stderr);
  const hosts = srv.arrivals.slice(before).map((a) => `${a.path} ${a.headers.host}`);
  assert.deepEqual(hosts.sort(), NAMES.map((n) => `/robots.txt ${n}:${srv.port}`).sort());
  const doc = JSON.parse(run.stdout) as EstimateDocument;
  assert.equal(doc.hosts[0]!.crawlDelaySeconds, 2);
  assert.match(
    doc.warnings.find((w) => w.code === 'shared-address')!.message,
    /127\.0\.0\.5 gets up to 3 requests per 2 s from 3 host queues/,
  );
});

test('crawl --resolve: the pages of a name mapped onto 127.0.0.5 are fetched there', async () => {
  const before = srv.arrivals.length;
  const run = await runCli([
    'crawl',
    '--max-pages',
    '2',
    '--delay',
    '0.05',
    '--json',
    '--resolve',
    `shop.test:${srv.port}:127.0.0.5`,
    `http://shop.test:${srv.port}/a`,
  ]);
  assert.equal(run.status, 0, run.stderr);
  const got = srv.arrivals.slice(before);
  assert.ok(
    got.some((a) => a.path === '/a'),
    got.map((a) => a.path).join(', '),
  );
  assert.ok(got.every((a) => a.headers.host === `shop.test:${srv.port}`));
});

test('a bad --resolve is a usage error that names it', async () => {
  const run = await runCli(['estimate', '--pages', '10', '--resolve', 'shop.test=999.1.1.1', ...seeds()]);
  assert.equal(run.status, 2);
  assert.match(run.stderr, /--resolve: "shop\.test=999\.1\.1\.1": "999\.1\.1\.1" is not an IP address/);
});

test('--resolve-hosts looks the hosts up even offline (localhost: this machine)', async () => {
  const run = await runCli([
    'estimate',
    '--pages',
    '10',
    '--json',
    '--resolve-hosts',
    'http://localhost:1/',
    'http://127.0.0.1:1/',
  ]);
  assert.equal(run.status, 0, run.stderr);
  const doc = JSON.parse(run.stdout) as EstimateDocument;
  assert.equal(doc.sharedServers.addressesChecked, true);
  assert.deepEqual(doc.sharedServers.unresolved, []);
});
