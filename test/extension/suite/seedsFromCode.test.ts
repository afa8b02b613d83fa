/**
 * Seeds from code in a real VS Code (docs/extension.md §Seeds from code): a Scrapy spider from
 * test/fixtures/spiders with its project's settings.py is written into the workspace and opened; the CodeLens
 * above `start_urls` says "Plan 4 URLs · 2 hosts"; running it puts the seeds in the planner and the spider's
 * DOWNLOAD_DELAY (custom_settings) and CONCURRENT_REQUESTS (settings.py) in its form; Plan URLs in Selection
 * takes the URLs of a CSV; `crawlPlanner.seedsFromCode.enabled: false` takes the CodeLens away.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { COMMANDS, SETTINGS } from '../../../src/extension/ids';
import type { PlannedFromCode } from '../../../src/extension/seedsFromCode';
import books from '../../fixtures/spiders/bookshop/bookshop/spiders/books.py';
import projectSettings from '../../fixtures/spiders/bookshop/bookshop/settings.py';
import { test, waitFor } from './harness';

const folder = (): vscode.Uri => vscode.workspace.workspaceFolders![0]!.uri;
const spiderUri = (): vscode.Uri => vscode.Uri.joinPath(folder(), 'bookshop', 'bookshop', 'spiders', 'books.py');

async function ourLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const lenses =
    (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return lenses.filter((l) => l.command?.command === COMMANDS.planSeedsFromCode);
}

async function setEnabled(value: boolean | undefined): Promise<void> {
  await vscode.workspace
    .getConfiguration()
    .update(SETTINGS.seedsFromCodeEnabled, value, vscode.ConfigurationTarget.Workspace);
}

test("Seeds from code: the CodeLens above a Scrapy spider's start_urls plans its URLs and takes its settings into the form", async () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(folder(), 'bookshop', 'bookshop', 'settings.py'),
    encode(projectSettings),
  );
  await vscode.workspace.fs.writeFile(spiderUri(), encode(books));
  const document = await vscode.workspace.openTextDocument(spiderUri());
  await vscode.window.showTextDocument(document);
  const lenses = await waitFor('the seeds CodeLens', async () => {
    const found = await ourLenses(document.uri);
    return found.length > 0 ? found : undefined;
  });
  assert.equal(lenses.length, 1);
  const lens = lenses[0]!;
  assert.equal(lens.command!.title, 'Plan 4 URLs · 2 hosts');
  assert.equal(lens.range.start.line, 15, 'above `start_urls =` (line 16)');
  assert.match(lens.command!.tooltip ?? '', /3 entries not read: line 23/);

  const result = await vscode.commands.executeCommand<PlannedFromCode>(
    lens.command!.command,
    ...(lens.command!.arguments ?? []),
  );
  assert.equal(result.urls, 4);
  assert.equal(result.hosts, 2);
  assert.equal(result.source, 'text');
  assert.equal(result.skipped, 3);
  assert.deepEqual(result.form, { delaySeconds: 3, delayFrom: 'start', workers: 8 });
  assert.deepEqual(result.taken, [
    'DOWNLOAD_DELAY = 3 (books.py:12) → delay 3 s',
    'CONCURRENT_REQUESTS = 8 (bookshop/bookshop/settings.py:10) → workers 8',
  ]);
  assert.match(result.notTaken[0]!, /^CONCURRENT_REQUESTS_PER_DOMAIN = 1 \(books\.py:13\): not used/);
  // The planner holds them.
  assert.equal(result.planner.seeds, 4);
  assert.deepEqual(result.planner.firstSeeds, [
    'https://books.toscrape.com/',
    'https://books.toscrape.com/catalogue/category/books/mystery_3/index.html',
    'https://shop.example.org/new?sort=date&page=1',
    'https://shop.example.org/used/',
  ]);
  assert.equal(result.planner.form.delaySeconds, 3);
  assert.equal(result.planner.form.delayFrom, 'start');
  assert.equal(result.planner.form.workers, 8);
});

test('Plan URLs in Selection: the URLs of a CSV (the whole file without a selection), into the planner', async () => {
  const csv = vscode.Uri.joinPath(folder(), 'urls.csv');
  await vscode.workspace.fs.writeFile(
    csv,
    new TextEncoder().encode(
      'url,title\nhttps://a.example/1,"One, two"\n"https://b.example/2?q=a,b",Two\nhttps://a.example/1,again\n',
    ),
  );
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(csv));
  const whole = await vscode.commands.executeCommand<PlannedFromCode>(COMMANDS.planUrlsInSelection);
  assert.equal(whole.urls, 2);
  assert.equal(whole.hosts, 2);
  assert.deepEqual(whole.planner.firstSeeds, ['https://a.example/1', 'https://b.example/2?q=a,b']);
  assert.equal(whole.planner.form.workers, 8, 'the form is left as it was');
  // A selection: only its URLs.
  editor.selection = new vscode.Selection(1, 0, 1, 100);
  const line = await vscode.commands.executeCommand<PlannedFromCode>(COMMANDS.planUrlsInSelection);
  assert.deepEqual(line.planner.firstSeeds, ['https://a.example/1']);
});

test("Plan URLs in Selection: a list the seeds box cannot hold (6,000 URLs) becomes the planner's seeds file", async () => {
  const text = Array.from({ length: 6000 }, (_, i) => `<url><loc>https://host-${i}.example.com/</loc></url>`).join(
    '\n',
  );
  await vscode.window.showTextDocument(
    await vscode.workspace.openTextDocument({ content: `<urlset>${text}</urlset>`, language: 'xml' }),
  );
  const result = await vscode.commands.executeCommand<PlannedFromCode>(COMMANDS.planUrlsInSelection);
  assert.equal(result.source, 'file');
  assert.equal(result.urls, 6000);
  assert.equal(result.planner.seeds, 6000);
  assert.equal(result.planner.firstSeeds[0], 'https://host-0.example.com/');
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('crawlPlanner.seedsFromCode.enabled: false takes the CodeLens away; true brings it back', async () => {
  try {
    await setEnabled(false);
    await waitFor('no seeds CodeLens', async () => (await ourLenses(spiderUri())).length === 0);
    await setEnabled(true);
    await waitFor('the seeds CodeLens again', async () => (await ourLenses(spiderUri())).length === 1);
  } finally {
    await setEnabled(undefined);
  }
});
