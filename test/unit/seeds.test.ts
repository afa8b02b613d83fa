import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseSeedUrl, seedHosts, splitUrlList, validateSeeds } from '../../src/core/seeds';

const valid: Array<[string, { url: string; host: string; origin: string }]> = [
  ['https://a.example/', { url: 'https://a.example/', host: 'a.example', origin: 'https://a.example' }],
  ['http://a.example', { url: 'http://a.example/', host: 'a.example', origin: 'http://a.example' }],
  ['HTTPS://A.Example/Path?q=1', { url: 'https://a.example/Path?q=1', host: 'a.example', origin: 'https://a.example' }],
  ['https://a.example:443/x', { url: 'https://a.example/x', host: 'a.example', origin: 'https://a.example' }],
  [
    'https://a.example:8443/x',
    { url: 'https://a.example:8443/x', host: 'a.example:8443', origin: 'https://a.example:8443' },
  ],
  [
    'http://127.0.0.1:8080/',
    { url: 'http://127.0.0.1:8080/', host: '127.0.0.1:8080', origin: 'http://127.0.0.1:8080' },
  ],
  ['https://a.example/page#section', { url: 'https://a.example/page', host: 'a.example', origin: 'https://a.example' }],
  ['  https://a.example/  ', { url: 'https://a.example/', host: 'a.example', origin: 'https://a.example' }],
  [
    'http://bücher.example/',
    { url: 'http://xn--bcher-kva.example/', host: 'xn--bcher-kva.example', origin: 'http://xn--bcher-kva.example' },
  ],
  ['http://[::1]:9000/', { url: 'http://[::1]:9000/', host: '[::1]:9000', origin: 'http://[::1]:9000' }],
];

for (const [text, expected] of valid) {
  test(`parseSeedUrl accepts ${JSON.stringify(text)}`, () => {
    assert.deepEqual(parseSeedUrl(text), expected);
  });
}

const invalid: Array<[string, string]> = [
  ['', 'not-a-url'],
  ['a.example', 'not-a-url'],
  ['not a url', 'not-a-url'],
  ['http://a b.example/', 'not-a-url'],
  ['http:', 'not-a-url'],
  ['ftp://a.example/', 'not-http'],
  ['mailto:someone@a.example', 'not-http'],
  ['localhost:8080', 'not-http'],
  ['file:///etc/passwd', 'not-http'],
  ['http://./', 'no-host'],
  ['http://../x', 'no-host'],
];

for (const [text, problem] of invalid) {
  test(`parseSeedUrl refuses ${JSON.stringify(text)} as ${problem}`, () => {
    assert.deepEqual(parseSeedUrl(text), { problem });
  });
}

test('validateSeeds keeps line numbers, sources, order and duplicates; reasons are codes with messages', () => {
  const result = validateSeeds([
    { text: 'https://a.example/', line: 1, source: 'seeds.txt' },
    { text: 'nonsense', line: 3, source: 'seeds.txt' },
    { text: 'https://a.example/other', line: 4, source: 'seeds.txt' },
    { text: 'ftp://b.example/', line: 7 },
    { text: 'http://./', line: 9 },
    { text: 'http://B.example:8080/', line: 10 },
  ]);
  assert.deepEqual(result.seeds, [
    { url: 'https://a.example/', host: 'a.example', origin: 'https://a.example', line: 1, source: 'seeds.txt' },
    { url: 'https://a.example/other', host: 'a.example', origin: 'https://a.example', line: 4, source: 'seeds.txt' },
    { url: 'http://b.example:8080/', host: 'b.example:8080', origin: 'http://b.example:8080', line: 10 },
  ]);
  assert.deepEqual(result.invalid, [
    { line: 3, text: 'nonsense', reason: 'not-a-url', message: 'not a URL', source: 'seeds.txt' },
    { line: 7, text: 'ftp://b.example/', reason: 'not-http', message: 'not http/https' },
    { line: 9, text: 'http://./', reason: 'no-host', message: 'no host' },
  ]);
});

test('validateSeeds of nothing is nothing', () => {
  assert.deepEqual(validateSeeds([]), { seeds: [], invalid: [], notes: [], duplicates: 0 });
});

test('seedHosts lists distinct hosts in first-seen order', () => {
  assert.deepEqual(
    seedHosts([{ host: 'b.example' }, { host: 'a.example' }, { host: 'b.example' }, { host: 'a.example:8080' }]),
    ['b.example', 'a.example', 'a.example:8080'],
  );
});

test('splitUrlList: white space, and commas that end a URL, separate; a comma inside a URL stays', () => {
  assert.deepEqual(splitUrlList('https://a.example/ https://b.example/\n\thttps://c.example/'), [
    'https://a.example/',
    'https://b.example/',
    'https://c.example/',
  ]);
  assert.deepEqual(splitUrlList('https://a.example/, https://b.example/,https://c.example/,'), [
    'https://a.example/',
    'https://b.example/',
    'https://c.example/',
  ]);
  assert.deepEqual(splitUrlList('/a,/b /search?q=a,b'), ['/a', '/b', '/search?q=a,b']);
  assert.deepEqual(splitUrlList('https://a.example/x?tags=red,blue'), ['https://a.example/x?tags=red,blue']);
  assert.deepEqual(splitUrlList(' , '), []);
  assert.deepEqual(splitUrlList(''), []);
});
