/**
 * The sidebar's form as typed (src/shared/planner/formFields.ts, src/webview/form.ts): parseDecimal, readForm
 * and the fields it marks, formToRaw and formToRawKeeping, the saved state (an earlier version's too), a
 * deadline as typed, machines, each host's own pages, and "Changed since".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatDeadline,
  formToRaw,
  formToRawKeeping,
  parseDecimal,
  readForm,
  sameForm,
} from '../../src/shared/planner/formFields';
import type { RawForm } from '../../src/shared/planner/form';
import { parseSavedState } from '../../src/webview/form';
import { changedSinceProblem } from '../../src/webview/model';

// ---------------------------------------------------------------------------------------------
// form.ts

const raw: RawForm = {
  pagesMode: 'total',
  pages: '1000',
  pagesByHost: {},
  rate: '',
  workers: '',
  machines: '',
  deadline: '',
  delay: '1',
  delayFrom: 'start',
  latency: '0.5',
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
  changedSince: '',
};

const decimals: Array<[string, number | 'empty' | 'invalid']> = [
  ['', 'empty'],
  ['   ', 'empty'],
  ['1', 1],
  [' 2.5 ', 2.5],
  ['.5', 0.5],
  ['2.', 2],
  ['1e3', 1000],
  ['1E-2', 0.01],
  ['-1', -1],
  ['1,000,000', 1_000_000],
  ['1,000.5', 1000.5],
  ['1,00', 'invalid'],
  ['abc', 'invalid'],
  ['NaN', 'invalid'],
  ['Infinity', 'invalid'],
  ['0x10', 'invalid'],
  ['1e400', 'invalid'],
  ['10s', 'invalid'],
  ['1.2.3', 'invalid'],
];

for (const [text, expected] of decimals) {
  test(`parseDecimal(${JSON.stringify(text)}) is ${String(expected)}`, () => {
    assert.equal(parseDecimal(text), expected);
  });
}

test('readForm: a valid form becomes a PlannerForm, empty numbers become null', () => {
  const { form, errors } = readForm(raw);
  assert.deepEqual(errors, {});
  assert.deepEqual(form, {
    pagesMode: 'total',
    pages: 1000,
    pagesByHost: {},
    rate: null,
    workers: null,
    machines: null,
    deadlineSeconds: null,
    delaySeconds: 1,
    delayFrom: 'start',
    latencySeconds: 0.5,
    userAgent: '',
    useRobots: false,
    checkServers: false,
    politenessBy: 'host',
  });
});

const fieldErrors: Array<[string, Partial<RawForm>, Record<string, RegExp>]> = [
  ['a word in a number field', { rate: 'fast' }, { rate: /not a number/ }],
  ['zero workers', { workers: '0' }, { workers: /at least 1/ }],
  ['fractional pages', { pages: '10.5' }, { pages: /whole number/ }],
  ['a negative delay', { delay: '-1' }, { delay: /at least 0/ }],
  ['zero latency', { latency: '0' }, { latency: /greater than 0/ }],
  ['a user agent with a newline', { userAgent: 'a\nb' }, { userAgent: /control characters/ }],
  ['two bad fields', { rate: '0', workers: 'x' }, { rate: /greater than 0/, workers: /not a number/ }],
];

for (const [name, patch, expected] of fieldErrors) {
  test(`readForm marks ${name} and sends nothing`, () => {
    const { form, errors } = readForm({ ...raw, ...patch });
    assert.equal(form, undefined);
    assert.deepEqual(Object.keys(errors).sort(), Object.keys(expected).sort());
    for (const [field, re] of Object.entries(expected)) assert.match(errors[field as keyof RawForm]!, re);
  });
}

test('formToRaw and readForm round-trip', () => {
  const { form } = readForm({
    ...raw,
    rate: '2.5',
    workers: '16',
    pagesMode: 'perHost',
    delayFrom: 'end',
    useRobots: true,
    userAgent: 'Bot/1',
  });
  assert.ok(form);
  assert.deepEqual(readForm(formToRaw(form)).form, form);
  assert.ok(sameForm(readForm(formToRaw(form)).form!, form));
  assert.ok(!sameForm({ ...form, rate: 3 }, form));
});

test('parseSavedState keeps a valid state and drops anything else', () => {
  assert.deepEqual(parseSavedState({ v: 2, raw }), { v: 2, raw });
  assert.deepEqual(parseSavedState({ v: 2, raw, origin: 'https://a.example' }), {
    v: 2,
    raw,
    origin: 'https://a.example',
  });
  for (const bad of [
    undefined,
    null,
    'x',
    { v: 3, raw },
    { v: 2 },
    { v: 2, raw: { ...raw, pages: 5 } },
    { v: 2, raw: { ...raw, pagesMode: 'x' } },
    { v: 2, raw: { ...raw, useRobots: 'yes' } },
  ]) {
    assert.equal(parseSavedState(bad), undefined, JSON.stringify(bad));
  }
});

test("parseSavedState reads an earlier version's state without its seeds (the extension keeps them), however long they were", () => {
  const old = { v: 1, raw: { ...raw, seeds: 'https://a.example/\n'.repeat(60_000) }, origin: 'https://a.example' };
  assert.deepEqual(parseSavedState(old), { v: 2, raw, origin: 'https://a.example' });
});

// ---------------------------------------------------------------------------------------------
// The deadline, machines, each host's own pages, Changed since

test("readForm: a deadline as typed (36h, 2d, seconds), machines, and each host's own pages (empty: none of its own)", () => {
  const { form, errors } = readForm({
    ...raw,
    pagesMode: 'byHost',
    pages: '',
    pagesByHost: { 'a.example': '1,000', 'b.example': '', 'c.example': '0' },
    deadline: '1d12h',
    machines: '3',
  });
  assert.deepEqual(errors, {});
  assert.deepEqual(
    [form!.pagesMode, form!.pages, form!.pagesByHost, form!.deadlineSeconds, form!.machines],
    ['byHost', null, { 'a.example': 1000, 'c.example': 0 }, 129_600, 3],
  );
  const bad = readForm({ ...raw, pagesByHost: { 'a.example': '-2' }, deadline: 'soon', machines: '0' });
  assert.equal(bad.form, undefined);
  assert.match(bad.errors.pagesByHost!, /^a\.example: /);
  assert.match(bad.errors.deadline!, /soon/);
  assert.match(bad.errors.machines!, /at least 1/);
});

test('formToRawKeeping keeps the text as typed of every value that did not change, and shows the new ones', () => {
  const typed: RawForm = {
    ...raw,
    pagesMode: 'byHost',
    pages: '1,000',
    pagesByHost: { 'a.example': '2,000' },
    deadline: '1d12h',
    workers: '',
  };
  const { form } = readForm(typed);
  const changed = formToRawKeeping(
    { ...form!, workers: 4, pagesByHost: { 'a.example': 2000, 'b.example': 70 } },
    typed,
  );
  assert.deepEqual(
    [changed.pages, changed.deadline, changed.workers, changed.pagesByHost],
    ['1,000', '1d12h', '4', { 'a.example': '2,000', 'b.example': '70' }],
  );
  assert.equal(formToRawKeeping({ ...form!, deadlineSeconds: 7200 }, typed).deadline, '2h');
  assert.deepEqual(
    [formatDeadline(604_800), formatDeadline(172_800), formatDeadline(5400), formatDeadline(61)],
    ['1w', '2d', '90m', '61'],
  );
  assert.equal(readForm({ ...raw, deadline: formatDeadline(129_601) }).form!.deadlineSeconds, 129_601);
});

test('"Changed since" is read as --changed-since reads it; empty is every URL', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  assert.equal(changedSinceProblem('', now), undefined);
  assert.equal(changedSinceProblem('30d', now), undefined);
  assert.equal(changedSinceProblem('2025-05-01', now), undefined);
  assert.match(changedSinceProblem('2027-01-01', now)!, /in the future/);
  assert.match(changedSinceProblem('last week', now)!, /neither a date/);
});
