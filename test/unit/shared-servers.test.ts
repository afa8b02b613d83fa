/**
 * Hosts that share a server (src/core/servers/): address classes, the shipped CDN list, grouping by address
 * (union-find, property-tested: a partition, and a shared address always means one group) and by registered
 * domain through the Public Suffix List.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AddressOverrides,
  canonicalAddress,
  CDN_RANGES,
  classifyAddress,
  groupByAddress,
  groupByDomain,
  hostnameOf,
  literalAddress,
  parseAddressOverride,
  parseCidr,
  registeredDomain,
  type AddressOverride,
} from '../../src/core/servers';

test('canonicalAddress: one text per address, undefined for names and bad addresses', () => {
  assert.equal(canonicalAddress('127.0.0.5'), '127.0.0.5');
  assert.equal(canonicalAddress('[0:0:0:0:0:0:0:1]'), '::1');
  assert.equal(canonicalAddress('2001:DB8:0::1'), '2001:db8::1');
  assert.equal(canonicalAddress('::ffff:10.0.0.1'), '10.0.0.1');
  for (const bad of ['a.example', '1.2.3', '300.1.1.1', '', '1::2::3'])
    assert.equal(canonicalAddress(bad), undefined, bad);
});

test('classifyAddress: loopback, private (RFC 1918, ULA), link-local, Cloudflare, public', () => {
  const cls = (a: string) => classifyAddress(canonicalAddress(a)!);
  assert.equal(cls('127.0.0.5').class, 'loopback');
  assert.equal(cls('::1').class, 'loopback');
  for (const a of ['10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', 'fd12::1'])
    assert.equal(cls(a).class, 'private', a);
  assert.equal(cls('172.32.0.1').class, 'public');
  assert.equal(cls('169.254.1.1').class, 'link-local');
  assert.equal(cls('fe80::1').class, 'link-local');
  assert.deepEqual(cls('104.16.132.229'), { address: '104.16.132.229', class: 'cdn', provider: 'Cloudflare' });
  assert.equal(cls('2606:4700::6810:84e5').class, 'cdn');
  assert.equal(cls('2a06:98c7:ffff::1').class, 'cdn'); // the /29's last /32
  assert.equal(cls('2a06:98c8::1').class, 'public'); // just past it
  assert.equal(cls('93.184.216.34').class, 'public');
  assert.equal(cls('173.245.63.255').class, 'cdn');
  assert.equal(cls('173.245.64.0').class, 'public');
});

test('the shipped CDN list is dated, cited and well formed', () => {
  for (const list of CDN_RANGES) {
    assert.match(list.copied, /^\d{4}-\d{2}-\d{2}$/);
    assert.ok(list.sources.length > 0 && list.sources.every((s) => s.startsWith('https://')));
    for (const range of list.ranges) {
      const r = parseCidr(range);
      assert.ok(r.prefix >= 8 && r.prefix <= (r.v6 ? 128 : 32), range);
    }
  }
  assert.throws(() => parseCidr('1.2.3.4/33'), /not a CIDR range/);
  assert.throws(() => parseCidr('nope/8'), /not a CIDR range/);
});

test('hostnameOf and literalAddress read seed hosts with ports and brackets', () => {
  assert.equal(hostnameOf('a.example:8080'), 'a.example');
  assert.equal(hostnameOf('[::1]:8080'), '::1');
  assert.equal(hostnameOf('a.example'), 'a.example');
  assert.equal(literalAddress('127.0.0.7:8080'), '127.0.0.7');
  assert.equal(literalAddress('[::1]'), '::1');
  assert.equal(literalAddress('a.example'), undefined);
});

test('groupByAddress: a host with several addresses joins every group it touches', () => {
  const groups = groupByAddress(
    new Map([
      ['a.example', ['10.0.0.1']],
      ['b.example', ['10.0.0.1', '10.0.0.2']],
      ['c.example', ['10.0.0.2']],
      ['d.example', ['10.0.0.3']],
      ['e.example', []],
      ['127.0.0.9', ['127.0.0.9']],
    ]),
  );
  assert.deepEqual(groups, [
    { keys: ['10.0.0.1', '10.0.0.2'], hosts: ['a.example', 'b.example', 'c.example'] },
    { keys: ['10.0.0.3'], hosts: ['d.example'] },
    { keys: [], hosts: ['e.example'] },
    { keys: ['127.0.0.9'], hosts: ['127.0.0.9'] },
  ]);
});

const hostAddresses = fc
  .uniqueArray(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 60 })
  .chain((hostIds) =>
    fc.tuple(
      fc.constant(hostIds),
      fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 4 }), {
        minLength: hostIds.length,
        maxLength: hostIds.length,
      }),
    ),
  )
  .map(([ids, addrs]) => new Map(ids.map((id, i) => [`h${id}.example`, addrs[i]!.map((a) => `10.0.0.${a}`)])));

test('groupByAddress (property): the groups are a partition of the hosts, in first-seen order', () => {
  fc.assert(
    fc.property(hostAddresses, (input) => {
      const groups = groupByAddress(input);
      const all = groups.flatMap((g) => g.hosts);
      assert.equal(all.length, input.size);
      assert.deepEqual(new Set(all), new Set(input.keys()));
      assert.ok(groups.every((g) => g.hosts.length > 0));
    }),
  );
});

test('groupByAddress (property): a shared address puts both hosts in one group; a key is held by a member', () => {
  fc.assert(
    fc.property(hostAddresses, (input) => {
      const groups = groupByAddress(input);
      const groupOf = new Map<string, number>();
      groups.forEach((g, i) => g.hosts.forEach((h) => groupOf.set(h, i)));
      const hosts = [...input.keys()];
      for (const a of hosts)
        for (const b of hosts)
          if (input.get(a)!.some((x) => input.get(b)!.includes(x))) assert.equal(groupOf.get(a), groupOf.get(b));
      // Minimal: two groups never share an address.
      const owner = new Map<string, number>();
      groups.forEach((g, i) => {
        for (const h of g.hosts)
          for (const x of input.get(h)!) {
            assert.ok(!owner.has(x) || owner.get(x) === i);
            owner.set(x, i);
          }
        for (const k of g.keys) assert.ok(g.hosts.some((h) => input.get(h)!.includes(k)));
      });
    }),
  );
});

test('registeredDomain: the Public Suffix List, private suffixes included', () => {
  assert.equal(registeredDomain('a.co.uk'), 'a.co.uk');
  assert.equal(registeredDomain('www.a.co.uk'), 'a.co.uk');
  assert.notEqual(registeredDomain('a.co.uk'), registeredDomain('b.co.uk'));
  assert.equal(registeredDomain('x.github.io'), 'x.github.io');
  assert.notEqual(registeredDomain('x.github.io'), registeredDomain('y.github.io'));
  assert.equal(registeredDomain('shop.example.com:8080'), 'example.com');
  assert.equal(registeredDomain('127.0.0.1:8080'), null);
  assert.equal(registeredDomain('[::1]'), null);
  assert.equal(registeredDomain('co.uk'), null);
});

test('groupByDomain: one group per registered domain; literals and suffixes alone', () => {
  assert.deepEqual(
    groupByDomain([
      'www.example.com',
      'a.co.uk',
      'shop.example.com',
      'b.co.uk',
      '127.0.0.1',
      'x.github.io',
      'y.github.io',
    ]),
    [
      { keys: ['example.com'], hosts: ['www.example.com', 'shop.example.com'] },
      { keys: ['a.co.uk'], hosts: ['a.co.uk'] },
      { keys: ['b.co.uk'], hosts: ['b.co.uk'] },
      { keys: ['127.0.0.1'], hosts: ['127.0.0.1'] },
      { keys: ['x.github.io'], hosts: ['x.github.io'] },
      { keys: ['y.github.io'], hosts: ['y.github.io'] },
    ],
  );
});

test('parseAddressOverride: HOST=IP[,IP], curl HOST:PORT:IP, and clear problems', () => {
  assert.deepEqual(parseAddressOverride('Shop.Example=127.0.0.5'), {
    hostname: 'shop.example',
    port: null,
    addresses: ['127.0.0.5'],
  });
  assert.deepEqual(parseAddressOverride('a.example:8443:[::1],127.0.0.2'), {
    hostname: 'a.example',
    port: 8443,
    addresses: ['::1', '127.0.0.2'],
  });
  assert.deepEqual(parseAddressOverride('a.example'), { problem: 'must be HOST=IP or HOST:PORT:IP' });
  assert.deepEqual(parseAddressOverride('a.example=nope'), { problem: '"nope" is not an IP address' });
  assert.deepEqual(parseAddressOverride('a b=127.0.0.1'), { problem: '"a b" is not a host name' });
  assert.deepEqual(parseAddressOverride('127.0.0.1=127.0.0.2'), { problem: '"127.0.0.1" is not a host name' });
  assert.deepEqual(parseAddressOverride('a.example:0:127.0.0.1'), { problem: 'port 0 is not 1-65535' });
});

test('AddressOverrides: a port entry wins for its port; a later entry replaces an earlier one', () => {
  const o = new AddressOverrides(
    ['a.example=10.0.0.1', 'a.example:8080:10.0.0.2', 'b.example:443:10.0.0.3', 'a.example=10.0.0.4'].map(
      (t) => parseAddressOverride(t) as AddressOverride,
    ),
  );
  assert.deepEqual(o.addressesFor('a.example', 8080), ['10.0.0.2']);
  assert.deepEqual(o.addressesFor('A.example.', 80), ['10.0.0.4']);
  assert.deepEqual(o.addressesFor('b.example', null), ['10.0.0.3']);
  assert.equal(o.addressesFor('b.example', 80), undefined);
  assert.equal(o.addressesFor('c.example', null), undefined);
  assert.equal(o.size, 3);
});
