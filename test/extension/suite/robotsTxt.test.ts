/**
 * robots.txt in the editor, through the real API: the language for files named robots.txt, diagnostics
 * (source, codes, severities, the debounce on change, the switch), hovers, CodeLens titles, quick fixes
 * the "Test URLs" command on the unsaved buffer, and "Compare with live robots.txt" against a robots.txt
 * served on loopback.
 *
 * The file lives in `<workspace>/robots-txt-test/example.com/robots.txt`, so its origin comes from the
 * folder name (https://example.com).
 */
import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as vscode from 'vscode';
import {
  COMMANDS,
  EXTENSION_ID,
  ROBOTS_TXT_DIAGNOSTIC_SOURCE,
  ROBOTS_TXT_LANGUAGE_ID,
  SETTINGS,
} from '../../../src/extension/ids';
import type { UrlTestResult } from '../../../src/extension/robotsTxtEditor';
import { test, waitFor } from './harness';

const TEXT = [
  'Disallow: /early', // 1  rule-outside-group
  'User-agent: Googlebot', // 2
  'Disalow: /private', // 3  directive-typo
  'Crawl-delay: 10', // 4  crawl-delay-ignored-by-google
  '', // 5
  'User-agent: *', // 6
  'Disallow /tmp', // 7  missing-colon
  'Sitemap: /sitemap.xml', // 8  sitemap-relative
  'Crawl-delay: 1e1', // 9  crawl-delay-exponent
  '', // 10
].join('\n');

const folder = (): vscode.Uri =>
  vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'robots-txt-test', 'example.com');
const fileUri = (): vscode.Uri => vscode.Uri.joinPath(folder(), 'robots.txt');

async function openFresh(text = TEXT): Promise<vscode.TextDocument> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.workspace.fs.createDirectory(folder());
  await vscode.workspace.fs.writeFile(fileUri(), new TextEncoder().encode(text));
  const document = await vscode.workspace.openTextDocument(fileUri());
  await vscode.window.showTextDocument(document);
  if (document.getText() !== text) {
    // An editor from an earlier test may still hold older text: make the buffer the file again.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), text);
    await vscode.workspace.applyEdit(edit);
    await document.save();
  }
  return document;
}

const ours = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === ROBOTS_TXT_DIAGNOSTIC_SOURCE);
const codeOf = (d: vscode.Diagnostic): string => String(typeof d.code === 'object' ? d.code.value : d.code);
const codes = (uri: vscode.Uri): string[] => ours(uri).map((d) => `${d.range.start.line + 1}:${codeOf(d)}`);

async function hoverText(uri: vscode.Uri, line: number, character = 2): Promise<string> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
    'vscode.executeHoverProvider',
    uri,
    new vscode.Position(line - 1, character),
  );
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100);
  return lenses.map((l) => `${l.range.start.line + 1}:${l.command?.title ?? ''}`);
}

async function setSetting(key: string, value: unknown): Promise<void> {
  const section = vscode.workspace.getConfiguration(SETTINGS.section);
  await section.update(key.slice(SETTINGS.section.length + 1), value, vscode.ConfigurationTarget.Workspace);
}

test('files named robots.txt get the robots-txt language', async () => {
  await vscode.extensions.getExtension(EXTENSION_ID)!.activate();
  const document = await openFresh();
  assert.equal(document.languageId, ROBOTS_TXT_LANGUAGE_ID);
});

test('diagnostics: one per finding, source "Crawl Planner", the finding code, mapped severities and ranges', async () => {
  const document = await openFresh();
  const expected = [
    '1:rule-outside-group',
    '3:directive-typo',
    '4:crawl-delay-ignored-by-google',
    '7:missing-colon',
    '8:sitemap-relative',
    '9:crawl-delay-exponent',
  ];
  await waitFor('the diagnostics', () => expected.every((c) => codes(document.uri).includes(c)));
  const all = ours(document.uri);
  const byCode = (code: string) => all.find((d) => codeOf(d) === code)!;
  assert.equal(byCode('directive-typo').severity, vscode.DiagnosticSeverity.Warning);
  assert.equal(byCode('crawl-delay-ignored-by-google').severity, vscode.DiagnosticSeverity.Information);
  // The typo's range is the key; the Sitemap's is the value.
  assert.deepEqual(
    [byCode('directive-typo').range.start.character, byCode('directive-typo').range.end.character],
    [0, 7],
  );
  assert.equal(document.getText(byCode('sitemap-relative').range), '/sitemap.xml');
  assert.match(byCode('directive-typo').message, /"Disalow" is read as "Disallow"/);
});

test('diagnostics follow the unsaved buffer (debounced), and leave when the document closes', async () => {
  const document = await openFresh();
  await waitFor('the typo diagnostic', () => codes(document.uri).includes('3:directive-typo'));
  const edit = new vscode.WorkspaceEdit();
  edit.replace(document.uri, new vscode.Range(2, 0, 2, 7), 'Disallow');
  await vscode.workspace.applyEdit(edit);
  assert.ok(document.isDirty, 'not saved');
  await waitFor('the typo diagnostic to go', () => !codes(document.uri).includes('3:directive-typo'));
  assert.ok(codes(document.uri).includes('7:missing-colon'), 'the others stay');
  // Changing the language closes the document and opens it again (onDidCloseTextDocument, then
  // onDidOpenTextDocument): closing an editor does not close its document at a predictable time.
  const plain = await vscode.languages.setTextDocumentLanguage(document, 'plaintext');
  await waitFor('diagnostics removed', () => ours(plain.uri).length === 0);
  const again = await vscode.languages.setTextDocumentLanguage(plain, ROBOTS_TXT_LANGUAGE_ID);
  await waitFor('diagnostics back', () => codes(again.uri).includes('7:missing-colon'));
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('hover on Crawl-delay: effective interval, pages/hour, pages/day, time for N pages', async () => {
  const document = await openFresh();
  const text = await hoverText(document.uri, 4);
  assert.match(text, /one request every \*\*10 s\*\*/);
  assert.match(text, /\| Interval \| Pages\/hour \| Pages\/day \| [\d,]+ pages? \|/);
  assert.match(text, /\| 10 s \| 360 \| 8,640 \| ≈ [^|]+ \|/);
  assert.match(text, /Google: not supported/);
});

test('hover on User-agent: which crawlers the group catches; on a directive: what it means', async () => {
  const document = await openFresh();
  const googlebot = await hoverText(document.uri, 2);
  assert.match(googlebot, /\*\*Googlebot\*\* \(Google\): crawls for Google Search/);
  assert.match(googlebot, /\*\*Googlebot-Image\*\*/);
  const star = await hoverText(document.uri, 6);
  assert.match(star, /it also catches\*\* every crawler that no group names/);
  assert.match(star, /Bingbot/);
  const sitemap = await hoverText(document.uri, 8);
  assert.match(sitemap, /Read as `https:\/\/example\.com\/sitemap\.xml`/);
  assert.equal((await hoverText(document.uri, 5, 0)).trim(), '', 'nothing on a blank line');
});

test('CodeLens: "Test URLs…" per group, the Crawl-delay cost, "Compare with live robots.txt"', async () => {
  const document = await openFresh();
  const titles = await waitFor('the lenses', async () => {
    const t = await lensTitles(document.uri);
    return t.length >= 4 ? t : undefined;
  });
  assert.ok(titles.includes('1:Compare with live robots.txt (https://example.com)'), titles.join(' | '));
  assert.ok(titles.includes('2:Test URLs…'), titles.join(' | '));
  assert.ok(titles.includes('6:Test URLs…'), titles.join(' | '));
  assert.ok(
    titles.some((t) => /^4:360 pages\/hour · [\d,]+ pages? ≈ /.test(t)),
    titles.join(' | '),
  );
  const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
    'vscode.executeCodeLensProvider',
    document.uri,
    100,
  );
  const testLens = lenses.find((l) => l.command?.title === 'Test URLs…' && l.range.start.line === 1)!;
  assert.equal(testLens.command?.command, COMMANDS.testRobotsTxtUrls);
  assert.deepEqual(testLens.command?.arguments?.[1], { group: 0 });
});

test('quick fixes: typo, missing colon, missing "User-agent: *", relative Sitemap', async () => {
  const document = await openFresh();
  await waitFor('the diagnostics', () =>
    ['1:rule-outside-group', '3:directive-typo', '7:missing-colon', '8:sitemap-relative'].every((c) =>
      codes(document.uri).includes(c),
    ),
  );
  const fixesAt = async (code: string): Promise<vscode.CodeAction[]> => {
    const diagnostic = ours(document.uri).find((d) => codeOf(d) === code)!;
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      diagnostic.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    // (The command's result does not carry `diagnostics`; the range is the diagnostic's own, which no other overlaps.)
    return actions.filter(
      (a): a is vscode.CodeAction => 'kind' in a && a.kind?.value === vscode.CodeActionKind.QuickFix.value,
    );
  };
  const titles = async (code: string) => (await fixesAt(code)).map((a) => a.title);
  assert.deepEqual(await titles('directive-typo'), ['Change "Disalow" to "Disallow"']);
  assert.deepEqual(await titles('missing-colon'), ['Add ":" after "Disallow"']);
  assert.deepEqual(await titles('rule-outside-group'), ['Add "User-agent: *" above line 1']);
  assert.deepEqual(await titles('sitemap-relative'), [
    'Make the Sitemap URL absolute: https://example.com/sitemap.xml',
  ]);
  assert.equal((await fixesAt('directive-typo'))[0]?.isPreferred, true);

  // Apply them one by one (each edit moves nothing above it, but the diagnostics must catch up each time).
  for (const code of ['sitemap-relative', 'missing-colon', 'directive-typo', 'rule-outside-group']) {
    await waitFor(`a fix for ${code}`, async () => (await fixesAt(code)).length > 0);
    const [fix] = await fixesAt(code);
    assert.ok(await vscode.workspace.applyEdit(fix!.edit!), `${code} applied`);
    await waitFor(`${code} to go`, () => !ours(document.uri).some((d) => codeOf(d) === code));
  }
  assert.equal(
    document.getText(),
    [
      'User-agent: *',
      'Disallow: /early',
      'User-agent: Googlebot',
      'Disallow: /private',
      'Crawl-delay: 10',
      '',
      'User-agent: *',
      'Disallow: /tmp',
      'Sitemap: https://example.com/sitemap.xml',
      'Crawl-delay: 1e1',
      '',
    ].join('\n'),
  );
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('"Test URLs against this robots.txt" uses the unsaved buffer and returns verdicts with deciding lines', async () => {
  const document = await openFresh();
  const edit = new vscode.WorkspaceEdit();
  edit.insert(document.uri, new vscode.Position(9, 0), 'Disallow: /unsaved\n');
  await vscode.workspace.applyEdit(edit);
  assert.ok(document.isDirty);
  const results = await vscode.commands.executeCommand<UrlTestResult[]>(COMMANDS.testRobotsTxtUrls, document.uri, {
    urls: ['/unsaved/page', 'https://example.com/tmp/x', '/public', 'https://elsewhere.example/'],
  });
  assert.deepEqual(
    results.map((r) => [r.input, r.verdict, r.line]),
    [
      ['/unsaved/page', 'disallowed', 10],
      ['https://example.com/tmp/x', 'disallowed', 7],
      ['/public', 'allowed', undefined],
      ['https://elsewhere.example/', 'not-applicable', undefined],
    ],
  );
  assert.equal(results[0]?.robotsUrl, 'https://example.com/robots.txt');
  // A group's lens tests as a crawler of that group.
  const asGooglebot = await vscode.commands.executeCommand<UrlTestResult[]>(COMMANDS.testRobotsTxtUrls, document.uri, {
    urls: '/private/x /tmp',
    group: 0,
  });
  assert.deepEqual(
    asGooglebot.map((r) => [r.productToken, r.verdict, r.line]),
    [
      ['Googlebot', 'disallowed', 3],
      ['Googlebot', 'allowed', undefined],
    ],
  );
  await assert.rejects(
    Promise.resolve(vscode.commands.executeCommand(COMMANDS.testRobotsTxtUrls, document.uri, { urls: 42 })),
    /urls/,
  );
  await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
});

test('"Compare with live robots.txt" diffs the file served by the origin against the buffer', async () => {
  const live = 'User-agent: *\nDisallow: /live-only\n';
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(req.url === '/robots.txt' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(req.url === '/robots.txt' ? live : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const document = await openFresh();
    assert.equal(await vscode.commands.executeCommand(COMMANDS.compareLiveRobotsTxt, document.uri, origin), true);
    assert.deepEqual(requests, ['/robots.txt']);
    const tab = await waitFor('the diff editor', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputTextDiff ? input : undefined;
    });
    assert.equal(tab.modified.toString(), document.uri.toString());
    const left = await vscode.workspace.openTextDocument(tab.original);
    assert.equal(left.getText(), live);
    assert.equal(left.languageId, ROBOTS_TXT_LANGUAGE_ID);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  }
});

test('each feature can be switched off', async () => {
  const document = await openFresh();
  await waitFor('the diagnostics', () => ours(document.uri).length > 0);
  try {
    await setSetting(SETTINGS.robotsTxtDiagnostics, false);
    await waitFor('diagnostics cleared', () => ours(document.uri).length === 0);
    await setSetting(SETTINGS.robotsTxtHovers, false);
    assert.equal((await hoverText(document.uri, 4)).trim(), '');
    await setSetting(SETTINGS.robotsTxtCodeLens, false);
    assert.deepEqual(await lensTitles(document.uri), []);
    await setSetting(SETTINGS.robotsTxtQuickFixes, false);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      document.uri,
      new vscode.Range(2, 0, 2, 7),
    );
    assert.deepEqual(
      actions.filter((a) => a.title.startsWith('Change "Disalow"')),
      [],
    );
  } finally {
    for (const key of [
      SETTINGS.robotsTxtDiagnostics,
      SETTINGS.robotsTxtHovers,
      SETTINGS.robotsTxtCodeLens,
      SETTINGS.robotsTxtQuickFixes,
    ])
      await setSetting(key, undefined);
  }
  await waitFor('diagnostics back', () => ours(document.uri).length > 0);
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.workspace.fs.delete(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'robots-txt-test'), {
    recursive: true,
  });
});
