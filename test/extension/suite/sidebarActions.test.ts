/**
 * The sidebar's actions in a real VS Code, through their commands, against the extension's own demo hosts
 * (loopback): Size Pages from Sitemaps gives each host with a sitemap its URL count (as `crawl-planner
 * sitemaps` counts them) and shows the others' errors; Export Plan… writes exactly the files `crawl-planner
 * export --sitemaps` writes for the same hosts (the CLI run in this process, its own code). The webview's
 * side (the buttons, the deadline's options) is driven in Chromium by test/e2e/scenarios/a-plan.js.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { runExport } from '../../../src/cli/export';
import { runSitemaps } from '../../../src/cli/sitemaps';
import { VERSION } from '../../../src/core/identity';
import { COMMANDS, EXTENSION_ID } from '../../../src/extension/ids';
import type { SitemapsState } from '../../../src/shared/planner/viewModel';
import { test } from './harness';

interface DemoHost {
  name: string;
  origin: string;
  baseUrl: string;
}

let demo: DemoHost[] = [];
let sized: Extract<SitemapsState, { state: 'done' }>['sitemaps'] | undefined;

/** Runs the CLI in this process (its own argument parsing and code); its stdout, or the failure. */
async function cli(
  run: (argv: string[], io: { out(t: string): void; err(t: string): void; color: boolean }) => Promise<number>,
  argv: string[],
): Promise<string> {
  let out = '';
  let err = '';
  const status = await run(argv, { out: (t) => void (out += t), err: (t) => void (err += t), color: false });
  assert.equal(status, 0, err);
  return out;
}

async function filesUnder(folder: vscode.Uri, prefix = ''): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for (const [name, type] of await vscode.workspace.fs.readDirectory(folder)) {
    const uri = vscode.Uri.joinPath(folder, name);
    if (type === vscode.FileType.Directory)
      for (const [p, t] of await filesUnder(uri, `${prefix}${name}/`)) files.set(p, t);
    else files.set(`${prefix}${name}`, new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)));
  }
  return files;
}

test('Size Pages from Sitemaps: the demo hosts with a sitemap get its URL count, as crawl-planner sitemaps counts them; the others say why', async () => {
  demo = (await vscode.commands.executeCommand<{ hosts: DemoHost[] }>(COMMANDS.startDemoHosts)).hosts;
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  await vscode.workspace.fs.writeFile(
    vscode.Uri.joinPath(folder, 'demo-seeds.txt'),
    new TextEncoder().encode(demo.map((h) => h.baseUrl).join('\n') + '\n'),
  );
  await vscode.commands.executeCommand(COMMANDS.loadSeedsFile, 'demo-seeds.txt');
  await assert.rejects(
    () => Promise.resolve(vscode.commands.executeCommand(COMMANDS.sizeFromSitemaps, { changedSince: 'soon' })),
    /changedSince: "soon" is neither a date/,
  );

  const state = await vscode.commands.executeCommand<SitemapsState>(COMMANDS.sizeFromSitemaps, { changedSince: '' });
  assert.equal(state.state, 'done', JSON.stringify(state));
  sized = (state as Extract<SitemapsState, { state: 'done' }>).sitemaps;
  const cliDoc = JSON.parse(await cli(runSitemaps, ['--json', '--delay', '1', ...demo.map((h) => h.baseUrl)])) as {
    hosts: Array<{ host: string; urls: number; disallowed: number; files: number }>;
  };
  const pick = (h: { host: string; urls: number; disallowed: number; files: number }) => [
    h.host,
    h.urls,
    h.disallowed,
    h.files,
  ];
  assert.deepEqual(sized.hosts.map(pick), cliDoc.hosts.map(pick));
  const withSitemap = sized.hosts.filter((h) => h.files > 0);
  assert.ok(withSitemap.length >= 2, 'the fast and polite demo hosts serve a sitemap');
  for (const h of withSitemap) assert.equal(h.pages, h.urls);
  const unsized = sized.hosts.filter((x) => x.files === 0);
  for (const h of unsized) {
    assert.equal(h.pages, null);
    assert.ok(h.unknown !== null && h.unknown.reason.length > 0, `${h.host}: why it has no count`);
    assert.ok(h.errorCount > 0 && h.errors[0]!.message.length > 0, `${h.host}: an error says why`);
  }
  // The planner's plan now has those pages; the others (from "in total", no number) are pages unknown, not 0 pages
  // (this expected 0 before issue 24), and the plan says it is not complete.
  const plan = JSON.parse(await vscode.commands.executeCommand<string>(COMMANDS.copyPlanJson)) as {
    complete: boolean;
    unknownHosts: string[];
    hosts: Array<{ host: string; pages: number | null }>;
  };
  const pages = new Map(plan.hosts.map((h) => [h.host, h.pages]));
  for (const h of sized.hosts) assert.equal(pages.get(h.host), h.pages, h.host);
  assert.deepEqual([plan.complete, plan.unknownHosts], [unsized.length === 0, unsized.map((h) => h.host)]);
}, 120_000);

test('Export Plan… with a format and a folder writes what crawl-planner export writes for the same plan', async () => {
  assert.ok(sized, 'sized by the test before');
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const productVersion = (vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as { version: string }).version;
  // The CLI gets the settings the planner's form holds (an earlier suite may have taken a spider's delay and
  // workers into it): the same plan, whatever the form says.
  const { settings } = JSON.parse(await vscode.commands.executeCommand<string>(COMMANDS.copyPlanJson)) as {
    settings: {
      delaySeconds: number;
      delayFrom: string;
      workers: number;
      rate: number | null;
      machines: number | null;
    };
  };
  const planFlags = [
    '--delay',
    String(settings.delaySeconds),
    '--delay-from',
    settings.delayFrom,
    '--workers',
    String(settings.workers),
    ...(settings.rate === null ? [] : ['--rate', String(settings.rate)]),
    ...(settings.machines === null ? [] : ['--machines', String(settings.machines)]),
  ];
  for (const format of ['scrapy', 'crawlee', 'nutch', 'stormcrawler'] as const) {
    const target = vscode.Uri.joinPath(folder, `export-${format}`);
    const result = await vscode.commands.executeCommand<{ format: string; files: string[]; notes: string[] }>(
      COMMANDS.exportPlan,
      { format, folder: `export-${format}` },
    );
    assert.equal(result.format, format);
    assert.ok(result.notes.length > 0);
    const written = await filesUnder(target);
    assert.deepEqual([...written.keys()].sort(), [...result.files].sort());

    const cliOut = vscode.Uri.joinPath(folder, `cli-${format}`).fsPath;
    await cli(runExport, [
      '--format',
      format,
      '--out',
      cliOut,
      '--sitemaps',
      ...planFlags,
      ...demo.map((h) => h.baseUrl),
    ]);
    const fromCli = await filesUnder(vscode.Uri.file(cliOut));
    assert.deepEqual([...fromCli.keys()].sort(), [...written.keys()].sort(), format);
    // The CLI bundled into these tests names its version 0.0.0-dev (the User-Agent, the generator); the product, its own.
    for (const [path, text] of fromCli)
      assert.equal(written.get(path), text.split(VERSION).join(productVersion), `${format}: ${path}`);
  }
  await assert.rejects(
    () =>
      Promise.resolve(
        vscode.commands.executeCommand(COMMANDS.exportPlan, { format: 'scrapy', folder: 'export-scrapy' }),
      ),
    /is not empty; give another folder, or force: true/,
  );
  await assert.rejects(
    () => Promise.resolve(vscode.commands.executeCommand(COMMANDS.exportPlan, { format: 'heritrix', folder: 'x' })),
    /format/,
  );
  const again = await vscode.commands.executeCommand<{ files: string[] }>(COMMANDS.exportPlan, {
    format: 'scrapy',
    folder: 'export-scrapy',
    force: true,
  });
  assert.ok(again.files.length > 0);
}, 180_000);
