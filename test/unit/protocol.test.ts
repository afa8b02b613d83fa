import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  HOST_MESSAGE_TYPES,
  isHostMessage,
  parseOrigin,
  parseWebviewMessage,
  type WebviewToHost,
} from '../../src/shared/planner/messages';
import { MAX_FIELD_CHARS, formNumberProblem, type PlannerForm, type RawForm } from '../../src/shared/planner/form';
import {
  MAX_ORIGIN_QUERY_CHARS,
  MAX_ROBOTS_LINE,
  MAX_USER_AGENT_CHARS,
  PLANNER_SEED_LIMITS,
  seedsPasteProblem,
  seedsStoreProblem,
  seedsTextProblem,
  sizeText,
  utf8Length,
} from '../../src/shared/planner/limits';

const form: PlannerForm = {
  pagesMode: 'total',
  pages: 1000,
  pagesByHost: {},
  rate: null,
  workers: 8,
  machines: null,
  deadlineSeconds: null,
  delaySeconds: 1,
  delayFrom: 'start',
  latencySeconds: 0.5,
  userAgent: '',
  useRobots: false,
  checkServers: false,
  politenessBy: 'host',
};

const fields: RawForm = {
  pagesMode: 'total',
  pages: '1000',
  pagesByHost: {},
  rate: '',
  workers: '8',
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

const withForm = (patch: Record<string, unknown>) => ({ type: 'formChanged', form: { ...form, ...patch } });
const withoutField = (field: keyof PlannerForm) => {
  const copy: Record<string, unknown> = { ...form };
  delete copy[field];
  return { type: 'formChanged', form: copy };
};

const valid: Array<[string, unknown, WebviewToHost]> = [
  ['ready without a form', { type: 'ready' }, { type: 'ready' }],
  ['fieldsEdited', { type: 'fieldsEdited', fields }, { type: 'fieldsEdited', fields }],
  [
    'fieldsEdited, half-typed and out of range (kept as typed)',
    { type: 'fieldsEdited', fields: { ...fields, pages: '1,0', workers: '-3', userAgent: 'a\nb' } },
    { type: 'fieldsEdited', fields: { ...fields, pages: '1,0', workers: '-3', userAgent: 'a\nb' } },
  ],
  ['formChanged', { type: 'formChanged', form }, { type: 'formChanged', form }],
  [
    'formChanged, empty fields',
    withForm({ pages: null, rate: null, workers: null, delaySeconds: null, latencySeconds: null }),
    withForm({ pages: null, rate: null, workers: null, delaySeconds: null, latencySeconds: null }) as WebviewToHost,
  ],
  [
    'formChanged, per host, end reading, robots on',
    withForm({
      pagesMode: 'perHost',
      delayFrom: 'end',
      useRobots: true,
      userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    }),
    withForm({
      pagesMode: 'perHost',
      delayFrom: 'end',
      useRobots: true,
      userAgent: 'ExampleBot/1.0 (+https://example.com/bot)',
    }) as WebviewToHost,
  ],
  [
    'formChanged, limits at their edges',
    withForm({ pages: 1e12, rate: 1e6, workers: 1, delaySeconds: 0, latencySeconds: 3600 }),
    withForm({ pages: 1e12, rate: 1e6, workers: 1, delaySeconds: 0, latencySeconds: 3600 }) as WebviewToHost,
  ],
  [
    'seedsChanged',
    { type: 'seedsChanged', text: 'https://a.example/\nhttps://b.example/x' },
    { type: 'seedsChanged', text: 'https://a.example/\nhttps://b.example/x' },
  ],
  ['seedsChanged, empty', { type: 'seedsChanged', text: '' }, { type: 'seedsChanged', text: '' }],
  // Past the box's planning limits the text is still kept (not planned): only the storage cap refuses it.
  [
    'seedsChanged, 50,000 lines (1.2 MB)',
    { type: 'seedsChanged', text: 'https://host-00000.example.com/\n'.repeat(50_000) },
    { type: 'seedsChanged', text: 'https://host-00000.example.com/\n'.repeat(50_000) },
  ],
  ['loadSeedsFile', { type: 'loadSeedsFile' }, { type: 'loadSeedsFile' }],
  ['useWorkspaceSeeds', { type: 'useWorkspaceSeeds' }, { type: 'useWorkspaceSeeds' }],
  ['useSeedsText', { type: 'useSeedsText' }, { type: 'useSeedsText' }],
  ['openSeedsFile', { type: 'openSeedsFile' }, { type: 'openSeedsFile' }],
  ['openSeedsFile at a line', { type: 'openSeedsFile', line: 42 }, { type: 'openSeedsFile', line: 42 }],
  ['findOrigins', { type: 'findOrigins', query: 'example' }, { type: 'findOrigins', query: 'example' }],
  ['findOrigins, empty', { type: 'findOrigins', query: '' }, { type: 'findOrigins', query: '' }],
  ['openReport', { type: 'openReport' }, { type: 'openReport' }],
  ['requestRobots', { type: 'requestRobots' }, { type: 'requestRobots' }],
  ['cancelServers', { type: 'cancelServers' }, { type: 'cancelServers' }],
  [
    'formChanged with "Check shared servers" on and the ip unit',
    withForm({ checkServers: true, politenessBy: 'ip' }),
    withForm({ checkServers: true, politenessBy: 'ip' }) as WebviewToHost,
  ],
  [
    'fieldsEdited with the domain unit',
    { type: 'fieldsEdited', fields: { ...fields, checkServers: true, politenessBy: 'domain' } },
    { type: 'fieldsEdited', fields: { ...fields, checkServers: true, politenessBy: 'domain' } },
  ],
  ['runTestCrawl', { type: 'runTestCrawl' }, { type: 'runTestCrawl' }],
  ['copyPlan', { type: 'copyPlan' }, { type: 'copyPlan' }],
  [
    'openRobots',
    { type: 'openRobots', origin: 'https://a.example' },
    { type: 'openRobots', origin: 'https://a.example' },
  ],
  [
    'openRobots with a port and a line',
    { type: 'openRobots', origin: 'http://127.0.0.1:8080', line: 3 },
    { type: 'openRobots', origin: 'http://127.0.0.1:8080', line: 3 },
  ],
  [
    'openRobots, IPv6',
    { type: 'openRobots', origin: 'http://[::1]:9000', line: MAX_ROBOTS_LINE },
    { type: 'openRobots', origin: 'http://[::1]:9000', line: MAX_ROBOTS_LINE },
  ],
  [
    'formChanged, by host, machines and a deadline',
    withForm({
      pagesMode: 'byHost',
      pages: 0,
      pagesByHost: { 'a.example': 0, '127.0.0.2:8080': 5000 },
      machines: 4,
      deadlineSeconds: 86_400,
    }),
    withForm({
      pagesMode: 'byHost',
      pages: 0,
      pagesByHost: { 'a.example': 0, '127.0.0.2:8080': 5000 },
      machines: 4,
      deadlineSeconds: 86_400,
    }) as WebviewToHost,
  ],
  [
    'formChanged from an earlier version (no pagesByHost, machines, deadline)',
    {
      type: 'formChanged',
      form: {
        pagesMode: 'total',
        pages: 1000,
        rate: null,
        workers: 8,
        delaySeconds: 1,
        delayFrom: 'start',
        latencySeconds: 0.5,
        userAgent: '',
        useRobots: false,
      },
    },
    { type: 'formChanged', form },
  ],
  [
    "fieldsEdited with hosts' pages and a changed-since as typed",
    {
      type: 'fieldsEdited',
      fields: {
        ...fields,
        pagesMode: 'byHost',
        pagesByHost: { 'a.example': '1,0' },
        deadline: '36h',
        changedSince: '30d',
      },
    },
    {
      type: 'fieldsEdited',
      fields: {
        ...fields,
        pagesMode: 'byHost',
        pagesByHost: { 'a.example': '1,0' },
        deadline: '36h',
        changedSince: '30d',
      },
    },
  ],
  ['sizeFromSitemaps', { type: 'sizeFromSitemaps', changedSince: '' }, { type: 'sizeFromSitemaps', changedSince: '' }],
  [
    'sizeFromSitemaps, changed since a date',
    { type: 'sizeFromSitemaps', changedSince: '2024-05-01' },
    { type: 'sizeFromSitemaps', changedSince: '2024-05-01' },
  ],
  ['cancelSitemaps', { type: 'cancelSitemaps' }, { type: 'cancelSitemaps' }],
  [
    'applyDeadlineOption',
    { type: 'applyDeadlineOption', plan: 3, index: 1 },
    { type: 'applyDeadlineOption', plan: 3, index: 1 },
  ],
  ['restoreHosts, all', { type: 'restoreHosts' }, { type: 'restoreHosts' }],
  [
    'restoreHosts, one',
    { type: 'restoreHosts', host: 'a.example:8080' },
    { type: 'restoreHosts', host: 'a.example:8080' },
  ],
  ['exportPlan', { type: 'exportPlan' }, { type: 'exportPlan' }],
];

const newInvalid: Array<[string, unknown, RegExp]> = [
  [
    'sizeFromSitemaps without changedSince',
    { type: 'sizeFromSitemaps' },
    /changedSince must be a string of at most 64/,
  ],
  [
    'sizeFromSitemaps with a long changedSince',
    { type: 'sizeFromSitemaps', changedSince: 'x'.repeat(65) },
    /at most 64/,
  ],
  [
    'sizeFromSitemaps with an extra key',
    { type: 'sizeFromSitemaps', changedSince: '', urls: ['https://evil.example/'] },
    /urls/,
  ],
  ['applyDeadlineOption, index past the options', { type: 'applyDeadlineOption', plan: 1, index: 10 }, /index must be/],
  ['applyDeadlineOption, plan 0', { type: 'applyDeadlineOption', plan: 0, index: 0 }, /plan must be/],
  ['applyDeadlineOption, a string index', { type: 'applyDeadlineOption', plan: 1, index: '0' }, /index must be/],
  ['restoreHosts, an upper-case host', { type: 'restoreHosts', host: 'A.example' }, /lower-case host/],
  ['restoreHosts, __proto__', { type: 'restoreHosts', host: '__proto__' }, /lower-case host/],
  [
    'formChanged, a host with negative pages',
    withForm({ pagesMode: 'byHost', pagesByHost: { 'a.example': -1 } }),
    /form.pagesByHost/,
  ],
  [
    'formChanged, a host key with a path',
    withForm({ pagesMode: 'byHost', pagesByHost: { 'a.example/x': 1 } }),
    /form.pagesByHost/,
  ],
  [
    'formChanged, more hosts than the form holds',
    withForm({
      pagesMode: 'byHost',
      pagesByHost: Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`h${i}.example`, 1])),
    }),
    /form.pagesByHost/,
  ],
  ['formChanged, machines 0', withForm({ machines: 0 }), /form.machines/],
  ['formChanged, a negative deadline', withForm({ deadlineSeconds: -5 }), /form.deadlineSeconds/],
  [
    'formChanged, an unknown pages mode',
    withForm({ pagesMode: 'perSitemap' }),
    /form.pagesMode: must be total, perHost, byHost/,
  ],
];

for (const [name, raw, pattern] of newInvalid) {
  test(`parseWebviewMessage refuses ${name}`, () => {
    const r = parseWebviewMessage(raw);
    assert.ok('error' in r, JSON.stringify(r));
    assert.match(r.error, pattern);
  });
}

for (const [name, raw, expected] of valid) {
  test(`parseWebviewMessage accepts ${name}`, () => {
    assert.deepEqual(parseWebviewMessage(raw), expected);
  });
}

const invalid: Array<[string, unknown, RegExp]> = [
  ['undefined', undefined, /not an object/],
  ['null', null, /not an object/],
  ['a string', 'ready', /not an object/],
  ['an array', [{ type: 'ready' }], /not an object/],
  ['no type', {}, /no type/],
  ['a numeric type', { type: 1 }, /no type/],
  ['an unknown type', { type: 'deleteEverything' }, /unknown type/],
  ['a host message type', { type: 'state' }, /unknown type/],
  ['__proto__ as type', JSON.parse('{"type":"__proto__"}'), /unknown type/],
  ['an extra field', { type: 'copyPlan', extra: 1 }, /unknown field "extra"/],
  // The extension keeps the form: a webview does not hand one over when it loads.
  ['ready with a form', { type: 'ready', form }, /ready: unknown field "form"/],
  ['fieldsEdited without fields', { type: 'fieldsEdited' }, /fieldsEdited: fields are not the form's fields/],
  [
    'fieldsEdited with a number for text',
    { type: 'fieldsEdited', fields: { ...fields, pages: 5 } },
    /fieldsEdited: fields/,
  ],
  [
    'fieldsEdited with an extra field',
    { type: 'fieldsEdited', fields: { ...fields, seeds: 'x' } },
    /fieldsEdited: fields/,
  ],
  [
    'fieldsEdited with a long field',
    { type: 'fieldsEdited', fields: { ...fields, rate: '1'.repeat(MAX_FIELD_CHARS + 1) } },
    /fieldsEdited: fields/,
  ],
  [
    'fieldsEdited with an unknown choice',
    { type: 'fieldsEdited', fields: { ...fields, pagesMode: 'all' } },
    /fieldsEdited: fields/,
  ],
  ['formChanged without a form', { type: 'formChanged' }, /form: not an object/],
  ['form as an array', { type: 'formChanged', form: [] }, /form: not an object/],
  ['form with an extra field', withForm({ evil: true }), /unknown field "evil"/],
  // The seeds are not a form field any more: they come with seedsChanged.
  ['a form with seeds', withForm({ seeds: 'https://a.example/' }), /unknown field "seeds"/],
  ['seedsChanged without text', { type: 'seedsChanged' }, /seedsChanged: text is not a string/],
  ['seedsChanged with a number', { type: 'seedsChanged', text: 5 }, /seedsChanged: text is not a string/],
  [
    'seedsChanged over 4 MB',
    { type: 'seedsChanged', text: 'a'.repeat(PLANNER_SEED_LIMITS.storedTextBytes + 1) },
    /seedsChanged: Not kept: 4 MB of seeds; the box keeps at most 4 MB/,
  ],
  [
    'seedsChanged over 4 MB in UTF-8',
    { type: 'seedsChanged', text: 'é'.repeat(PLANNER_SEED_LIMITS.storedTextBytes / 2 + 1) },
    /seedsChanged: Not kept/,
  ],
  ['seedsChanged with an extra field', { type: 'seedsChanged', text: '', file: '/etc/passwd' }, /unknown field "file"/],
  ['loadSeedsFile with a path', { type: 'loadSeedsFile', path: '/etc/passwd' }, /unknown field "path"/],
  ['openSeedsFile line 0', { type: 'openSeedsFile', line: 0 }, /line must be/],
  ['openSeedsFile line a string', { type: 'openSeedsFile', line: '3' }, /line must be/],
  ['findOrigins without a query', { type: 'findOrigins' }, /findOrigins: query must be a string/],
  [
    'findOrigins with a long query',
    { type: 'findOrigins', query: 'a'.repeat(MAX_ORIGIN_QUERY_CHARS + 1) },
    /findOrigins: query must be a string of at most/,
  ],
  ['openReport with a field', { type: 'openReport', hosts: 1 }, /unknown field "hosts"/],
  ['pagesMode unknown', withForm({ pagesMode: 'some' }), /pagesMode/],
  ['delayFrom unknown', withForm({ delayFrom: 'middle' }), /delayFrom/],
  ['userAgent not a string', withForm({ userAgent: null }), /userAgent: not a string/],
  ['userAgent with a line break', withForm({ userAgent: 'Bot\r\nX-Evil: 1' }), /userAgent: no control characters/],
  ['userAgent too long', withForm({ userAgent: 'a'.repeat(MAX_USER_AGENT_CHARS + 1) }), /userAgent: at most/],
  ['useRobots a string', withForm({ useRobots: 'true' }), /useRobots: not a boolean/],
  ['checkServers a string', withForm({ checkServers: 'yes' }), /checkServers: not a boolean/],
  ['politenessBy unknown', withForm({ politenessBy: 'byIP' }), /politenessBy: must be host, ip, domain/],
  [
    'fieldsEdited with an unknown unit',
    { type: 'fieldsEdited', fields: { ...fields, politenessBy: 'queue' } },
    /fieldsEdited: fields are not the form's fields/,
  ],
  ['cancelServers with a field', { type: 'cancelServers', hosts: ['a.example'] }, /unknown field "hosts"/],
  ['pages missing', withoutField('pages'), /form.pages: missing/],
  ['pages a string', withForm({ pages: '1000' }), /form.pages: not a finite number/],
  ['pages NaN', withForm({ pages: NaN }), /form.pages: not a finite number/],
  ['pages Infinity', withForm({ pages: Infinity }), /form.pages: not a finite number/],
  ['pages 0', withForm({ pages: 0 }), /form.pages: 0 must be at least 1/],
  ['pages fractional', withForm({ pages: 1.5 }), /form.pages: 1.5 must be a whole number/],
  ['pages above 10^12', withForm({ pages: 1e12 + 1 }), /form.pages: .* too large/],
  ['pages per host 0', withForm({ pagesMode: 'perHost', pages: 0 }), /form.pages/],
  ['rate 0', withForm({ rate: 0 }), /form.rate: 0 must be greater than 0/],
  ['rate negative', withForm({ rate: -1 }), /form.rate/],
  ['rate above 10^6', withForm({ rate: 1e6 + 1 }), /form.rate: .* too large/],
  ['workers 0', withForm({ workers: 0 }), /form.workers/],
  ['workers fractional', withForm({ workers: 2.5 }), /form.workers/],
  ['delay negative', withForm({ delaySeconds: -0.1 }), /form.delaySeconds/],
  ['delay above a day', withForm({ delaySeconds: 86_401 }), /form.delaySeconds/],
  ['delay -Infinity', withForm({ delaySeconds: -Infinity }), /form.delaySeconds: not a finite number/],
  ['latency 0', withForm({ latencySeconds: 0 }), /form.latencySeconds: 0 must be greater than 0/],
  ['latency above an hour', withForm({ latencySeconds: 3601 }), /form.latencySeconds/],
  ['openRobots without an origin', { type: 'openRobots' }, /origin: not a string/],
  [
    'openRobots with javascript:',
    { type: 'openRobots', origin: 'javascript:alert(1)' },
    /origin: (only http and https|must be)/,
  ],
  ['openRobots with JavaScript: in capitals', { type: 'openRobots', origin: 'JAVASCRIPT:alert(1)' }, /origin/],
  ['openRobots with data:', { type: 'openRobots', origin: 'data:text/html,<script>alert(1)</script>' }, /origin/],
  ['openRobots with file:', { type: 'openRobots', origin: 'file:///etc/passwd' }, /origin/],
  ['openRobots with ftp:', { type: 'openRobots', origin: 'ftp://a.example' }, /origin: only http and https/],
  ['openRobots with a command URI', { type: 'openRobots', origin: 'command:workbench.action.terminal.new' }, /origin/],
  [
    'openRobots with a path',
    { type: 'openRobots', origin: 'https://a.example/robots.txt' },
    /scheme:\/\/host\[:port\] only/,
  ],
  [
    'openRobots with a trailing slash',
    { type: 'openRobots', origin: 'https://a.example/' },
    /scheme:\/\/host\[:port\] only/,
  ],
  [
    'openRobots with credentials',
    { type: 'openRobots', origin: 'https://user:pw@a.example' },
    /scheme:\/\/host\[:port\] only/,
  ],
  ['openRobots with upper case', { type: 'openRobots', origin: 'https://A.example' }, /scheme:\/\/host\[:port\] only/],
  ['openRobots not a URL', { type: 'openRobots', origin: 'a.example' }, /origin: not a URL/],
  ['openRobots empty', { type: 'openRobots', origin: '' }, /origin: empty or too long/],
  [
    'openRobots too long',
    { type: 'openRobots', origin: `https://${'a'.repeat(3000)}.example` },
    /origin: empty or too long/,
  ],
  ['openRobots line 0', { type: 'openRobots', origin: 'https://a.example', line: 0 }, /line must be/],
  ['openRobots line fractional', { type: 'openRobots', origin: 'https://a.example', line: 1.5 }, /line must be/],
  ['openRobots line NaN', { type: 'openRobots', origin: 'https://a.example', line: NaN }, /line must be/],
  ['openRobots line a string', { type: 'openRobots', origin: 'https://a.example', line: '3' }, /line must be/],
  [
    'openRobots line too large',
    { type: 'openRobots', origin: 'https://a.example', line: MAX_ROBOTS_LINE + 1 },
    /line must be/,
  ],
];

for (const [name, raw, expected] of invalid) {
  test(`parseWebviewMessage refuses ${name}`, () => {
    const result = parseWebviewMessage(raw);
    assert.ok('error' in result, `expected an error, got ${JSON.stringify(result)}`);
    assert.match(result.error, expected);
  });
}

test('a parsed form is a fresh object with only the known fields', () => {
  const result = parseWebviewMessage({ type: 'formChanged', form });
  assert.ok(!('error' in result) && result.type === 'formChanged');
  assert.notEqual(result.form, form);
  assert.deepEqual(Object.keys(result.form).sort(), Object.keys(form).sort());
});

test('error messages quote unknown names shortly, never the whole input', () => {
  const result = parseWebviewMessage({ type: 'x'.repeat(10_000) });
  assert.ok('error' in result);
  assert.ok(result.error.length < 100);
});

test('formNumberProblem uses the plan limits and says nothing of valid values', () => {
  assert.equal(formNumberProblem('workers', 8), undefined);
  assert.equal(formNumberProblem('pages', 5, 'perHost'), undefined);
  assert.equal(formNumberProblem('workers', 0), '0 must be at least 1');
  assert.equal(formNumberProblem('rate', 0), '0 must be greater than 0');
});

test('parseOrigin accepts exactly an http(s) origin', () => {
  assert.equal(parseOrigin('https://a.example:8443'), 'https://a.example:8443');
  assert.ok(typeof parseOrigin('https://a.example:443') !== 'string', 'a default port is not how origins are written');
});

test('utf8Length and sizeText', () => {
  assert.equal(utf8Length('abc'), 3);
  assert.equal(utf8Length('é'), 2);
  assert.equal(utf8Length('ツ'), 3);
  assert.equal(utf8Length('😀'), 4);
  assert.equal(utf8Length('é'.repeat(60_000)), 120_000);
  assert.equal(sizeText(1), '1 byte');
  assert.equal(sizeText(900), '900 bytes');
  assert.equal(sizeText(5 * 1024 + 512), '5.5 KB');
  assert.equal(sizeText(229 * 1024), '229 KB');
  assert.equal(sizeText(1.19 * 1024 * 1024), '1.2 MB');
});

const lines = (n: number, end = '\n') => Array.from({ length: n }, (_, i) => `https://h${i}.example/`).join('\n') + end;

test('seedsTextProblem counts seed lines as the seed rules do: a trailing newline, blank lines and comments are not lines', () => {
  const L = PLANNER_SEED_LIMITS;
  assert.equal(seedsTextProblem(lines(L.textLines)), undefined, 'the limit itself, with the usual final newline');
  assert.equal(seedsTextProblem(`# header\n\n${lines(L.textLines)}\n\n# trailer\n`), undefined);
  const over = seedsTextProblem(lines(L.textLines + 1));
  assert.match(
    over!,
    /^5,001 seed lines \(\d+ KB\): the box plans at most 5,000 seed lines \(512 KB\)\. Save the list as a file and use “Load seeds from file…”, or save it as seeds\.txt in the workspace and use “Use seeds\.txt”\.$/,
  );
  const bytes = seedsTextProblem(`https://a.example/${'x'.repeat(L.textBytes)}`);
  assert.match(bytes!, /^1 seed line \(512 KB\): the box plans at most/);
});

test('seedsPasteProblem: a paste that would put the box over its limits says its size, the limit and what to do', () => {
  assert.equal(seedsPasteProblem(lines(1000), lines(1000)), undefined);
  const pasted = lines(50_000);
  assert.match(
    seedsPasteProblem(pasted, pasted)!,
    /^Not pasted: 50,000 seed lines \(1\.\d MB\)\. The box plans at most 5,000 seed lines \(512 KB\)\. Save the list as a file/,
  );
  // What the box holds counts: 3,000 more lines into a box of 3,000 is too many.
  assert.match(seedsPasteProblem(lines(3000), lines(3000) + lines(3000))!, /^Not pasted: 3,000 seed lines/);
});

test('seedsStoreProblem: up to 4 MB is kept whatever the planning limits', () => {
  assert.equal(seedsStoreProblem(lines(50_000)), undefined);
  assert.match(
    seedsStoreProblem('a'.repeat(PLANNER_SEED_LIMITS.storedTextBytes + 1))!,
    /^Not kept: 4 MB of seeds; the box keeps at most 4 MB\./,
  );
});

test('isHostMessage knows every host message type and nothing else', () => {
  assert.deepEqual([...HOST_MESSAGE_TYPES].sort(), [
    'calibration',
    'crawlResult',
    'formSet',
    'notice',
    'origins',
    'planResult',
    'planning',
    'robotsError',
    'robotsPending',
    'robotsResult',
    'seeds',
    'serversState',
    'settings',
    'simulation',
    'sitemapsState',
    'state',
  ]);
  for (const type of HOST_MESSAGE_TYPES) assert.ok(isHostMessage({ type }));
  for (const raw of [
    null,
    'state',
    { type: 'ready' },
    { type: 'toString' },
    { type: '__proto__' },
    [{ type: 'state' }],
  ]) {
    assert.equal(isHostMessage(raw), false, JSON.stringify(raw));
  }
});
