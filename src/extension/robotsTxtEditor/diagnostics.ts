/**
 * Diagnostics for robots.txt documents: one per lint finding, source "Crawl Planner", code = the finding's
 * stable code. Computed when a document opens, ~300 ms after the last change while typing, and again
 * when the settings change; removed when the document closes or the feature is switched off.
 */
import * as vscode from 'vscode';
import type { RobotsFinding } from '../../core/robots';
import { ROBOTS_TXT_DIAGNOSTIC_SOURCE } from '../ids';
import type { AnalysisCache } from './analysis';
import { isRobotsTxt } from './analysis';
import type { RobotsTxtSettings } from './settings';

export const DIAGNOSTICS_DEBOUNCE_MS = 300;

const SEVERITY: Record<RobotsFinding['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

/** Findings whose line has no effect: shown faded. */
const UNNECESSARY = new Set<string>(['rule-duplicate', 'crawl-delay-duplicate', 'empty-allow', 'sitemap-duplicate']);

/** The finding's range in the document: its columns, or the line's text without surrounding blanks. */
export function findingRange(
  document: vscode.TextDocument,
  finding: Pick<RobotsFinding, 'line' | 'column' | 'endColumn'>,
): vscode.Range {
  const index = Math.min(Math.max(finding.line - 1, 0), Math.max(document.lineCount - 1, 0));
  const line = document.lineAt(index);
  if (finding.column !== undefined && finding.endColumn !== undefined && finding.line - 1 === index) {
    const end = Math.min(finding.endColumn, line.text.length);
    return new vscode.Range(index, Math.min(finding.column, end), index, end);
  }
  if (line.isEmptyOrWhitespace) return line.range;
  return new vscode.Range(index, line.firstNonWhitespaceCharacterIndex, index, line.text.trimEnd().length);
}

export function toDiagnostic(document: vscode.TextDocument, finding: RobotsFinding): vscode.Diagnostic {
  const d = new vscode.Diagnostic(findingRange(document, finding), finding.message, SEVERITY[finding.severity]);
  d.source = ROBOTS_TXT_DIAGNOSTIC_SOURCE;
  d.code = finding.code;
  if (UNNECESSARY.has(finding.code)) d.tags = [vscode.DiagnosticTag.Unnecessary];
  return d;
}

export interface DiagnosticsDeps {
  analyses: AnalysisCache;
  settings: () => RobotsTxtSettings;
}

/** Registers the collection and its listeners; returns `refreshAll` for settings changes. */
export function registerRobotsTxtDiagnostics(
  context: vscode.ExtensionContext,
  deps: DiagnosticsDeps,
): { refreshAll(): void } {
  const collection = vscode.languages.createDiagnosticCollection('robots-txt');
  const timers = new Map<string, ReturnType<typeof setTimeout>>();

  const cancel = (uri: vscode.Uri): void => {
    const key = uri.toString();
    const t = timers.get(key);
    if (t !== undefined) clearTimeout(t);
    timers.delete(key);
  };

  const update = (document: vscode.TextDocument): void => {
    cancel(document.uri);
    if (document.isClosed || !isRobotsTxt(document) || !deps.settings().features.diagnostics) {
      collection.delete(document.uri);
      return;
    }
    const { lint } = deps.analyses.get(document);
    collection.set(
      document.uri,
      lint.findings.map((f) => toDiagnostic(document, f)),
    );
  };

  const schedule = (document: vscode.TextDocument): void => {
    cancel(document.uri);
    timers.set(
      document.uri.toString(),
      setTimeout(() => {
        timers.delete(document.uri.toString());
        update(document);
      }, DIAGNOSTICS_DEBOUNCE_MS),
    );
  };

  const refreshAll = (): void => {
    if (!deps.settings().features.diagnostics) {
      for (const key of timers.keys()) clearTimeout(timers.get(key));
      timers.clear();
      collection.clear();
      return;
    }
    for (const document of vscode.workspace.textDocuments) if (isRobotsTxt(document)) update(document);
  };

  context.subscriptions.push(
    collection,
    vscode.workspace.onDidOpenTextDocument((document) => {
      if (isRobotsTxt(document)) update(document);
      // A language change closes and reopens the document; a document that left the language loses its diagnostics.
      else collection.delete(document.uri);
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (isRobotsTxt(e.document) && e.contentChanges.length > 0) schedule(e.document);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => {
      cancel(document.uri);
      collection.delete(document.uri);
      deps.analyses.forget(document.uri);
    }),
    {
      dispose: () => {
        for (const t of timers.values()) clearTimeout(t);
        timers.clear();
      },
    },
  );
  refreshAll();
  return { refreshAll };
}
