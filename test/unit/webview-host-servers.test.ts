/**
 * The planner's "Check shared servers" step (serversStep.ts) and the politeness unit: off, nothing is looked up
 * and the plan says addresses were not checked; on, the seed hosts are looked up through the real
 * lookUpSeedAddresses (crawlPlanner.resolve's entries as overrides, DNS replaced by a lookup that knows no name:
 * no network), the plan finds the hosts on one address and the sidebar is sent the groups with the findings'
 * words; progress, Cancel, turning it off, trust, seeds added later, and the form's politeness unit in the plan.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AddressOverrides, parseAddressOverride, type AddressOverride } from '../../src/core/servers/overrides';
import { lookUpSeedAddresses } from '../../src/net/seedAddresses';
import type { LookedUpAddresses, LookUpAddressesOptions } from '../../src/extension/planner/deps';
import { checkSeedText, computePlan } from '../../src/extension/planner/planning';
import { parseSavedPlanner } from '../../src/extension/planner/savedState';
import { form, settings, deferred, harness, settle } from '../helpers/plannerHost';

const SEEDS = 'https://shop.example/\nhttps://blog.example/\nhttps://other.test/';

function entries(...texts: string[]): AddressOverride[] {
  return texts.map((t) => parseAddressOverride(t) as AddressOverride);
}

/** lookUpAddresses as commands.ts makes it, with `resolve` as the setting's entries and a DNS that knows no name. */
function lookUpWith(resolve: readonly AddressOverride[], settingProblems: string[] = []) {
  return async (hosts: string[], o: LookUpAddressesOptions): Promise<LookedUpAddresses> => ({
    addresses: await lookUpSeedAddresses(hosts, new AddressOverrides(resolve), {
      lookUp: true,
      notLookedUp: 'not looked up',
      lookup: () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' })),
      signal: o.signal,
      onProgress: o.onProgress,
    }),
    settingProblems,
  });
}

const RESOLVE = entries('shop.example=127.0.0.5', 'blog.example=127.0.0.5', 'other.test=127.0.0.6');

test('off (the default): no host is looked up, and the plan says addresses were not checked', async () => {
  const h = harness({ seeds: SEEDS, form, lookUp: lookUpWith(RESOLVE) });
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.deepEqual(h.lookups, []);
  assert.deepEqual(h.last('state')!.servers, { state: 'off' });
  const shared = h.last('state')!.result.summary!.sharedServers;
  assert.equal(shared.addressesChecked, false);
  assert.deepEqual(shared.groups, []);
});

test('on: the seed hosts are looked up; the plan groups the two names on 127.0.0.5 and says why', async () => {
  const h = harness({ seeds: SEEDS, form, lookUp: lookUpWith(RESOLVE) });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, checkServers: true } });
  assert.deepEqual(h.lookups, [['shop.example', 'blog.example', 'other.test']]);
  assert.deepEqual(h.last('serversState')!.servers, { state: 'loading', hosts: 3, done: 0 });
  await settle();
  assert.deepEqual(h.last('serversState')!.servers, { state: 'done', hosts: 3, resolved: 3, settingProblems: [] });
  const shared = h.last('planResult')!.result.summary!.sharedServers;
  assert.equal(shared.addressesChecked, true);
  assert.equal(shared.groupCount, 1);
  const [group] = shared.groups;
  assert.equal(group!.heading, '2 hosts on 127.0.0.5 (loopback)');
  assert.deepEqual(group!.hosts, ['shop.example', 'blog.example']);
  assert.equal(group!.kind, 'address');
  assert.equal(group!.cdn, false);
  // perHost 100 pages at the 1 s default delay: each queue sends 1 a second, so the address gets 2.
  assert.equal(
    group!.text,
    '2 hosts on 127.0.0.5 (loopback): shop.example and blog.example. ' +
      '127.0.0.5 gets up to 2 requests per 1 s from 2 host queues, 2× what one host is allowed.',
  );
  const warnings = h.last('planResult')!.result.summary!.warnings;
  // The finding is the group's sentence; the CLI's also names the flag, which the sidebar's Politeness unit replaces.
  assert.deepEqual(
    warnings.filter((w) => w.code === 'shared-address').map((w) => w.text),
    [`${group!.text} --politeness-by ip plans them as one unit.`],
    'the finding is the group',
  );
  assert.ok(h.saved.at(-1)!.form.checkServers, 'the choice is saved');
});

test('a host no entry names and DNS does not know is reported, and planned as on a server of its own', async () => {
  const h = harness({
    seeds: SEEDS,
    form: { ...form, checkServers: true },
    lookUp: lookUpWith(entries('shop.example=127.0.0.5', 'blog.example=127.0.0.5'), [
      'crawlPlanner.resolve: entry "oops": must be HOST=IP or HOST:PORT:IP; ignored',
    ]),
  });
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.deepEqual(h.last('serversState')!.servers, {
    state: 'done',
    hosts: 3,
    resolved: 2,
    settingProblems: ['crawlPlanner.resolve: entry "oops": must be HOST=IP or HOST:PORT:IP; ignored'],
  });
  assert.ok(
    h.logs.some((l) => l.includes('entry "oops"')),
    'the bad entry is logged',
  );
  const shared = h.last('planResult')!.result.summary!.sharedServers;
  assert.deepEqual(shared.unresolved, [{ host: 'other.test', reason: 'no such host' }]);
  assert.equal(shared.groups[0]!.heading, '2 hosts on 127.0.0.5 (loopback)');
});

test('progress while looking up, Cancel stops it (what was found before stays), off forgets the addresses', async () => {
  const pending = deferred<LookedUpAddresses>();
  let progress: LookUpAddressesOptions['onProgress'] | undefined;
  let signal: AbortSignal | undefined;
  const h = harness({
    seeds: SEEDS,
    form,
    lookUp: (_hosts, o) => {
      progress = o.onProgress;
      signal = o.signal;
      return pending.promise;
    },
  });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'formChanged', form: { ...form, checkServers: true } });
  progress!(1, 3);
  assert.deepEqual(h.last('serversState')!.servers, { state: 'loading', hosts: 3, done: 1 });
  h.controller.receive({ type: 'cancelServers' });
  assert.equal(signal!.aborted, true);
  const stopped = h.last('serversState')!.servers;
  assert.equal(stopped.state, 'error');
  pending.resolve({ addresses: { addressesByHost: {}, unresolvedHosts: {} }, settingProblems: [] });
  await settle();
  assert.equal(h.last('serversState')!.servers.state, 'error', 'a cancelled result is dropped');
  assert.equal(h.last('planResult')!.result.summary!.sharedServers.addressesChecked, false);

  h.controller.receive({ type: 'formChanged', form: { ...form, checkServers: false } });
  assert.deepEqual(h.controller.currentForm().checkServers, false);
  assert.equal(h.last('planResult')!.result.summary!.sharedServers.addressesChecked, false);
});

test('turned off after a check: the plan no longer takes the addresses', async () => {
  const h = harness({ seeds: SEEDS, form: { ...form, checkServers: true }, lookUp: lookUpWith(RESOLVE) });
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(h.last('planResult')!.result.summary!.sharedServers.groupCount, 1);
  h.controller.receive({ type: 'formChanged', form: { ...form, checkServers: false } });
  assert.equal(h.last('planResult')!.result.summary!.sharedServers.addressesChecked, false);
  assert.deepEqual(h.controller.currentPlan().plan!.sharedServers.groups, []);
});

test('an untrusted workspace looks nothing up and says why; trusting it checks', async () => {
  const h = harness({
    seeds: SEEDS,
    form: { ...form, checkServers: true },
    lookUp: lookUpWith(RESOLVE),
    trusted: false,
  });
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.deepEqual(h.lookups, []);
  const refused = h.last('serversState')!.servers;
  assert.equal(refused.state, 'error');
  assert.match((refused as { message: string }).message, /trusted workspace/);
  h.setTrusted(true);
  h.fireSettings();
  await settle();
  assert.equal(h.lookups.length, 1);
  assert.equal(h.last('serversState')!.servers.state, 'done');
});

test('a settings change looks the hosts up again only when crawlPlanner.resolve changed', async () => {
  let resolve = RESOLVE;
  const h = harness({
    seeds: SEEDS,
    form: { ...form, checkServers: true },
    lookUp: (hosts, o) => lookUpWith(resolve)(hosts, o),
    addressSettings: () => JSON.stringify(resolve),
  });
  h.controller.receive({ type: 'ready' });
  await settle();
  h.fireSettings();
  await settle();
  assert.equal(h.lookups.length, 1, 'another setting changed: nothing is looked up again');
  resolve = entries('shop.example=127.0.0.7', 'blog.example=127.0.0.8', 'other.test=127.0.0.7');
  h.fireSettings();
  await settle();
  assert.equal(h.lookups.length, 2);
  const [group] = h.last('planResult')!.result.summary!.sharedServers.groups;
  assert.equal(group!.heading, '2 hosts on 127.0.0.7 (loopback)');
  assert.deepEqual(group!.hosts, ['shop.example', 'other.test']);
});

test('seeds added while it is on are looked up once, the others are not asked again', async () => {
  const h = harness({
    seeds: SEEDS,
    form: { ...form, checkServers: true },
    lookUp: lookUpWith([...RESOLVE, ...entries('new.example=127.0.0.6')]),
  });
  h.controller.receive({ type: 'ready' });
  await settle();
  h.controller.receive({ type: 'seedsChanged', text: `${SEEDS}\nhttps://new.example/` });
  await settle();
  await settle();
  assert.deepEqual(h.lookups, [['shop.example', 'blog.example', 'other.test'], ['new.example']]);
  const headings = h.last('planResult')!.result.summary!.sharedServers.groups.map((g) => g.heading);
  assert.deepEqual(headings, ['2 hosts on 127.0.0.5 (loopback)', '2 hosts on 127.0.0.6 (loopback)']);
});

test("the form's politeness unit goes into the plan as politenessBy (host, the default, is left out)", () => {
  const seeds = checkSeedText(SEEDS);
  assert.equal(computePlan({ ...form, politenessBy: 'ip' }, seeds, settings).input!.politenessBy, 'ip');
  assert.equal(computePlan({ ...form, politenessBy: 'domain' }, seeds, settings).input!.politenessBy, 'domain');
  assert.equal(computePlan(form, seeds, settings).input!.politenessBy, undefined);
});

test('a planner saved before these choices existed reads back with them off and the host unit', () => {
  const { checkServers: _c, politenessBy: _p, ...older } = form;
  const restored = parseSavedPlanner({ v: 2, form: older, seedsText: 'https://a.example/' });
  assert.equal(restored!.form.checkServers, false);
  assert.equal(restored!.form.politenessBy, 'host');
  assert.equal(parseSavedPlanner({ v: 2, form: { ...form, politenessBy: 'byIP' }, seedsText: '' }), undefined);
});
