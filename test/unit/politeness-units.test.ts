import { test } from 'node:test';
import assert from 'node:assert/strict';
import { politenessUnits, isPolitenessBy } from '../../src/core/servers/units';

const hosts = ['shop.example.com', 'blog.example.com', 'a.co.uk', 'b.co.uk', 'x.github.io', '127.0.0.9:8080'];
const addresses = {
  'shop.example.com': ['127.0.0.5'],
  'blog.example.com': ['127.0.0.5', '127.0.0.6'],
  'a.co.uk': ['127.0.0.6'],
  'b.co.uk': ['127.0.0.7'],
  'x.github.io': ['127.0.0.7'],
};

test('host: every host is its own unit, named by itself', () => {
  const u = politenessUnits(hosts, 'host', addresses);
  assert.equal(u.units.length, hosts.length);
  assert.equal(u.grouped, false);
  for (const h of hosts) assert.equal(u.unitOf(h), h);
});

test('ip: hosts sharing any address are one unit (union-find), named by the shared addresses', () => {
  const u = politenessUnits(hosts, 'ip', addresses);
  assert.deepEqual(
    u.units.map((x) => [x.name, x.hosts]),
    [
      ['127.0.0.5+127.0.0.6', ['shop.example.com', 'blog.example.com', 'a.co.uk']],
      ['127.0.0.7', ['b.co.uk', 'x.github.io']],
      ['127.0.0.9:8080', ['127.0.0.9:8080']],
    ],
  );
  assert.equal(u.unitOf('a.co.uk'), '127.0.0.5+127.0.0.6');
  assert.deepEqual(u.membersOf('x.github.io'), ['b.co.uk', 'x.github.io']);
  // An IP-literal seed is its own address: it joins the names on it (one server), given or not.
  const givens: Array<Record<string, string[]>> = [{ '127.0.0.5:8080': ['127.0.0.5'] }, {}];
  for (const given of givens) {
    const literal = politenessUnits(['127.0.0.5:8080', 'shop.example.com', 'blog.example.com'], 'ip', {
      ...addresses,
      ...given,
    });
    assert.equal(literal.unitOf('127.0.0.5:8080'), literal.unitOf('shop.example.com'));
    assert.deepEqual(literal.membersOf('127.0.0.5:8080'), ['127.0.0.5:8080', 'shop.example.com', 'blog.example.com']);
  }
  // Not given, or without addresses: its own unit.
  assert.equal(u.unitOf('other.example'), 'other.example');
  assert.equal(politenessUnits(['a.example', 'b.example'], 'ip').units.length, 2);
});

test('domain: one registered domain is one unit; co.uk and github.io sites stay apart', () => {
  const u = politenessUnits(hosts, 'domain');
  assert.equal(u.unitOf('shop.example.com'), 'example.com');
  assert.equal(u.unitOf('blog.example.com'), 'example.com');
  assert.equal(u.unitOf('a.co.uk'), 'a.co.uk');
  assert.equal(u.unitOf('x.github.io'), 'x.github.io');
  assert.equal(u.unitOf('127.0.0.9:8080'), '127.0.0.9:8080');
  assert.equal(u.units.length, 5);
});

test('the units are a partition of the hosts given, in every mode', () => {
  for (const by of ['host', 'ip', 'domain'] as const) {
    const u = politenessUnits([...hosts, ...hosts], by, addresses);
    const members = u.units.flatMap((x) => x.hosts);
    assert.deepEqual([...members].sort(), [...hosts].sort(), by);
    assert.equal(new Set(u.units.map((x) => x.name)).size, u.units.length, by);
  }
  assert.equal(isPolitenessBy('ip'), true);
  assert.equal(isPolitenessBy('byIP'), false);
});
