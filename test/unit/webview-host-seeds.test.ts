/**
 * The planner's seeds (seedsSource.ts): the box's text at any length, seed notes, a seeds file as the source
 * (Use seeds.txt, Load seeds from file, read again when it changes), and seeds from code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { seedLinesFromText } from '../../src/core/seeds';
import type { HostToWebview } from '../../src/shared/planner/messages';
import { defaultForm } from '../../src/extension/planner/savedState';
import { settings, SEEDS, form, type FakeFile, fakeFiles, harness, settle, seedList } from '../helpers/plannerHost';

test('currentSeeds: valid URLs in order without repeats', () => {
  const h = harness({ seeds: 'https://a.example/\nhttps://a.example/\nftp://x/\nhttps://b.example/', form });
  h.controller.receive({ type: 'ready' });
  assert.deepEqual(h.controller.currentSeeds(), ['https://a.example/', 'https://b.example/']);
});

// ---------------------------------------------------------------------------------------------
// Seeds: kept by the extension whatever their length, or read from a file

test('seedsChanged is planned at once whatever the other fields hold, and saved', () => {
  const h = harness();
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: SEEDS });
  assert.deepEqual(h.types(), ['state', 'planResult']);
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  assert.equal(h.saved.at(-1)!.seedsText, SEEDS);
  h.controller.receive({ type: 'seedsChanged', text: SEEDS });
  assert.equal(h.posted.length, 2, 'the same text again: nothing to do');
});

test('1,000 seeds with a final newline are 1,000 seeds, not refused as 1,001 lines', () => {
  const h = harness();
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: seedList(1000) });
  const result = h.last('planResult')!.result;
  assert.deepEqual(result.problems, []);
  assert.equal(result.validSeeds, 1000);
  assert.equal(result.summary!.hostCount, 1000);
});

test("past the box's limits the text is kept exactly (1.2 MB, 50,000 lines), saved, restored, and not planned", () => {
  const big = seedList(50_000);
  assert.ok(Buffer.byteLength(big) > 1024 * 1024, `${Buffer.byteLength(big)} bytes`);
  const h = harness();
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'seedsChanged', text: big });
  const result = h.last('planResult')!.result;
  assert.equal(result.summary, null);
  assert.match(
    result.problems[0]!.message,
    /^50,000 seed lines \(1\.\d MB\): the box plans at most 5,000 seed lines \(512 KB\)\. Save the list as a file/,
  );
  assert.equal(h.saved.at(-1)!.seedsText, big);
  // Hidden and shown again: a new webview is sent exactly what was there.
  h.controller.detach();
  h.controller.attach((m) => void h.posted.push(structuredClone(m)));
  h.controller.receive({ type: 'ready' });
  const state = h.last('state')!;
  assert.equal(state.seeds.source === 'text' && state.seeds.text, big);
  // A window reload: a new controller from what was saved.
  const reloaded = harness({ stored: h.saved.at(-1) });
  reloaded.controller.receive({ type: 'ready' });
  const restored = reloaded.last('state')!;
  assert.equal(restored.seeds.source === 'text' && restored.seeds.text, big);
  assert.deepEqual(restored.form, h.controller.currentForm());
});

test('seed notes reach the view by kind; the running demo hosts get no local-address note', () => {
  const text =
    'http://user:pw@cred.example/\nhttp://0x7f.1/\nhttp://127.0.0.11:8470/\nhttps://d.example/\nhttps://d.example/';
  const h = harness({ seeds: text, expectedLocalHosts: new Set(['127.0.0.11:8470']) });
  h.controller.receive({ type: 'ready' });
  const result = h.last('state')!.result;
  assert.deepEqual(
    result.seedNotes.map((g) => [g.code, g.count, g.notes.map((n) => n.line)]),
    [
      ['credentials', 1, [1]],
      ['ip-literal', 1, [2]],
      ['local-address', 1, [2]],
    ],
  );
  assert.equal(result.duplicateSeeds, 1);
  assert.ok(!JSON.stringify(result).includes('user:pw'));
  assert.deepEqual(
    h.controller.currentSeeds().slice(0, 1),
    ['http://cred.example/'],
    'the crawl gets the seed without credentials',
  );
  const doc = JSON.parse(h.controller.currentPlanJson()!);
  assert.equal(doc.seedNotes.length, 3);
  assert.equal(doc.duplicateSeeds, 1);
});

test('seedLinesFromText reads seeds like the CLI reads --seeds-file', () => {
  assert.deepEqual(seedLinesFromText('\uFEFFhttps://a.example/ # home\n\n  # comment\r\nhttps://b.example/#frag\rx'), [
    { text: 'https://a.example/', line: 1 },
    { text: 'https://b.example/#frag', line: 4 },
    { text: 'x', line: 5 },
  ]);
});

test('a seeds file: "Use seeds.txt" reads it, shows its count and first lines, plans 50,000 hosts after a planning message', async () => {
  const disk = new Map<string, FakeFile>([
    ['file:///ws/seeds.txt', { text: `# crawl list\n${seedList(50_000)}`, mtime: 1 }],
  ]);
  const fs = fakeFiles(disk);
  const later: Array<() => void> = [];
  const h = harness({
    files: fs.files,
    defer: (work) => later.push(work),
    form: { ...form, pagesMode: 'total', pages: 1_000_000 },
  });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'useWorkspaceSeeds' });
  await settle();
  const views = h.posted
    .filter((m) => m.type === 'seeds')
    .map((m) => (m as Extract<HostToWebview, { type: 'seeds' }>).seeds);
  assert.deepEqual(views[0], {
    source: 'file',
    file: { label: 'seeds.txt', bytes: 0, seedLines: 0, firstLines: [], loading: true },
  });
  const last = views.at(-1)!;
  assert.ok(last.source === 'file');
  assert.equal(last.file.label, 'seeds.txt');
  assert.equal(last.file.seedLines, 50_000, 'the comment line is not a seed line');
  assert.equal(last.file.bytes, Buffer.byteLength(disk.get('file:///ws/seeds.txt')!.text!));
  assert.deepEqual(last.file.firstLines, [
    'https://host-000000.example.com/',
    'https://host-000001.example.com/',
    'https://host-000002.example.com/',
    'https://host-000003.example.com/',
    'https://host-000004.example.com/',
  ]);
  assert.equal(last.file.problem, undefined);
  assert.deepEqual(h.last('planning'), { type: 'planning', seeds: 50_000 });
  assert.equal(later.length, 1);
  later.shift()!();
  const result = h.last('planResult')!.result;
  assert.equal(result.summary!.hostCount, 50_000);
  assert.equal(result.originCount, 50_000);
  assert.equal(result.origins.length, 50);
  assert.ok(JSON.stringify(result).length < 64 * 1024, 'a summary, not 50,000 hosts');
  // The file is saved as the source; the box's text is kept as it was.
  assert.deepEqual(h.saved.at(-1)!.seedsFile, { uri: 'file:///ws/seeds.txt', label: 'seeds.txt' });
  assert.equal(h.saved.at(-1)!.seedsText, '');
  // The report and the JSON copy have every host.
  assert.equal(h.controller.currentPlan().plan!.hosts.length, 50_000);
  // Invalid lines point into the file.
  disk.set('file:///ws/seeds.txt', { text: 'https://a.example/\nnot a url\n', mtime: 2 });
  fs.watchers.get('file:///ws/seeds.txt')!();
  await settle();
  const edited = h.last('planResult')!.result;
  assert.deepEqual(edited.invalidSeeds, [
    { line: 2, text: 'not a url', reason: 'not-a-url', message: 'not a URL', source: 'seeds.txt' },
  ]);
  h.controller.receive({ type: 'openSeedsFile', line: 2 });
  await settle();
  assert.deepEqual(fs.opened, [['file:///ws/seeds.txt', 2]]);
});

test('a seeds file that is gone, too long or empty says why and stays the source; back on disk, it is read again when shown', async () => {
  const uri = 'file:///ws/seeds.txt';
  const disk = new Map<string, FakeFile>([[uri, { text: seedList(100_001), mtime: 1 }]]);
  const fs = fakeFiles(disk);
  const h = harness({ files: fs.files });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'useWorkspaceSeeds' });
  await settle();
  const view = () => {
    const v = h.last('seeds')!.seeds;
    assert.ok(v.source === 'file');
    return v.file;
  };
  assert.match(
    view().problem!,
    /^seeds\.txt has 100,001 seed lines \(\d\.\d MB\); the planner takes at most 100,000 seed lines\. Split the list, or plan it with crawl-planner estimate --seeds-file\.$/,
  );
  assert.equal(h.last('planResult')!.result.summary, null);
  assert.equal(h.last('planResult')!.result.problems[0]!.message, view().problem);
  disk.set(uri, { text: '# nothing yet\n\n', mtime: 2 });
  fs.watchers.get(uri)!();
  await settle();
  assert.match(view().problem!, /has no seed lines/);
  disk.set(uri, { mtime: 3 });
  fs.watchers.get(uri)!();
  await settle();
  assert.equal(view().problem, 'Cannot read seeds.txt: the file is gone (moved or deleted?).');
  // Back, while the view was hidden (no watcher event): the next ready reads it again.
  disk.set(uri, { text: SEEDS, mtime: 4 });
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(view().problem, undefined);
  assert.equal(view().seedLines, 3);
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  // Shown again without a change: not read again.
  const reads = fs.reads.length;
  h.controller.receive({ type: 'ready' });
  await settle();
  assert.equal(fs.reads.length, reads);
});

test('a saved seeds file is the source after a reload; "Use the box instead" goes back to the box\'s text', async () => {
  const uri = 'file:///ws/lists/seeds.txt';
  const disk = new Map<string, FakeFile>([[uri, { text: seedList(20), mtime: 1 }]]);
  const fs = fakeFiles(disk);
  const h = harness({
    files: fs.files,
    stored: { v: 2, form, seedsText: SEEDS, seedsFile: { uri, label: 'lists/seeds.txt' } },
  });
  h.controller.receive({ type: 'ready' });
  await settle();
  const state = h.last('state')!;
  assert.equal(state.seeds.source, 'file');
  assert.equal(h.last('planResult')!.result.validSeeds, 20);
  h.controller.receive({ type: 'useSeedsText' });
  assert.deepEqual(h.last('seeds')!.seeds, { source: 'text', text: SEEDS });
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  assert.equal(h.saved.at(-1)!.seedsFile, undefined);
  assert.equal(fs.watchers.size, 0, 'the file is no longer watched');
});

test('Load seeds from file: the picked file becomes the source; cancelled, nothing changes; no seeds.txt, a notice', async () => {
  const uri = 'file:///elsewhere/list.txt';
  const disk = new Map<string, FakeFile>([[uri, { text: SEEDS, mtime: 1 }]]);
  const picked = fakeFiles(disk, { uri, label: '/elsewhere/list.txt' });
  const h = harness({ files: picked.files });
  h.controller.receive({ type: 'ready' });
  h.controller.receive({ type: 'loadSeedsFile' });
  await settle();
  assert.equal(h.last('seeds')!.seeds.source, 'file');
  assert.equal(h.last('planResult')!.result.validSeeds, 2);
  const none = harness({ files: fakeFiles(new Map()).files });
  none.controller.receive({ type: 'ready' });
  none.controller.receive({ type: 'loadSeedsFile' });
  none.controller.receive({ type: 'useWorkspaceSeeds' });
  await settle();
  assert.deepEqual(none.types(), ['state', 'notice']);
  assert.match(none.last('notice')!.message, /^No seeds\.txt in this workspace/);
});

test("Seeds from code: the text becomes the box's seeds, the form takes the numbers, the fields show them, a notice says so", async () => {
  // A slow saved planner: what seeds from code sets must not be overwritten when it is read.
  let release: (value: unknown) => void = () => {};
  const h = harness({ stored: new Promise((resolve) => (release = resolve)) });
  h.controller.receive({ type: 'ready' });
  const applied = h.controller.useSeedsText(
    '# from books.py\nhttps://a.example/\nhttps://user:pw@b.example/x\n',
    { delaySeconds: 3, delayFrom: 'start', workers: 8 },
    '2 URLs · 2 hosts from books.py.',
  );
  release({ v: 2, form: { ...defaultForm(settings), pages: 100 }, seedsText: 'https://old.example/\n' });
  await applied;
  await settle();
  assert.deepEqual(h.last('seeds')!.seeds, {
    source: 'text',
    text: '# from books.py\nhttps://a.example/\nhttps://user:pw@b.example/x\n',
  });
  const form = h.last('formSet')!;
  assert.equal(form.form.delaySeconds, 3);
  assert.equal(form.form.workers, 8);
  assert.equal(form.form.pages, 100, "the saved form's other fields stay");
  assert.equal(form.fields.delay, '3');
  assert.equal(form.fields.workers, '8');
  assert.deepEqual(h.last('notice'), { type: 'notice', level: 'info', message: '2 URLs · 2 hosts from books.py.' });
  const plan = h.last('planResult')!.result;
  assert.deepEqual(
    h.controller.currentSeeds(),
    ['https://a.example/', 'https://b.example/x'],
    'seed hygiene removed the credentials',
  );
  assert.equal(plan.validSeeds, 2);
  assert.ok(plan.summary !== null, 'planned: the saved form has pages');
  assert.ok(plan.seedNotes.some((n) => n.code === 'credentials'));
  assert.equal(h.saved.at(-1)!.form.delaySeconds, 3);
  // Without a text (the seeds went to a file): the box keeps its text, the form still changes.
  await h.controller.useSeedsText(undefined, { workers: 2 });
  assert.equal(h.saved.at(-1)!.seedsText, '# from books.py\nhttps://a.example/\nhttps://user:pw@b.example/x\n');
  assert.equal(h.last('formSet')!.fields.workers, '2');
});

// ---------------------------------------------------------------------------------------------
// Size from sitemaps, the deadline's options, dropped hosts, Export Plan
