/** decodeRobotsBody: byte order marks, the parsing limit, invalid UTF-8 and NUL bytes. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRobotsBody, explain, loadRobotsFile, ROBOTS_MAX_BYTES } from '../../src/core/robots';

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...new TextEncoder().encode(p)] : p)));
const codes = (d: { findings: { line: number; code: string }[] }) => d.findings.map((f) => `${f.line}:${f.code}`);

describe('byte order marks at offset 0 (as Google: full and partial)', () => {
  const table: [name: string, prefix: number[], bom: string, text: string, findings: string[]][] = [
    ['none', [], 'none', 'User-agent: *', []],
    ['EF BB BF', [0xef, 0xbb, 0xbf], 'full', 'User-agent: *', ['1:utf8-bom']],
    ['EF BB', [0xef, 0xbb], 'partial', 'User-agent: *', ['1:partial-bom']],
    ['EF', [0xef], 'partial', 'User-agent: *', ['1:partial-bom']],
    [
      'EF 11 BF (broken)',
      [0xef, 0x11, 0xbf],
      'partial',
      '\u0011\uDCBFUser-agent: *',
      ['1:partial-bom', '1:invalid-utf8'],
    ],
    [
      'EF BB BF EF BB BF (second BOM kept)',
      [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf],
      'full',
      '\uFEFFUser-agent: *',
      ['1:utf8-bom'],
    ],
  ];
  for (const [name, prefix, bom, text, findings] of table) {
    it(name, () => {
      const d = decodeRobotsBody(bytes(prefix, 'User-agent: *'));
      assert.equal(d.bom, bom);
      assert.equal(d.text, text);
      assert.deepEqual(codes(d), findings);
    });
  }
  it('a BOM in the middle of the file is an ordinary character', () => {
    assert.equal(decodeRobotsBody(bytes('a\n', [0xef, 0xbb, 0xbf], 'b')).text, 'a\n\uFEFFb');
  });
  it('a string input is read as its UTF-8 bytes (a leading U+FEFF is a BOM)', () => {
    const d = decodeRobotsBody('\uFEFFUser-agent: *\nDisallow: /ツ\n');
    assert.deepEqual([d.bom, d.text, d.bytes], ['full', 'User-agent: *\nDisallow: /ツ\n', 3 + 29]);
  });
});

describe('the parsing limit (RFC 9309 §2.5: 500 KiB)', () => {
  it('defaults to 512,000 bytes', () => assert.equal(ROBOTS_MAX_BYTES, 512_000));

  const table: [body: string, max: number, text: string, parsedBytes: number, truncated: boolean][] = [
    ['ab\ncd\nef', 100, 'ab\ncd\nef', 8, false],
    ['ab\ncd\nef', 8, 'ab\ncd\nef', 8, false],
    ['ab\ncd\nefgh', 8, 'ab\ncd\n', 6, true], // partial last line dropped
    ['ab\ncd\nef', 5, 'ab\ncd', 5, true], // cut falls exactly on a line end: nothing dropped
    ['ab\r\ncd', 3, 'ab\r', 3, true], // cut inside CRLF: the CR already ends the line
    ['abcdef', 3, '', 0, true], // one line longer than the limit: nothing left
  ];
  for (const [body, max, text, parsedBytes, truncated] of table) {
    it(`${JSON.stringify(body)} with limit ${max} → ${JSON.stringify(text)}`, () => {
      const d = decodeRobotsBody(body, max);
      assert.deepEqual([d.text, d.parsedBytes, d.truncated, d.bytes], [text, parsedBytes, truncated, body.length]);
      assert.equal(
        d.findings.some((f) => f.code === 'truncated'),
        truncated,
      );
    });
  }
  it('the truncated finding points at the first unparsed line', () => {
    const d = decodeRobotsBody('a\nb\nccc', 5);
    assert.deepEqual(codes(d), ['3:truncated']);
  });
});

describe('invalid UTF-8 and NUL bytes', () => {
  it('invalid bytes are kept as U+DC80+byte and reported per line', () => {
    const d = decodeRobotsBody(bytes('User-agent: *\nDisallow: /caf', [0xe9], '\nDisallow: /ok\n', [0xc3, 0x28]));
    assert.equal(d.text, 'User-agent: *\nDisallow: /caf\uDCE9\nDisallow: /ok\n\uDCC3(');
    assert.deepEqual(codes(d), ['2:invalid-utf8', '4:invalid-utf8']);
  });
  it("a Latin-1 rule matches the URL written with that byte (%E9), as Google's byte matcher does", () => {
    const f = loadRobotsFile(bytes('User-agent: *\nDisallow: /caf', [0xe9], '\n'), {
      robotsUrl: 'http://a.test/robots.txt',
    });
    assert.equal(explain(f, 'http://a.test/caf%E9', 'bot').verdict, 'disallowed');
    assert.equal(explain(f, 'http://a.test/caf%C3%A9', 'bot').verdict, 'allowed');
  });
  it('valid astral characters are not mistaken for invalid bytes', () => {
    const d = decodeRobotsBody(bytes('Disallow: /\u{10080}\n', [0xff]));
    assert.deepEqual(codes(d), ['2:invalid-utf8']);
  });
  it('overlong and surrogate encodings are invalid', () => {
    for (const seq of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xf0, 0x9f, 0x98],
    ]) {
      const d = decodeRobotsBody(bytes('/', seq));
      assert.deepEqual(codes(d), ['1:invalid-utf8'], seq.join(' '));
      assert.equal(d.text.length, 1 + seq.length);
    }
  });
  it('NUL bytes are reported per line (and, in the first KiB, make the file not-text)', () => {
    assert.deepEqual(codes(decodeRobotsBody('a\0\nb\nc\0\0')), ['1:not-text', '1:nul-byte', '3:nul-byte']);
  });
});
