/**
 * The robots.txt editor commands.
 *
 * `crawlPlanner.testRobotsTxtUrls(uri?, { urls?, group?, productToken? })` tests URLs against the
 * document's UNSAVED text (`document.getText()`): it asks for the URLs when none are given, highlights each
 * deciding line (green allows, red blocks, with the URLs after the line), reveals the first one, lists the
 * verdicts in a quick pick when it asked, and returns the verdicts. Paths resolve against the file's origin;
 * when that is unknown, full URLs decide it, as the CLI's `--file` mode does. A lens passes `group`: the
 * URLs are then tested as a crawler that this group applies to.
 *
 * `crawlPlanner.compareLiveRobotsTxt(uri?, origin?)` fetches `<origin>/robots.txt` (deps.fetchLiveRobots,
 * through the extension's cache) and opens a diff: the fetched file (read-only) on the left, the buffer on
 * the right. In Restricted Mode it asks before fetching, since the origin may come from the file.
 */
import * as vscode from 'vscode';
import {
  robotsUrlForInputs,
  splitUrlInput,
  checkUrlsAgainstRobots,
  tokenForGroup,
  verdictMarks,
  type UrlCheck,
} from '../../core/robots/editor';
import type { RobotsVerdict } from '../../core/robots/explain';
import { originUnknown } from '../../core/robots/lint';
import { sanitizeText } from '../../core/format/table';
import { argObject, CommandArgumentError, optionalNumber } from '../commandArgs';
import { runCommand } from '../commandRun';
import { PRODUCT_TOKEN } from '../config';
import { COMMANDS, ROBOTS_LIVE_SCHEME } from '../ids';
import type { Log } from '../log';
import { analyseText, isRobotsTxt, type AnalysisCache } from './analysis';
import type { RobotsTxtSettings } from './settings';

/** What the test command returns, one per URL. */
export interface UrlTestResult {
  /** As typed. */
  input: string;
  /** The URL as checked, when it parsed. */
  url?: string;
  verdict: RobotsVerdict;
  /** The deciding line (1-based, a line of the document), when a rule decided. */
  line?: number;
  rule?: string;
  reason: string;
  productToken: string;
  robotsUrl: string;
}

export interface RobotsTxtCommandDeps {
  analyses: AnalysisCache;
  settings: () => RobotsTxtSettings;
  fetchLiveRobots(origin: string): Promise<string | undefined>;
  log: Log;
}

const MAX_URLS = 100;
const MAX_URL_LENGTH = 8192;

interface TestArgs {
  urls?: string[];
  group?: number;
  productToken?: string;
}

function testArgs(value: unknown): TestArgs {
  const o = argObject(COMMANDS.testRobotsTxtUrls, value);
  const out: TestArgs = {};
  if (o.urls !== undefined) {
    const list = typeof o.urls === 'string' ? splitUrlInput(o.urls) : o.urls;
    if (
      !Array.isArray(list) ||
      !list.every((u) => typeof u === 'string' && u.length <= MAX_URL_LENGTH) ||
      list.length === 0 ||
      list.length > MAX_URLS
    ) {
      throw new CommandArgumentError(`urls: 1 to ${MAX_URLS} URLs or paths, as a string or a list of strings`);
    }
    out.urls = typeof o.urls === 'string' ? list : splitUrlInput(list.join(' '));
  }
  const group = optionalNumber('group', o.group, { min: 0, max: 1_000_000, integer: true });
  if (group !== undefined) out.group = group;
  if (o.productToken !== undefined) {
    if (typeof o.productToken !== 'string' || !PRODUCT_TOKEN.test(o.productToken))
      throw new CommandArgumentError('productToken: a product token, [a-zA-Z_-]+');
    out.productToken = o.productToken;
  }
  return out;
}

async function documentFor(uri: unknown): Promise<vscode.TextDocument | undefined> {
  if (uri !== undefined && uri !== null && !(uri instanceof vscode.Uri))
    throw new CommandArgumentError('the first argument must be a document URI');
  if (uri instanceof vscode.Uri) {
    return (
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ??
      (await vscode.workspace.openTextDocument(uri))
    );
  }
  return vscode.window.activeTextEditor?.document;
}

function toResult(t: UrlCheck, productToken: string, robotsUrl: string): UrlTestResult {
  const e = t.explanation;
  return {
    input: t.input,
    ...(e.url !== undefined ? { url: e.url } : {}),
    verdict: e.verdict,
    ...(e.line !== undefined ? { line: e.line } : {}),
    ...(e.rule !== undefined ? { rule: e.rule } : {}),
    reason: e.reason,
    productToken,
    robotsUrl,
  };
}

const VERDICT_ICON: Record<UrlTestResult['verdict'], string> = {
  allowed: '$(pass)',
  disallowed: '$(circle-slash)',
  'not-applicable': '$(question)',
};

export function registerRobotsTxtCommands(context: vscode.ExtensionContext, deps: RobotsTxtCommandDeps): void {
  /** A deciding line's highlight: the diff editor's colours, green for allows and red for blocks. */
  const verdictLine = (background: string, ruler: string): vscode.TextEditorDecorationType =>
    vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor(background),
      overviewRulerColor: new vscode.ThemeColor(ruler),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
      after: { margin: '0 0 0 2em', color: new vscode.ThemeColor('editorCodeLens.foreground') },
    });
  const allowedLine = verdictLine('diffEditor.insertedLineBackground', 'editorOverviewRuler.addedForeground');
  const blockedLine = verdictLine('diffEditor.removedLineBackground', 'editorOverviewRuler.deletedForeground');
  /** The document whose lines are highlighted, and the highlights, so new editors of it show them too. */
  let marked: { uri: string; allowed: vscode.DecorationOptions[]; blocked: vscode.DecorationOptions[] } | undefined;
  let lastInput = '';

  const paint = (editor: vscode.TextEditor): void => {
    const mine = marked && editor.document.uri.toString() === marked.uri;
    editor.setDecorations(allowedLine, mine ? marked!.allowed : []);
    editor.setDecorations(blockedLine, mine ? marked!.blocked : []);
  };
  const clearMarks = (): void => {
    const uri = marked?.uri;
    marked = undefined;
    for (const editor of vscode.window.visibleTextEditors) if (editor.document.uri.toString() === uri) paint(editor);
  };

  const revealLine = (editor: vscode.TextEditor, line: number, select: boolean): void => {
    const index = Math.min(Math.max(line - 1, 0), editor.document.lineCount - 1);
    const range = editor.document.lineAt(index).range;
    if (select) editor.selection = new vscode.Selection(range.start, range.end);
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  };

  const testCommand = async (uriArg?: unknown, optionsArg?: unknown): Promise<UrlTestResult[] | undefined> =>
    runCommand(deps.log, 'Test URLs against this robots.txt', async () => {
      const args = testArgs(optionsArg);
      const document = await documentFor(uriArg);
      if (!document || !isRobotsTxt(document)) {
        void vscode.window.showInformationMessage('Open a robots.txt file to test URLs against it.');
        return undefined;
      }
      const settings = deps.settings();
      let inputs = args.urls;
      const interactive = inputs === undefined;
      if (inputs === undefined) {
        const text = await vscode.window.showInputBox({
          title: 'Test URLs against this robots.txt (unsaved changes included)',
          prompt: 'URLs or paths, separated by spaces or commas: /private/page https://example.com/shop?q=1',
          value: lastInput,
          ignoreFocusOut: true,
          validateInput: (v) =>
            splitUrlInput(v).length === 0
              ? 'Enter at least one URL or path.'
              : splitUrlInput(v).length > MAX_URLS
                ? `At most ${MAX_URLS} at once.`
                : undefined,
        });
        if (text === undefined) return undefined;
        lastInput = text;
        inputs = splitUrlInput(text);
      }

      // The buffer, saved or not; full URLs decide the origin when the file does not say it.
      let { lint } = deps.analyses.get(document);
      if (originUnknown(lint.file)) {
        const robotsUrl = robotsUrlForInputs(inputs);
        if (robotsUrl)
          lint = analyseText(document.uri, document.getText(), settings.maxCrawlDelaySeconds, robotsUrl).lint;
      }
      const token =
        args.productToken ??
        (args.group !== undefined ? tokenForGroup(lint.file, args.group, settings.userAgent) : settings.userAgent);
      const tests = checkUrlsAgainstRobots(lint.file, inputs, token);
      const results = tests.map((t) => toResult(t, token, lint.file.robotsUrl));
      for (const r of results) {
        deps.log.info(
          `robots.txt test as ${token}: ${r.verdict} ${sanitizeText(r.url ?? r.input)}${r.line !== undefined ? ` (line ${r.line}: ${sanitizeText(r.rule ?? '')})` : ''}`,
        );
      }

      // Highlight the deciding lines and show the first one.
      const marks = verdictMarks(tests);
      const toOptions = (m: (typeof marks)[number]): vscode.DecorationOptions => ({
        range: document.lineAt(Math.min(m.line - 1, document.lineCount - 1)).range,
        hoverMessage: new vscode.MarkdownString().appendText(m.inputs.join('\n')),
        renderOptions: { after: { contentText: `  ${m.text}` } },
      });
      marked = {
        uri: document.uri.toString(),
        allowed: marks.filter((m) => m.verdict === 'allowed').map(toOptions),
        blocked: marks.filter((m) => m.verdict === 'disallowed').map(toOptions),
      };
      let editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
      if (!editor && marks.length > 0)
        editor = await vscode.window.showTextDocument(document, { preserveFocus: true, preview: false });
      for (const e of vscode.window.visibleTextEditors) paint(e);
      const first = marks.find((m) => m.verdict === 'disallowed') ?? marks[0];
      if (editor && first) revealLine(editor, first.line, false);

      if (interactive) showVerdicts(results, document, token);
      return results;
    });

  const showVerdicts = (results: UrlTestResult[], document: vscode.TextDocument, token: string): void => {
    const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { line?: number }>();
    pick.title = `robots.txt verdicts for ${token}`;
    pick.placeholder = 'Select a verdict to show its deciding line';
    pick.matchOnDescription = true;
    pick.items = results.map((r) => ({
      label: `${VERDICT_ICON[r.verdict]} ${r.verdict}  ${sanitizeText(r.input)}`,
      description: r.line !== undefined ? `line ${r.line}: ${sanitizeText(r.rule ?? '')}` : 'no rule decided',
      detail: sanitizeText(r.reason),
      ...(r.line !== undefined ? { line: r.line } : {}),
    }));
    const show = (item: { line?: number } | undefined, select: boolean): void => {
      const editor = vscode.window.visibleTextEditors.find((e) => e.document === document);
      if (editor && item?.line !== undefined) revealLine(editor, item.line, select);
    };
    pick.onDidChangeActive((items) => show(items[0], false));
    pick.onDidAccept(() => {
      show(pick.selectedItems[0], true);
      pick.hide();
    });
    pick.onDidHide(() => pick.dispose());
    pick.show();
  };

  // The read-only live copies for the diff.
  const live = new Map<string, string>();
  const liveChanged = new vscode.EventEmitter<vscode.Uri>();
  const liveProvider: vscode.TextDocumentContentProvider = {
    onDidChange: liveChanged.event,
    provideTextDocumentContent: (uri) =>
      live.get(uri.toString()) ??
      `# ${sanitizeText(uri.query)}/robots.txt was not fetched in this session: use "Compare with live robots.txt" again.\n`,
  };

  const compareCommand = async (uriArg?: unknown, originArg?: unknown): Promise<boolean | undefined> =>
    runCommand(deps.log, 'Compare with live robots.txt', async () => {
      if (originArg !== undefined && typeof originArg !== 'string')
        throw new CommandArgumentError('origin: an http(s) origin such as https://example.com');
      const document = await documentFor(uriArg);
      if (!document || !isRobotsTxt(document)) {
        void vscode.window.showInformationMessage('Open a robots.txt file to compare it with the live one.');
        return undefined;
      }
      let origin = originArg ?? deps.analyses.get(document).liveOrigin?.origin;
      if (origin === undefined) {
        origin = await vscode.window.showInputBox({
          title: 'Compare with live robots.txt',
          prompt: 'The site this robots.txt is for',
          placeHolder: 'https://example.com',
          ignoreFocusOut: true,
          validateInput: (v) => (httpOrigin(v) ? undefined : 'An http:// or https:// URL.'),
        });
        if (origin === undefined) return undefined;
      }
      const checked = httpOrigin(origin);
      if (!checked)
        throw new CommandArgumentError(`origin: "${sanitizeText(origin).slice(0, 80)}" is not an http(s) URL`);
      if (!vscode.workspace.isTrusted) {
        const go = await vscode.window.showWarningMessage(
          `Fetch ${checked}/robots.txt? The workspace is in Restricted Mode, and this origin may come from the file.`,
          { modal: true },
          'Fetch',
        );
        if (go !== 'Fetch') return undefined;
      }
      const text = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Fetching ${checked}/robots.txt…` },
        () => deps.fetchLiveRobots(checked),
      );
      if (text === undefined) {
        void vscode.window.showWarningMessage(`Could not fetch ${checked}/robots.txt; the Crawl Planner log says why.`);
        return false;
      }
      const host = new URL(checked).host;
      const liveUri = vscode.Uri.from({ scheme: ROBOTS_LIVE_SCHEME, path: `/${host}/robots.txt`, query: checked });
      live.set(liveUri.toString(), text);
      liveChanged.fire(liveUri);
      const name = document.uri.path.split('/').pop() || 'robots.txt';
      await vscode.commands.executeCommand('vscode.diff', liveUri, document.uri, `${host}/robots.txt (live) ↔ ${name}`);
      return true;
    });

  context.subscriptions.push(
    allowedLine,
    blockedLine,
    liveChanged,
    vscode.workspace.registerTextDocumentContentProvider(ROBOTS_LIVE_SCHEME, liveProvider),
    vscode.commands.registerCommand(COMMANDS.testRobotsTxtUrls, testCommand),
    vscode.commands.registerCommand(COMMANDS.compareLiveRobotsTxt, compareCommand),
    // Highlights belong to the text they were computed for: any edit removes them.
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (marked && e.contentChanges.length > 0 && e.document.uri.toString() === marked.uri) clearMarks();
    }),
    vscode.window.onDidChangeVisibleTextEditors((editors) => {
      for (const e of editors) if (marked && e.document.uri.toString() === marked.uri) paint(e);
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === ROBOTS_LIVE_SCHEME) live.delete(d.uri.toString());
    }),
  );
}

/** `https://example.com` for an http(s) URL or origin, else undefined. */
function httpOrigin(text: string): string | undefined {
  try {
    const u = new URL(text.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}
