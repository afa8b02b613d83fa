/**
 * Seed hygiene (src/core/seedHygiene.ts, validateSeeds in src/core/seeds.ts): credentials removed and noted,
 * IP literals in another form shown normalised, local addresses noted unless expected, invisible characters
 * flagged and escaped, duplicates counted; and the one line rule (blank and comment lines skipped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  escapeInvisible,
  invisibleCharacters,
  localAddressKind,
  redactCredentials,
  writtenHost,
} from '../../src/core/seedHygiene';
import { countSeedLines, parseSeedUrl, seedLinesFromText, seedNotesByCode, validateSeeds } from '../../src/core/seeds';

const at = (...texts: string[]) => texts.map((text, i) => ({ text, line: i + 1 }));

test('credentials: removed from the seed URL, noted, and never in the note or an invalid line', () => {
  assert.deepEqual(parseSeedUrl('http://user:pass@cred.example/x'), {
    url: 'http://cred.example/x',
    host: 'cred.example',
    origin: 'http://cred.example',
    credentials: 'both',
  });
  assert.deepEqual(parseSeedUrl('https://user@cred.example/'), {
    url: 'https://cred.example/',
    host: 'cred.example',
    origin: 'https://cred.example',
    credentials: 'user',
  });
  assert.deepEqual(parseSeedUrl('https://:secret@cred.example:8443/'), {
    url: 'https://cred.example:8443/',
    host: 'cred.example:8443',
    origin: 'https://cred.example:8443',
    credentials: 'password',
  });
  const v = validateSeeds(at('http://user:pass@cred.example/', 'ftp://u:p@files.example/'));
  assert.deepEqual(
    v.seeds.map((s) => s.url),
    ['http://cred.example/'],
  );
  assert.deepEqual(
    v.invalid.map((s) => s.text),
    ['ftp://files.example/'],
  );
  assert.deepEqual(
    v.notes.map((n) => [n.code, n.line, n.text, n.message]),
    [
      ['credentials', 1, 'http://cred.example/', 'user name and password removed from the URL'],
      ['credentials', 2, 'ftp://files.example/', 'user name and password removed'],
    ],
  );
  assert.doesNotMatch(JSON.stringify(v), /user:|:pass@|u:p@/);
});

test('redactCredentials: the user info of the authority only; a URL without it is unchanged', () => {
  assert.equal(redactCredentials('http://a:b@c.example/@x'), 'http://c.example/@x');
  assert.equal(redactCredentials('https://x.example/path@y'), 'https://x.example/path@y');
  assert.equal(redactCredentials('HTTP:\\\\u:p@h.example\\'), 'HTTP:\\\\h.example\\');
  assert.equal(redactCredentials('not a url'), 'not a url');
  // mailto: has no authority; http: has one even without slashes (the URL parser reads it so).
  assert.equal(redactCredentials('mailto:x@y.example'), 'mailto:x@y.example');
  assert.equal(redactCredentials('http:u:p@h.example/'), 'http:h.example/');
  assert.equal(redactCredentials('custom://u@h.example/'), 'custom://h.example/');
});

test('IP literals: hex, octal, dotted or not, percent-encoded, full-width and IPv6 forms are shown normalised', () => {
  const forms: Array<[string, string]> = [
    ['http://0x7f.1/', '0x7f.1 is the IP address 127.0.0.1'],
    ['http://2130706433/', '2130706433 is the IP address 127.0.0.1'],
    ['http://0177.0.0.1/', '0177.0.0.1 is the IP address 127.0.0.1'],
    ['http://127.1:8080/', '127.1 is the IP address 127.0.0.1'],
    ['http://0x0A.0.0.1/', '0x0a.0.0.1 is the IP address 10.0.0.1'],
    ['http://%31%32%37.0.0.1/', '%31%32%37.0.0.1 is the IP address 127.0.0.1'],
    ['http://\uff11\uff12\uff17.0.0.1/', '\uff11\uff12\uff17.0.0.1 is the IP address 127.0.0.1'],
    ['http://[0:0:0:0:0:0:0:1]/', '[0:0:0:0:0:0:0:1] is the IP address [::1]'],
    ['http://[::ffff:10.0.0.1]/', '[::ffff:10.0.0.1] is the IP address [::ffff:a00:1]'],
  ];
  for (const [text, message] of forms) {
    const notes = validateSeeds(at(text)).notes.filter((n) => n.code === 'ip-literal');
    assert.deepEqual(
      notes.map((n) => n.message),
      [message],
      text,
    );
  }
  // Written as the address it is: nothing to say.
  for (const text of [
    'http://93.184.216.34/',
    'http://[2001:db8::1]/',
    'http://127.0.0.1:8080/',
    'https://0x7f.example/',
  ]) {
    assert.deepEqual(
      validateSeeds(at(text)).notes.filter((n) => n.code === 'ip-literal'),
      [],
      text,
    );
  }
});

test('writtenHost: the host as typed, without user info, port or trailing dot', () => {
  assert.equal(writtenHost(' http://u:p@0x7F.1:80/x '), '0x7f.1');
  assert.equal(writtenHost('http://[::1]:8080/'), '[::1]');
  assert.equal(writtenHost('http://10.0.0.1./'), '10.0.0.1');
  assert.equal(writtenHost('no scheme here'), undefined);
});

test('local addresses: loopback, unspecified, private and link-local are noted; public ones are not', () => {
  const kinds: Array<[string, string]> = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['[::1]', 'loopback'],
    ['[::ffff:7f00:1]', 'loopback'],
    ['localhost', 'loopback'],
    ['app.localhost', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['[::]', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'private'],
    ['[fd00::1]', 'private'],
    ['[::ffff:a00:1]', 'private'],
    ['db.internal', 'private'],
    ['router.home.arpa', 'private'],
    ['169.254.169.254', 'link-local'],
    ['[fe80::1]', 'link-local'],
    ['printer.local', 'link-local'],
  ];
  for (const [host, kind] of kinds) assert.equal(localAddressKind(host), kind, host);
  for (const host of [
    '93.184.216.34',
    '172.32.0.1',
    '172.15.0.1',
    '192.169.0.1',
    '100.128.0.1',
    '[2001:db8::1]',
    '[::2]',
    'example.com',
    'localhost.example.com',
    'local',
  ]) {
    assert.equal(localAddressKind(host), undefined, host);
  }
  const v = validateSeeds(
    at('http://0x7f.1/', 'http://192.168.0.10:8080/x', 'http://169.254.169.254/latest/', 'https://example.com/'),
  );
  assert.deepEqual(
    v.notes.filter((n) => n.code === 'local-address').map((n) => [n.line, n.kind, n.message]),
    [
      [1, 'loopback', '127.0.0.1 is a loopback address: this machine'],
      [2, 'private', '192.168.0.10 is a private network address'],
      [3, 'link-local', '169.254.169.254 is a link-local address'],
    ],
  );
});

test('local addresses: hosts expected to be local (the demo hosts) get no note; other ports of them do', () => {
  const expectedLocalHosts = new Set(['127.0.0.11:8470', '127.0.0.12:8470']);
  const v = validateSeeds(at('http://127.0.0.11:8470/', 'http://127.0.0.12:8470/page/1', 'http://127.0.0.11:9999/'), {
    expectedLocalHosts,
  });
  assert.deepEqual(
    v.notes.map((n) => [n.code, n.line]),
    [['local-address', 3]],
  );
});

test('invisible characters: flagged by name and shown escaped, valid seed or not', () => {
  const rlo = '\u202Ehttp://a.example/';
  const v = validateSeeds(
    at(rlo, 'http://a\u200B.example/', 'http://b.example/\u2066x\u2069', 'http://c.example/a\tb'),
  );
  assert.deepEqual(
    v.invalid.map((s) => [s.line, s.reason]),
    [[1, 'not-a-url']],
  );
  assert.deepEqual(
    v.notes.map((n) => [n.line, n.code, n.text, n.message]),
    [
      [1, 'invisible-characters', '\\u202Ehttp://a.example/', 'hidden characters: U+202E (right-to-left override)'],
      [2, 'invisible-characters', 'http://a\\u200B.example/', 'hidden characters: U+200B (zero-width space)'],
      [
        3,
        'invisible-characters',
        'http://b.example/\\u2066x\\u2069',
        'hidden characters: U+2066 (left-to-right isolate), U+2069 (pop directional isolate)',
      ],
      [4, 'invisible-characters', 'http://c.example/a\\u0009b', 'hidden characters: U+0009 (tab)'],
    ],
  );
  // The zero-width space vanishes from the host the URL parser reads: the seed is a.example.
  assert.equal(v.seeds[0]!.host, 'a.example');
  assert.deepEqual(invisibleCharacters('a\u{E0041}b\u00ADc'), ['U+E0041', 'U+00AD (soft hyphen)']);
  assert.equal(escapeInvisible('a\u{E0041}b\u00ADc\u001b[2J'), 'a\\u{E0041}b\\u00ADc\\u001B[2J');
  assert.equal(escapeInvisible('plain https://a.example/ text'), 'plain https://a.example/ text');
});

test('duplicates: a seed URL an earlier line gave is counted (after normalisation) and kept', () => {
  const v = validateSeeds(
    at(
      'https://a.example/',
      'HTTPS://A.example:443/',
      'https://a.example/#frag',
      'https://a.example/x',
      'https://b.example/',
      'https://user@b.example/',
    ),
  );
  assert.equal(v.duplicates, 3);
  assert.equal(v.seeds.length, 6);
  assert.equal(validateSeeds(at('https://a.example/', 'https://a.example/x')).duplicates, 0);
});

test('seedNotesByCode: counts per code and the first notes of each, in the report order', () => {
  const v = validateSeeds(at('http://10.0.0.1/', 'http://10.0.0.2/', 'http://10.0.0.3/', 'http://u:p@x.example/'));
  assert.deepEqual(
    seedNotesByCode(v.notes, 2).map((g) => [g.code, g.count, g.notes.map((n) => n.line)]),
    [
      ['credentials', 1, [4]],
      ['local-address', 3, [1, 2]],
    ],
  );
});

test('seed lines: blank lines, comments and a trailing newline are not lines; numbers are positions', () => {
  const text = '\uFEFFhttps://a.example/\n\n# a comment\r\nhttps://b.example/ # why\r  \nhttps://c.example/\n';
  assert.deepEqual(seedLinesFromText(text), [
    { text: 'https://a.example/', line: 1 },
    { text: 'https://b.example/', line: 4 },
    { text: 'https://c.example/', line: 6 },
  ]);
  assert.equal(countSeedLines(text), 3);
  assert.equal(countSeedLines(''), 0);
  assert.equal(countSeedLines('\n\n'), 0);
  const thousand = Array.from({ length: 1000 }, (_, i) => `https://h${i}.example/`).join('\n') + '\n';
  assert.equal(countSeedLines(thousand), 1000);
  assert.deepEqual(seedLinesFromText('https://a.example/', 'seeds.txt'), [
    { text: 'https://a.example/', line: 1, source: 'seeds.txt' },
  ]);
});
