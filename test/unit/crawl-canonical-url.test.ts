import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { canonicalHttpHost } from '../../src/core/crawl/canonicalUrl';

/** What the parser says: the href and host of an http(s) URL, or undefined. */
function parsed(text: string): { href: string; host: string } | undefined {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:' ? { href: u.href, host: u.host } : undefined;
  } catch {
    return undefined;
  }
}

let fastTaken = 0;

function agrees(text: string): void {
  const host = canonicalHttpHost(text);
  if (host === undefined) return;
  fastTaken++;
  const slow = parsed(text);
  assert.ok(slow, `fast road took ${JSON.stringify(text)}, which the parser refuses`);
  assert.equal(text, slow.href, `href of ${JSON.stringify(text)}`);
  assert.equal(host, slow.host, `host of ${JSON.stringify(text)}`);
}

const taken = [
  'https://www.host-1.example/articles/0/page-1.html',
  'http://127.0.0.11:8470/page/3',
  'http://a.example:8080/x?y=1&z=%41',
  'https://a.example//double//slash/',
  'http://a.example/.well-known/x',
  'http://a.example/..x/x..',
  'http://a.example/?q=./../%2e',
  'http://0.0.0.0:0/',
];
for (const text of taken) {
  test(`canonical URL: ${text} takes the fast road and agrees with the parser`, () => {
    assert.ok(canonicalHttpHost(text) !== undefined, text);
    agrees(text);
  });
}

const refused = [
  'HTTP://a.example/',
  'http://A.example/',
  'http://a.example',
  'http://a.example:80/',
  'https://a.example:443/',
  'http://a.example:080/',
  'http://a.example:/',
  'http://a.example/./x',
  'http://a.example/x/..',
  'http://a.example/x/%2e/y',
  'http://a.example/x/%2E%2E',
  'http://a.example/x#frag',
  'http://user@a.example/',
  'http://a.123/',
  'http://127.1/',
  'http://0x7f.0.0.1/',
  'http://127.0.0.011/',
  'http://xn--nxasmq6b.example/',
  'http://a..example/',
  'http://-a.example/',
  'http://a.example/ x',
  'http://a.example/\tx',
  'http://a.example/\\x',
  "http://a.example/?it's",
  'ftp://a.example/',
  'http://a.example/é',
];
for (const text of refused) {
  test(`canonical URL: ${JSON.stringify(text)} is left to the parser`, () => {
    assert.equal(canonicalHttpHost(text), undefined);
  });
}

test('canonical URL: on random URL-like text, the fast road never disagrees with the parser', () => {
  const piece = fc.constantFrom(
    'http://',
    'https://',
    'a',
    'b',
    'Z',
    '0',
    '1',
    '9',
    '255',
    '256',
    '.',
    '..',
    '-',
    '_',
    ':',
    '80',
    '443',
    '8080',
    '/',
    '//',
    '?',
    '#',
    '%',
    '%2e',
    '%2E',
    '%41',
    'xn--',
    '@',
    ' ',
    '\t',
    '\\',
    "'",
    '"',
    '<',
    '~',
    '!',
    '$',
    '&',
    '(',
    ')',
    '*',
    '+',
    ',',
    ';',
    '=',
    'é',
    '[',
    ']',
    '|',
    '^',
    '`',
    '{',
  );
  fc.assert(
    fc.property(
      fc.array(piece, { minLength: 1, maxLength: 14 }),
      fc.constantFrom('http://', 'https://'),
      fc.constantFrom('a.example', 'b.c', '127.0.0.1', 'x'),
      (parts, scheme, host) => {
        agrees(scheme + parts.join(''));
        agrees(parts.join(''));
        agrees(`${scheme}${host}/${parts.join('')}`);
      },
    ),
    { numRuns: 20_000 },
  );
  // The property is not vacuous: a good share of the random text took the fast road.
  assert.ok(fastTaken > 1000, `only ${fastTaken} inputs took the fast road`);
});
