/**
 * Crawl reports as the planner's calibration, with vscode: the Open dialog ("Choose a crawl report…", the
 * command Calibrate from Crawl Report…) and reading one. The report is what `crawl --report` and a test crawl
 * from the extension write; it is read by the same reader as the CLI's `--calibrate`
 * (calibrationFromReport, src/core/calibrate/fromCrawlReport.ts). A file that is not one is refused with a reason.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { calibrationFromReport, CalibrationError } from '../../core/calibrate/fromCrawlReport';
import type { HeldCalibration } from './estimates';

/** Reads `uri` as a crawl report. Throws an Error whose message says, in one line, why it is not one. */
export async function readCalibrationReport(uri: vscode.Uri): Promise<HeldCalibration> {
  const label = uri.scheme === 'file' ? vscode.workspace.asRelativePath(uri, false) : uri.toString(true);
  let bytes: Uint8Array;
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.type & vscode.FileType.Directory) throw new Error(`${label} is a folder`);
    bytes = await vscode.workspace.fs.readFile(uri);
  } catch (err) {
    const code = err instanceof vscode.FileSystemError ? err.code : undefined;
    if (code === 'FileNotFound' || code === 'EntryNotFound')
      throw new Error(`cannot read ${label}: there is no such file`);
    throw new Error(`cannot read ${label}: ${err instanceof Error ? err.message : String(err)}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, ''));
  } catch {
    throw new Error(`${label} is not JSON: choose the report a test crawl wrote (crawlPlanner.reportFolder)`);
  }
  try {
    return { source: 'file', label, calibration: calibrationFromReport(doc, label) };
  } catch (err) {
    if (err instanceof CalibrationError) throw new Error(`${label}: ${err.message}`);
    throw err;
  }
}

/** The Open dialog for a crawl report (in the first workspace folder's report folder when it exists); undefined: cancelled. */
export async function pickCalibrationReport(reportFolder: string): Promise<HeldCalibration | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const reports = path.isAbsolute(reportFolder)
    ? vscode.Uri.file(reportFolder)
    : folder === undefined
      ? undefined
      : vscode.Uri.joinPath(folder, ...reportFolder.split(/[\\/]+/).filter((p) => p !== '' && p !== '.'));
  const picked = await vscode.window.showOpenDialog({
    title: 'Plan with what a test crawl measured: choose its report',
    openLabel: 'Calibrate',
    canSelectFiles: true,
    canSelectFolders: false,
    canSelectMany: false,
    filters: { 'Crawl reports': ['json'], 'All files': ['*'] },
    ...(reports === undefined ? {} : { defaultUri: reports }),
  });
  return picked?.[0] === undefined ? undefined : readCalibrationReport(picked[0]);
}
