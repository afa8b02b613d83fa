/**
 * Where a test crawl's JSON report goes, and writing it there with `workspace.fs` (so it works in
 * remote workspaces too).
 *
 * The `report` task property or `crawlPlanner.reportFolder` is relative to the task's workspace folder
 * (the first folder for a crawl started from a command), or absolute. Without a workspace folder the
 * report goes to the extension's global storage.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CrawlReport } from '../../core/crawl/crawlReport';
import { reportToJson } from '../../core/format/safeJson';

/** `crawl-2024-05-01T12-30-05-123Z.json`: sortable, and valid on every file system. */
export function reportFileName(at: Date): string {
  return `crawl-${at.toISOString().replace(/[:.]/g, '-')}.json`;
}

export interface ReportTargetInput {
  /** The task's `report` property. */
  report?: string;
  reportFolder: string;
  folder: vscode.Uri | undefined;
  storage: vscode.Uri;
  at: Date;
}

export function reportTarget(input: ReportTargetInput): vscode.Uri {
  const base = input.folder ?? input.storage;
  const relative = input.report ?? `${input.reportFolder.replace(/[\\/]+$/, '')}/${reportFileName(input.at)}`;
  const expanded = expandHome(relative);
  if (path.isAbsolute(expanded)) return vscode.Uri.file(expanded);
  if (input.folder === undefined && input.report === undefined)
    return vscode.Uri.joinPath(input.storage, 'reports', reportFileName(input.at));
  return vscode.Uri.joinPath(base, ...expanded.split(/[\\/]+/).filter((p) => p !== '' && p !== '.'));
}

function expandHome(p: string): string {
  if (p === '~' || p.startsWith('~/')) {
    const home = process.env.HOME ?? process.env.USERPROFILE;
    if (home) return path.join(home, p.slice(1));
  }
  return p;
}

export async function writeReport(target: vscode.Uri, report: CrawlReport): Promise<void> {
  await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(target, '..'));
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(reportToJson(report)));
}

/** The path to print: relative to the workspace folder when inside it. */
export function displayPath(target: vscode.Uri, folder: vscode.Uri | undefined): string {
  if (folder && target.scheme === folder.scheme) {
    const rel = path.posix.relative(folder.path, target.path);
    if (rel !== '' && !rel.startsWith('..') && !path.posix.isAbsolute(rel)) return rel;
  }
  return target.scheme === 'file' ? target.fsPath : target.toString();
}
