import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  displayWidth,
  fit,
  pad,
  renderTable,
  sanitizeText,
  stripAnsi,
  truncate,
  type TableColumn,
} from '../../src/core/format/table';

describe('sanitizeText', () => {
  const cases: Array<[string, string, string]> = [
    ['plain text is kept', 'GET /a/b?q=1', 'GET /a/b?q=1'],
    ['ESC of a CSI sequence is removed', 'x\x1b[2Jy', 'x[2Jy'],
    ['OSC title sequence loses ESC and BEL', '\x1b]0;pwned\x07ok', ']0;pwnedok'],
    ['one-byte C1 CSI is removed', 'a\u009b31mb', 'a31mb'],
    ['DEL and backspace are removed', 'ab\x08\x7fc', 'abc'],
    ['newlines and tabs become spaces', 'a\r\nb\tc', 'a  b c'],
    ['line/paragraph separators become spaces', 'a\u2028b\u2029c', 'a b c'],
    ['bidi overrides are removed', 'abc\u202edcb\u2066x\u2069', 'abcdcbx'],
    ['unicode text is kept', 'café 東京 ✓', 'café 東京 ✓'],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.equal(sanitizeText(input), expected));
  }

  it('never leaves a control character (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        assert.doesNotMatch(sanitizeText(s), /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
      }),
    );
  });
});

describe('displayWidth', () => {
  const cases: Array<[string, number]> = [
    ['', 0],
    ['abc', 3],
    ['\x1b[32m200\x1b[0m', 3],
    ['東京', 4],
    ['e\u0301', 1],
    ['…', 1],
  ];
  for (const [text, width] of cases) {
    it(`${JSON.stringify(text)} is ${width} wide`, () => assert.equal(displayWidth(text), width));
  }
});

describe('truncate', () => {
  const cases: Array<[string, number, 'end' | 'middle' | 'start', string]> = [
    ['abcdefghij', 20, 'end', 'abcdefghij'],
    ['abcdefghij', 10, 'end', 'abcdefghij'],
    ['abcdefghij', 6, 'end', 'abcde…'],
    ['abcdefghij', 6, 'start', '…fghij'],
    ['abcdefghij', 6, 'middle', 'abc…ij'],
    ['abcdefghij', 1, 'end', '…'],
    ['abcdefghij', 0, 'end', ''],
    ['東京都庁', 5, 'end', '東京…'],
  ];
  for (const [text, width, at, expected] of cases) {
    it(`${text} to ${width} at ${at}`, () => assert.equal(truncate(text, width, at), expected));
  }

  it('keeps colour when cutting the end and closes it', () => {
    const out = truncate('\x1b[31mabcdefghij\x1b[0m', 5);
    assert.equal(out, '\x1b[31mabcd…\x1b[0m');
    assert.equal(displayWidth(out), 5);
  });

  it('never exceeds the width (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom('end', 'middle', 'start'),
        (s, w, at) => {
          assert.ok(displayWidth(truncate(s, w, at as 'end')) <= w);
        },
      ),
    );
  });
});

describe('pad and fit', () => {
  it('pads left and right by display width', () => {
    assert.equal(pad('ab', 4), 'ab  ');
    assert.equal(pad('ab', 4, 'right'), '  ab');
    assert.equal(pad('\x1b[1mab\x1b[0m', 4, 'right'), '  \x1b[1mab\x1b[0m');
    assert.equal(pad('abcdef', 4), 'abcdef');
  });
  it('fit pads or cuts to exactly the width', () => {
    assert.equal(fit('ab', 4), 'ab  ');
    assert.equal(fit('abcdef', 4), 'abc…');
    assert.equal(fit('abcdef', 4, 'right', 'middle'), 'ab…f');
  });
});

describe('renderTable', () => {
  const columns: TableColumn[] = [
    { header: 'host', shrink: true, minWidth: 6, truncate: 'middle' },
    { header: 'req', align: 'right' },
    { header: 'note', shrink: true, minWidth: 4 },
  ];
  const rows = [
    ['a.example', 3, 'fine'],
    ['very-long-host-name.example', 120, 'dropped: retry-after-above-cap'],
  ];

  it('aligns columns, numbers to the right, with no trailing spaces', () => {
    const lines = renderTable(columns, rows);
    assert.deepEqual(lines, [
      'host                         req  note',
      'a.example                      3  fine',
      'very-long-host-name.example  120  dropped: retry-after-above-cap',
    ]);
  });

  it('shrinks the shrinkable columns, widest first, to fit the width', () => {
    const lines = renderTable(columns, rows, { width: 40 });
    for (const line of lines) assert.ok(displayWidth(line) <= 40, line);
    assert.match(lines[2]!, /…/);
    assert.match(lines[1]!, /^a\.example/);
    assert.match(lines[2]!, / 120 /);
  });

  it('stops at minWidth even when the table is still too wide', () => {
    const lines = renderTable(columns, rows, { width: 5 });
    assert.equal(displayWidth(lines[0]!), 6 + 2 + 3 + 2 + 4);
  });

  it('honours maxWidth, indent, gap, header: false and cell colour', () => {
    const lines = renderTable(
      [
        { header: 'k', maxWidth: 3 },
        { header: 'v', align: 'right' },
      ],
      [
        ['abcdef', '\x1b[32m1\x1b[0m'],
        [undefined, 22],
      ],
      { indent: '  ', gap: 1, header: false },
    );
    assert.deepEqual(lines.map(stripAnsi), ['  ab…  1', '      22']);
  });

  it('styles the header without changing its layout', () => {
    const lines = renderTable([{ header: 'a' }, { header: 'b' }], [['x', 'y']], { styleHeader: (t) => `<${t}>` });
    assert.equal(lines[0], '<a>  <b>');
  });
});
