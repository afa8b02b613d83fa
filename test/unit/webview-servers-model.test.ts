/**
 * What the sidebar shows of "Check shared servers" and the plan's shared-server groups (src/webview/model/servers.ts):
 * the status line, `ip` turning the check on, the groups' items, and the plain warnings list leaving their
 * findings to the grouped list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  politenessByOf,
  serversStatusText,
  sharedGroupItem,
  sharedServersMoreText,
  turnsCheckOn,
  warningListed,
} from '../../src/webview/model/servers';
import type { SharedServersView } from '../../src/shared/planner/viewModel';

test('the select reads as a politeness unit; anything else is the default', () => {
  assert.equal(politenessByOf('ip'), 'ip');
  assert.equal(politenessByOf('domain'), 'domain');
  assert.equal(politenessByOf('byIP'), 'host');
});

test('choosing ip turns the check on, only where it can run and only when off', () => {
  assert.equal(turnsCheckOn('ip', false, true), true);
  assert.equal(turnsCheckOn('ip', true, true), false);
  assert.equal(turnsCheckOn('ip', false, false), false);
  assert.equal(turnsCheckOn('domain', false, true), false);
});

test('the status line', () => {
  assert.equal(serversStatusText({ state: 'off' }, false, 'host'), '');
  assert.match(serversStatusText({ state: 'off' }, false, 'ip'), /ip unit needs "Check shared servers"/);
  assert.equal(
    serversStatusText({ state: 'loading', hosts: 10_000, done: 500 }, true, 'host'),
    'Looking up 10,000 seed hosts… 500 done.',
  );
  assert.equal(
    serversStatusText({ state: 'done', hosts: 3, resolved: 3, settingProblems: [] }, true, 'ip'),
    '3 seed hosts looked up.',
  );
  assert.equal(
    serversStatusText(
      { state: 'done', hosts: 3, resolved: 2, settingProblems: ['crawlPlanner.resolve: entry "x": …; ignored'] },
      true,
      'host',
    ),
    '3 seed hosts looked up: 1 did not resolve (planned as if on servers of their own). crawlPlanner.resolve: entry "x": …; ignored',
  );
  assert.equal(serversStatusText({ state: 'error', message: 'Stopped.' }, true, 'host'), 'Stopped.');
});

const shared: SharedServersView = {
  addressesChecked: true,
  groups: [
    {
      kind: 'address',
      key: '104.16.0.1',
      heading: '12 hosts on 104.16.0.1 (a Cloudflare edge)',
      hosts: ['a.example', 'b.example'],
      hostCount: 12,
      text: '12 hosts on 104.16.0.1 (a Cloudflare edge): … Grouping by this address would be too cautious: …',
      cdn: true,
    },
  ],
  groupCount: 3,
  unresolved: [{ host: 'gone.example', reason: 'no such host' }],
  unresolvedCount: 4,
};

test('a group as the list draws it: its heading, hosts, how many more, the finding; a CDN edge marked', () => {
  const item = sharedGroupItem(shared.groups[0]!);
  assert.equal(item.heading, '12 hosts on 104.16.0.1 (a Cloudflare edge)');
  assert.deepEqual(item.hosts, ['a.example', 'b.example']);
  assert.equal(item.more, 'and 10 more hosts');
  assert.equal(item.className, 'shared-group cdn');
  assert.deepEqual(item.attrs, { 'data-kind': 'address', 'data-key': '104.16.0.1', 'data-count': '12' });
  assert.equal(sharedGroupItem({ ...shared.groups[0]!, hostCount: 2, cdn: false }).more, '');
});

test('under the groups: those not listed and the hosts that did not resolve', () => {
  assert.equal(
    sharedServersMoreText(shared),
    '2 more groups: Copy plan as JSON lists them all (sharedServers). ' +
      'Not resolved: gone.example (no such host) and 3 more; each is planned as its own server.',
  );
  assert.equal(sharedServersMoreText({ ...shared, groupCount: 1, unresolvedCount: 0, unresolved: [] }), '');
});

test('the plain warnings list leaves the shared findings to the grouped list while it shows groups', () => {
  assert.equal(warningListed('shared-address', shared), false);
  assert.equal(warningListed('shared-domain', shared), false);
  assert.equal(warningListed('host-dominates', shared), true);
  assert.equal(warningListed('shared-address', { ...shared, groups: [], groupCount: 0 }), true);
});
