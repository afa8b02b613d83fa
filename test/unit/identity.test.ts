/**
 * How the crawler identifies itself (src/core/identity.ts, src/net/userAgent.ts, src/cli/contact.ts):
 * the User-Agent header with and without a contact, which contacts are accepted, which hosts are real
 * (not this machine), and the CLI's warning line and --require-contact refusal.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  contactProblem,
  DEFAULT_PRODUCT_TOKEN,
  hostList,
  isLocalHostname,
  realHosts,
  VERSION,
} from '../../src/core/identity';
import { userAgentHeader } from '../../src/net/userAgent';
import { UsageError, type Io } from '../../src/cli/args';
import { checkContact, contactOption, NO_CONTACT_WARNING } from '../../src/cli/contact';

describe('the User-Agent header', () => {
  it('without a contact is <token>/<version>, and nothing else', () => {
    assert.equal(userAgentHeader(DEFAULT_PRODUCT_TOKEN), `CrawlPlanner/${VERSION}`);
    assert.equal(userAgentHeader('CrawlPlanner', ''), `CrawlPlanner/${VERSION}`);
    assert.equal(userAgentHeader('FooBot', '   '), `FooBot/${VERSION}`);
  });

  it('with a contact is <token>/<version> (+<contact>), an http(s) URL or a mailto: address', () => {
    assert.equal(userAgentHeader('FooBot', 'https://ops.example/bot'), `FooBot/${VERSION} (+https://ops.example/bot)`);
    assert.equal(userAgentHeader('FooBot', ' mailto:ops@example.com '), `FooBot/${VERSION} (+mailto:ops@example.com)`);
  });

  it('refuses a bad token or a bad contact with a TypeError naming the rule', () => {
    assert.throws(
      () => userAgentHeader('Foo Bot'),
      (e: Error) => e instanceof TypeError && /RFC 9309/.test(e.message),
    );
    assert.throws(
      () => userAgentHeader('FooBot', 'ftp://ops.example/'),
      (e: Error) => e instanceof TypeError && /http\(s\) URL or a mailto: address/.test(e.message),
    );
    // A contact that would break out of "(+…)" or the header line.
    for (const bad of ['https://ops.example/) evil (', 'https://ops.example/\r\nX-Injected: 1', 'mailto:a@b (x)']) {
      assert.throws(() => userAgentHeader('FooBot', bad), TypeError, bad);
    }
  });
});

describe('contactProblem', () => {
  it('accepts absolute http(s) URLs with a host and single mailto: addresses', () => {
    for (const ok of [
      'https://ops.example/bot',
      'http://ops.example',
      'HTTPS://OPS.EXAMPLE/Bot?x=1',
      'mailto:ops@example.com',
      'mailto:ops@example.com?subject=crawl',
    ]) {
      assert.equal(contactProblem(ok), undefined, ok);
    }
  });

  const refused: Array<[string, RegExp]> = [
    ['', /empty/],
    ['ops.example/bot', /must be an absolute http\(s\) URL or a mailto: address/],
    ['ftp://ops.example/', /ftp: is neither/],
    ['javascript:alert(1)', /parentheses/],
    ['mailto:ops', /mailto: takes one address/],
    ['mailto:a@example.com,b@example.com', /mailto: takes one address/],
    ['https://ops.example/a b', /without spaces, parentheses or control characters/],
    ['https://ops.example/\u0007', /control characters/],
    [`https://ops.example/${'x'.repeat(2100)}`, /longer than 2048 characters/],
  ];
  for (const [text, reason] of refused) {
    it(`refuses ${JSON.stringify(text.slice(0, 40))}`, () => {
      const problem = contactProblem(text);
      assert.ok(problem !== undefined && reason.test(problem), problem);
      assert.ok(!problem.includes('\n') && problem.length < 300, 'one short line');
    });
  }
});

describe('real hosts', () => {
  it('this machine is not a real host: loopback, localhost names, the unspecified address', () => {
    for (const h of [
      '127.0.0.1',
      '127.0.0.31',
      '127.255.255.254',
      'localhost',
      'LOCALHOST.',
      'demo.localhost',
      '[::1]',
      '[::]',
      '0.0.0.0',
    ]) {
      assert.equal(isLocalHostname(h), true, h);
    }
    // The WHATWG parser writes these forms of loopback as 127.0.0.1 and [::ffff:7f00:1].
    assert.deepEqual(realHosts(['http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:127.0.0.1]/']), []);
  });

  it('any other host is real', () => {
    for (const h of [
      'example.com',
      '128.0.0.1',
      '126.255.255.255',
      '192.0.2.2',
      '224.0.0.1',
      'localhost.example.com',
      'mylocalhost',
      '[2001:db8::1]',
      '[::2]',
    ]) {
      assert.equal(isLocalHostname(h), false, h);
    }
  });

  it('realHosts: the distinct real hosts of the http(s) URLs, ports kept, others skipped', () => {
    const urls = [
      'https://a.example/x',
      'http://127.0.0.1:8470/',
      'https://a.example/y',
      'http://b.example:8080/',
      'ftp://c.example/',
      'not a url',
      'http://localhost:3000/',
    ];
    assert.deepEqual(realHosts(urls), ['a.example', 'b.example:8080']);
  });

  it('hostList names two hosts and counts the rest', () => {
    assert.equal(hostList(['a']), 'a');
    assert.equal(hostList(['a', 'b']), 'a and b');
    assert.equal(hostList(['a', 'b', 'c']), 'a, b and 1 more host');
    assert.equal(hostList(['a', 'b', 'c', 'd']), 'a, b and 2 more hosts');
  });
});

describe('the CLI: --contact and the warning before a real host', () => {
  const io = () => {
    const err: string[] = [];
    const value: Io = { out: () => undefined, err: (t) => err.push(t), color: false };
    return { io: value, err };
  };

  it('--contact: trimmed; absent or empty is no contact; a bad one is a one-line UsageError', () => {
    assert.equal(contactOption(undefined), '');
    assert.equal(contactOption(''), '');
    assert.equal(contactOption(' mailto:ops@example.com '), 'mailto:ops@example.com');
    assert.throws(
      () => contactOption('ftp://x'),
      (e: Error) =>
        e instanceof UsageError && /^--contact: "ftp:\/\/x" must be an absolute http\(s\) URL/.test(e.message),
    );
  });

  it('no contact and a real host: exactly one warning line', () => {
    const { io: value, err } = io();
    checkContact('crawl', '', ['a.example'], false, value);
    assert.deepEqual(err, [`crawl-planner crawl: warning: ${NO_CONTACT_WARNING}\n`]);
    assert.equal(NO_CONTACT_WARNING, 'no contact set: site operators cannot reach you; pass --contact URL');
  });

  it('nothing to say with a contact, or with no real host', () => {
    const { io: value, err } = io();
    checkContact('crawl', 'https://ops.example/', ['a.example'], true, value);
    checkContact('crawl', 'https://ops.example/', 'any', true, value);
    checkContact('robots', '', [], true, value);
    assert.deepEqual(err, []);
  });

  it('--require-contact refuses instead, naming the hosts (or that any host may be reached)', () => {
    const { io: value, err } = io();
    assert.throws(
      () => checkContact('crawl', '', ['a.example', 'b.example', 'c.example'], true, value),
      (e: Error) =>
        e instanceof UsageError &&
        e.message ===
          '--require-contact: no contact set (this would reach a.example, b.example and 1 more host); pass --contact URL',
    );
    assert.throws(() => checkContact('crawl', '', 'any', true, value), /may follow links to any host/);
    checkContact('crawl', '', 'any', false, value);
    assert.equal(err.length, 1, 'a crawl that may reach any host warns too');
  });
});
