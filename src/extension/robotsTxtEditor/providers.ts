/**
 * Hover, CodeLens and quick-fix providers: thin adapters over src/core/robots/editor/. Each checks its
 * feature switch on every call, so switching a feature off takes effect at once.
 */
import * as vscode from 'vscode';
import type { RobotsFinding } from '../../core/robots';
import { codeLenses, hoverAt, quickFixes, type TextEditSpec } from '../../core/robots/editor';
import { COMMANDS, ROBOTS_TXT_DIAGNOSTIC_SOURCE, ROBOTS_TXT_LANGUAGE_ID } from '../ids';
import { editorContext, isReadOnlyCopy, type AnalysisCache } from './analysis';
import type { RobotsTxtSettings } from './settings';

export const ROBOTS_TXT_SELECTOR: vscode.DocumentSelector = { language: ROBOTS_TXT_LANGUAGE_ID };

export interface ProviderDeps {
  analyses: AnalysisCache;
  settings: () => RobotsTxtSettings;
}

export function createHoverProvider(deps: ProviderDeps): vscode.HoverProvider {
  return {
    provideHover(document, position) {
      const s = deps.settings();
      if (!s.features.hovers) return undefined;
      const { lint } = deps.analyses.get(document);
      const markdown = hoverAt(lint.file, position.line + 1, position.character, editorContext(s));
      if (markdown === undefined) return undefined;
      const line = document.lineAt(position.line);
      const hash = line.text.indexOf('#');
      const end = (hash < 0 ? line.text : line.text.slice(0, hash)).trimEnd().length;
      const range = new vscode.Range(
        position.line,
        line.firstNonWhitespaceCharacterIndex,
        position.line,
        Math.max(end, line.firstNonWhitespaceCharacterIndex),
      );
      // Not trusted, no HTML: everything from the file is escaped by the core, and no command links are needed.
      return new vscode.Hover(new vscode.MarkdownString(markdown), range);
    },
  };
}

export interface CodeLensProvider extends vscode.CodeLensProvider, vscode.Disposable {
  /** Re-asks VS Code for lenses (settings changed). */
  refresh(): void;
}

export function createCodeLensProvider(deps: ProviderDeps): CodeLensProvider {
  const changed = new vscode.EventEmitter<void>();
  return {
    onDidChangeCodeLenses: changed.event,
    refresh: () => changed.fire(),
    dispose: () => changed.dispose(),
    provideCodeLenses(document) {
      const s = deps.settings();
      if (!s.features.codeLens) return [];
      const analysis = deps.analyses.get(document);
      const specs = codeLenses(
        analysis.lint.file,
        editorContext(s),
        analysis.liveOrigin ? { liveOrigin: analysis.liveOrigin } : {},
      );
      return specs.map((spec) => {
        const range = new vscode.Range(spec.line - 1, 0, spec.line - 1, 0);
        const tooltip = spec.tooltip ? { tooltip: spec.tooltip } : {};
        switch (spec.kind) {
          case 'test-urls':
            return new vscode.CodeLens(range, {
              title: spec.title,
              command: COMMANDS.testRobotsTxtUrls,
              arguments: [document.uri, spec.group !== undefined ? { group: spec.group } : {}],
              ...tooltip,
            });
          case 'compare-live':
            return new vscode.CodeLens(range, {
              title: spec.title,
              command: COMMANDS.compareLiveRobotsTxt,
              arguments: [document.uri, spec.origin],
              ...tooltip,
            });
          case 'crawl-delay':
            // Information only: an empty command id makes the lens plain text.
            return new vscode.CodeLens(range, { title: spec.title, command: '', ...tooltip });
        }
      });
    },
  };
}

/** The finding a diagnostic was made from, in the current analysis (same code and line, closest column). */
function findingFor(findings: readonly RobotsFinding[], diagnostic: vscode.Diagnostic): RobotsFinding | undefined {
  const code = typeof diagnostic.code === 'object' ? diagnostic.code.value : diagnostic.code;
  const line = diagnostic.range.start.line + 1;
  const candidates = findings.filter((f) => f.code === code && f.line === line);
  return (
    candidates.find((f) => (f.column ?? diagnostic.range.start.character) === diagnostic.range.start.character) ??
    candidates[0]
  );
}

export function toWorkspaceEdit(document: vscode.TextDocument, edits: readonly TextEditSpec[]): vscode.WorkspaceEdit {
  const eol = document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) {
    const range = new vscode.Range(e.line - 1, e.startColumn, (e.endLine ?? e.line) - 1, e.endColumn);
    edit.replace(document.uri, document.validateRange(range), e.newText.replace(/\n/g, eol));
  }
  return edit;
}

export function createCodeActionProvider(deps: ProviderDeps): vscode.CodeActionProvider {
  return {
    provideCodeActions(document, _range, context) {
      if (!deps.settings().features.quickFixes || isReadOnlyCopy(document.uri)) return [];
      if (context.only && !context.only.intersects(vscode.CodeActionKind.QuickFix)) return [];
      const ours = context.diagnostics.filter((d) => d.source === ROBOTS_TXT_DIAGNOSTIC_SOURCE);
      if (ours.length === 0) return [];
      const { lint } = deps.analyses.get(document);
      const actions: vscode.CodeAction[] = [];
      for (const diagnostic of ours) {
        const finding = findingFor(lint.findings, diagnostic);
        if (!finding) continue;
        for (const fix of quickFixes(lint.file, finding)) {
          const action = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
          action.diagnostics = [diagnostic];
          action.isPreferred = fix.isPreferred;
          action.edit = toWorkspaceEdit(document, fix.edits);
          actions.push(action);
        }
      }
      return actions;
    },
  };
}

export const CODE_ACTION_METADATA: vscode.CodeActionProviderMetadata = {
  providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
};
