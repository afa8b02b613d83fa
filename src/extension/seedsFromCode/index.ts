/**
 * Seeds from the code being written (docs/extension.md §Seeds from code), the editor's side: a CodeLens above a
 * Scrapy spider's `start_urls` and above a Crawlee `crawler.run([...])` / `addRequests([...])` ("Plan 4 URLs ·
 * 2 hosts"), and "Plan URLs in Selection". Both put the URLs in the planner's seeds box and plan them; the
 * CodeLens also takes the spider's delay and workers into the form and says so. The files are only read (the
 * source, a settings.py next to it) and parsed by src/core/seedsFromCode; nothing in them is run.
 */
import * as vscode from 'vscode';
import {
  codeSeeds,
  formFromSettings,
  scrapySettingsModule,
  SEEDS_FROM_CODE_LIMITS,
  seedsTextOf,
  skippedText,
  urlsInText,
  type CodeLanguage,
  type CodeSeeds,
  type FormNumbersFromCode,
  type SettingsModule,
} from '../../core/seedsFromCode';
import { seedsTextProblem } from '../../shared/planner/limits';
import type { PlannerForm } from '../../shared/planner/form';
import { runCommand } from '../commandRun';
import { CommandArgumentError } from '../commandArgs';
import { COMMANDS, SETTINGS } from '../ids';
import type { Log } from '../log';
import type { PlannerViewApi } from '../planner/plannerView';
import { seedFileRef } from '../planner/seedFiles';

export interface SeedsFromCodeDeps {
  view: Pick<PlannerViewApi, 'reveal' | 'useSeedsText' | 'useSeedsFile' | 'currentSeeds' | 'currentForm'>;
  log: Log;
  /** Where a list too long for the seeds box is written as a seeds file (the workspace's storage). */
  storageUri: vscode.Uri;
}

/** What both commands resolve to (the extension-host tests read it). */
export interface PlannedFromCode {
  /** Seeds put in the planner (distinct URLs). */
  urls: number;
  hosts: number;
  /** Where they went: the seeds box, or a seeds file when the box cannot hold them. */
  source: 'text' | 'file';
  /** The form's numbers taken from the code. */
  form: Partial<PlannerForm>;
  taken: string[];
  notTaken: string[];
  /** Entries of the block not read (expressions, other schemes, strings left open). */
  skipped: number;
  /** What the planner holds afterwards: its seeds (how many, the first ten) and its form. */
  planner: { seeds: number; firstSeeds: string[]; form: PlannerForm };
}

function plannerNow(view: SeedsFromCodeDeps['view']): PlannedFromCode['planner'] {
  const seeds = view.currentSeeds();
  return { seeds: seeds.length, firstSeeds: seeds.slice(0, 10), form: view.currentForm() };
}

/** The languages whose files get the CodeLens. */
const LANGUAGES: Readonly<Record<string, CodeLanguage>> = {
  python: 'python',
  javascript: 'javascript',
  typescript: 'javascript',
  javascriptreact: 'javascript',
  typescriptreact: 'javascript',
};

/** The file with a seeds list too long for the box, under the workspace's storage. */
export const SELECTION_SEEDS_FILE = 'seeds-from-code.txt';

/** By file name, for a file whose language VS Code does not know (no Python support installed). */
const EXTENSIONS: Readonly<Record<string, CodeLanguage>> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'javascript',
  mts: 'javascript',
  cts: 'javascript',
};

function languageOf(document: vscode.TextDocument): CodeLanguage | undefined {
  const byId = LANGUAGES[document.languageId];
  if (byId !== undefined || document.languageId !== 'plaintext') return byId;
  return EXTENSIONS[document.uri.path.slice(document.uri.path.lastIndexOf('.') + 1).toLowerCase()];
}

function enabled(): boolean {
  return vscode.workspace.getConfiguration().get<unknown>(SETTINGS.seedsFromCodeEnabled) !== false;
}

function label(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** A file's text: the open editor's (unsaved edits included), else the file's when it has at most `maxBytes`. */
async function readText(uri: vscode.Uri, maxBytes: number): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open !== undefined) return open.getText();
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory || stat.size > maxBytes) return undefined;
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

/** The Scrapy project's settings.py: next to the spider, else in the folder above (`project/spiders/x.py`). */
async function settingsModuleFor(spider: vscode.Uri): Promise<SettingsModule | undefined> {
  const folder = vscode.Uri.joinPath(spider, '..');
  for (const candidate of [
    vscode.Uri.joinPath(folder, 'settings.py'),
    vscode.Uri.joinPath(folder, '..', 'settings.py'),
  ]) {
    if (candidate.toString() === spider.toString()) continue;
    const text = await readText(candidate, SEEDS_FROM_CODE_LIMITS.settingsBytes);
    if (text !== undefined) return { label: label(candidate), reads: scrapySettingsModule(text) };
  }
  return undefined;
}

function plural(n: number, one: string): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : `${one}s`}`;
}

/** The form's fields for the numbers taken: a delay is measured start to start, as Scrapy and Crawlee do. */
function formFields(numbers: FormNumbersFromCode): Partial<PlannerForm> {
  const form: Partial<PlannerForm> = {};
  if (numbers.delaySeconds !== undefined)
    Object.assign(form, { delaySeconds: numbers.delaySeconds, delayFrom: 'start' });
  if (numbers.workers !== undefined) form.workers = numbers.workers;
  if (numbers.rate !== undefined) form.rate = numbers.rate;
  if (numbers.pages !== undefined) Object.assign(form, { pages: numbers.pages, pagesMode: 'total' });
  return form;
}

/** Puts `urls` in the planner (the box, or a seeds file when the box cannot hold them) and shows it. */
async function plan(
  deps: SeedsFromCodeDeps,
  urls: string[],
  comment: string,
  form: Partial<PlannerForm>,
  notice: string,
): Promise<'text' | 'file'> {
  const text = seedsTextOf(urls, comment);
  let source: 'text' | 'file' = 'text';
  if (seedsTextProblem(text) === undefined) {
    await deps.view.useSeedsText(text, form, notice);
  } else {
    const file = vscode.Uri.joinPath(deps.storageUri, SELECTION_SEEDS_FILE);
    await vscode.workspace.fs.createDirectory(deps.storageUri);
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(text));
    // The box keeps its text; the file becomes the source.
    await deps.view.useSeedsText(undefined, form, notice);
    await deps.view.useSeedsFile(seedFileRef(file));
    source = 'file';
  }
  await deps.view.reveal();
  return source;
}

/** The CodeLens's command: plans the block at `line` of the file `uri`. */
async function planBlock(
  deps: SeedsFromCodeDeps,
  uriText: unknown,
  line: unknown,
): Promise<PlannedFromCode | undefined> {
  if (typeof uriText !== 'string' || typeof line !== 'number')
    throw new CommandArgumentError('give the file (a URI) and the line of its start URLs');
  const uri = vscode.Uri.parse(uriText, true);
  const document = await vscode.workspace.openTextDocument(uri);
  const language = languageOf(document);
  if (language === undefined) throw new CommandArgumentError(`${label(uri)} is not Python, JavaScript or TypeScript`);
  const name = label(uri);
  const module = language === 'python' ? await settingsModuleFor(uri) : undefined;
  const found = codeSeeds(document.getText(), language, name.slice(name.lastIndexOf('/') + 1), module).find(
    (s) => s.block.line === line,
  );
  if (found === undefined) throw new CommandArgumentError(`no start URLs at line ${line} of ${name} any more`);
  if (found.urls.length === 0) {
    void vscode.window.showWarningMessage(
      `No URL to plan in ${found.block.name} (${name}:${line}): ${skippedText(found.block.skipped) || 'it is empty'}.`,
    );
    return undefined;
  }
  const numbers = formFromSettings(found.settings);
  const form = formFields(numbers.form);
  const what = `${found.block.owner !== undefined && found.block.framework === 'scrapy' ? `${found.block.owner}.` : ''}${found.block.name}`;
  const source = await plan(
    deps,
    found.urls,
    `from ${what} in ${name}, line ${line}`,
    form,
    sidebarNotice(found, name, numbers.taken),
  );
  void vscode.window.showInformationMessage(infoMessage(found, what, name, numbers.taken, numbers.notTaken));
  deps.log.info(
    `Seeds from code: ${found.urls.length} URLs from ${what} in ${name}; ${numbers.taken.join('; ') || 'no setting taken'}`,
  );
  return {
    urls: found.urls.length,
    hosts: found.hosts,
    source,
    form,
    taken: numbers.taken,
    notTaken: numbers.notTaken,
    skipped: found.block.skipped.length,
    planner: plannerNow(deps.view),
  };
}

function sidebarNotice(found: CodeSeeds, name: string, taken: string[]): string {
  const base = `${plural(found.urls.length, 'URL')} · ${plural(found.hosts, 'host')} from ${name}`;
  return taken.length === 0
    ? `${base}.`
    : `${base}; from its settings: ${taken.map((t) => t.slice(t.indexOf('→ ') + 2)).join(', ')}.`;
}

function infoMessage(found: CodeSeeds, what: string, name: string, taken: string[], notTaken: string[]): string {
  const parts = [
    `Planning ${plural(found.urls.length, 'URL')} (${plural(found.hosts, 'host')}) from ${what} in ${name}.`,
  ];
  if (taken.length > 0) parts.push(`Set in the planner: ${taken.join('; ')}.`);
  if (notTaken.length > 0) parts.push(`Not used: ${notTaken.join('; ')}.`);
  const skipped = skippedText(found.block.skipped);
  if (skipped !== '') parts.push(`${skipped}.`);
  return parts.join(' ');
}

/** Plan URLs in Selection: the http(s) URLs of the selections (or of the whole file) in the active editor. */
async function planSelection(deps: SeedsFromCodeDeps): Promise<PlannedFromCode | undefined> {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined)
    throw new CommandArgumentError('open a file with URLs first (a spider, a seeds list, a CSV, a sitemap)');
  const document = editor.document;
  const selected = editor.selections.filter((s) => !s.isEmpty);
  const whole = selected.length === 0;
  const text = whole ? document.getText() : selected.map((s) => document.getText(s)).join('\n');
  const name = label(document.uri);
  if (text.length > SEEDS_FROM_CODE_LIMITS.textChars) {
    throw new CommandArgumentError(
      `${whole ? name : 'the selection'} has ${plural(text.length, 'character')}; at most ${plural(SEEDS_FROM_CODE_LIMITS.textChars, 'character')} are read. Select a part, or plan it with crawl-planner estimate --seeds-file.`,
    );
  }
  const csv = document.languageId === 'csv' || /\.(?:csv|tsv)$/i.test(document.uri.path);
  const found = urlsInText(text, { format: csv ? 'csv' : 'text' });
  const where = whole ? name : `the selection in ${name}`;
  if (found.urls.length === 0) {
    void vscode.window.showWarningMessage(`No http(s) URL in ${where}.`);
    return undefined;
  }
  const hosts = new Set(found.urls.map((u) => new URL(u).host)).size;
  const source = await plan(
    deps,
    found.urls,
    `from ${where}`,
    {},
    `${plural(found.urls.length, 'URL')} · ${plural(hosts, 'host')} from ${where}.`,
  );
  const left = found.leftOut > 0 ? ` ${plural(found.leftOut, 'candidate')} left out (templates, or no host).` : '';
  void vscode.window.setStatusBarMessage(
    `$(check) Planning ${plural(found.urls.length, 'URL')} (${plural(hosts, 'host')}) from ${where}.${left}`,
    5000,
  );
  return {
    urls: found.urls.length,
    hosts,
    source,
    form: {},
    taken: [],
    notTaken: [],
    skipped: found.leftOut,
    planner: plannerNow(deps.view),
  };
}

class SeedsCodeLensProvider implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  refresh(): void {
    this.changed.fire();
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const language = languageOf(document);
    if (!enabled() || language === undefined) return [];
    const text = document.getText();
    if (text.length > SEEDS_FROM_CODE_LIMITS.codeChars) return [];
    // Titles need no settings: settings.py is read only when a lens is clicked.
    return codeSeeds(text, language, '').map(({ block, title, urls }) => {
      const at = new vscode.Position(block.line - 1, block.column);
      const skipped = skippedText(block.skipped);
      const command: vscode.Command =
        urls.length === 0
          ? { title: `${title}${skipped === '' ? '' : ` (${skipped})`}`, command: '' }
          : {
              title,
              command: COMMANDS.planSeedsFromCode,
              arguments: [document.uri.toString(), block.line],
              tooltip: `Put these URLs in the Crawl Planner and plan them${skipped === '' ? '' : `. ${skipped}`}`,
            };
      return new vscode.CodeLens(new vscode.Range(at, at), command);
    });
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** Registers the CodeLens and both commands; a long list goes under the workspace's storage (the global one without a folder). */
export function registerSeedsFromCode(
  context: vscode.ExtensionContext,
  using: Omit<SeedsFromCodeDeps, 'storageUri'>,
): void {
  const deps: SeedsFromCodeDeps = { ...using, storageUri: context.storageUri ?? context.globalStorageUri };
  const lenses = new SeedsCodeLensProvider();
  context.subscriptions.push(
    lenses,
    vscode.languages.registerCodeLensProvider(
      [
        ...Object.keys(LANGUAGES).map((language) => ({ language })),
        { language: 'plaintext', pattern: `**/*.{${Object.keys(EXTENSIONS).join(',')}}` },
      ],
      lenses,
    ),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SETTINGS.seedsFromCodeEnabled)) lenses.refresh();
    }),
    vscode.commands.registerCommand(COMMANDS.planSeedsFromCode, (uri?: unknown, line?: unknown) =>
      runCommand(deps.log, 'Plan Start URLs from Code', () => planBlock(deps, uri, line)),
    ),
    vscode.commands.registerCommand(COMMANDS.planUrlsInSelection, () =>
      runCommand(deps.log, 'Plan URLs in Selection', () => planSelection(deps)),
    ),
  );
}
