/**
 * jsonPieces (src/core/format/json.ts): the `estimate --json` document is written in pieces, and the pieces
 * together must be exactly the text JSON.stringify(value, null, indent) gives, whatever the value.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { jsonPieces } from '../../src/core/format/json';

const joined = (value: unknown, indent?: number, depth?: number) => [...jsonPieces(value, indent, depth)].join('');

test('the pieces are JSON.stringify(value, null, indent) for any value, indent and depth', () => {
  // fc.anything: nested objects (null-prototype ones too) and arrays, -0, NaN, ±Infinity, undefined in
  // objects and arrays, keys such as "__proto__", and boxed values.
  const value = fc.anything({ withBoxedValues: true, withNullPrototype: true, withObjectString: true, maxDepth: 4 });
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 5 }), (v, indent, depth) => {
      assert.equal(joined(v, indent, depth), JSON.stringify(v, null, indent) ?? '');
    }),
    { numRuns: 3_000 },
  );
});

test('toJSON, Dates, functions and symbols follow JSON.stringify', () => {
  const v = {
    at: new Date(0),
    custom: { toJSON: () => ({ replaced: [1, 2] }) },
    fn: () => 1,
    sym: Symbol('s'),
    list: [undefined, () => 1, Symbol('t'), Number.NaN, { a: undefined }],
    nested: { deeper: { deepest: [{ x: 'line\nbreak' }] } },
  };
  for (const depth of [0, 1, 2, 3, 6]) assert.equal(joined(v, 2, depth), JSON.stringify(v, null, 2));
  assert.equal(joined(undefined), '');
  assert.equal(
    joined(() => 1),
    '',
  );
});

test('a large document comes in pieces of 64 K characters and at most one batch of 64 items more', () => {
  const doc = {
    hosts: Array.from({ length: 20_000 }, (_, i) => ({ host: `h${i}.example`, pages: i, skipped: false })),
  };
  const itemChars = JSON.stringify(doc.hosts[19_999], null, 2).length + 20;
  const pieces = [...jsonPieces(doc)];
  assert.ok(pieces.length > 10, `${pieces.length} pieces`);
  for (const p of pieces.slice(0, -1))
    assert.ok(p.length >= 1 << 16 && p.length <= (1 << 16) + 64 * itemChars, `${p.length}`);
  assert.equal(pieces.join(''), JSON.stringify(doc, null, 2));
});
