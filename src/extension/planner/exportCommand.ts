/**
 * Export Plan… (`crawlPlanner.exportPlan`, docs/extension.md §Export Plan): the planner's plan, exactly as the
 * sidebar shows it (its form, seeds, robots.txt Crawl-delays and dropped hosts: `PlannerViewApi.exportInput`),
 * as files for Scrapy, Crawlee, Nutch or StormCrawler (`exportPlan` from src/core/export, the same files as
 * `crawl-planner export`), written with `vscode.workspace.fs` into a folder the user picks.
 *
 * Without arguments it asks for the format (a Quick Pick) and the folder (the Open dialog), and asks before
 * writing into a folder that is not empty. With `{ format, folder, force? }` it asks nothing and refuses a
 * folder that is not empty unless `force` is true. It resolves to `{ format, folder, files, notes }`. The notes
 * (how to run it, what it left out, what the framework does differently) go to the log; a notification
 * offers Open Folder and Reveal.
 */
import * as vscode from 'vscode';
import { EXPORT_FORMATS, exportPathParts, exportPlan, type ExportFormat, type ExportResult } from '../../core/export';
import type { ConfigAccess } from '../config';
import { COMMANDS } from '../ids';
import type { Log } from '../log';
import type { PlannerViewApi } from './plannerView';
import { argObject, CommandArgumentError, optionalChoice } from '../commandArgs';
import { pathArgumentUri } from './commands';
import { runCommand } from '../commandRun';

export interface ExportCommandDeps {
  view: Pick<PlannerViewApi, 'exportInput' | 'reveal'>;
  config: ConfigAccess;
  log: Log;
}

/** What Export Plan resolves to. */
export interface ExportCommandResult {
  format: ExportFormat;
  /** The folder's URI. */
  folder: string;
  /** The files written, relative to the folder. */
  files: string[];
  notes: string[];
}

/** The formats as the Quick Pick lists them. */
export const EXPORT_FORMAT_ITEMS: ReadonlyArray<{ format: ExportFormat; label: string; detail: string }> = [
  {
    format: 'scrapy',
    label: 'Scrapy',
    detail:
      "A Scrapy project: settings, a spider, and middleware that keeps each host's interval, Retry-After and robots.txt",
  },
  {
    format: 'crawlee',
    label: 'Crawlee',
    detail: "A Crawlee script (crawl.mjs) with a hook that keeps each host's interval, Retry-After and robots.txt",
  },
  { format: 'nutch', label: 'Nutch', detail: 'conf/nutch-site.xml properties and the seed lists' },
  { format: 'stormcrawler', label: 'StormCrawler', detail: 'crawler-conf.yaml and the seed lists' },
];
if (EXPORT_FORMAT_ITEMS.length !== EXPORT_FORMATS.length)
  throw new Error('every export format needs a Quick Pick item');

const labelOf = (format: ExportFormat) => EXPORT_FORMAT_ITEMS.find((i) => i.format === format)!.label;

/** The entries of a folder; none when it does not exist yet. */
async function entriesOf(folder: vscode.Uri): Promise<string[]> {
  try {
    return (await vscode.workspace.fs.readDirectory(folder)).map(([name]) => name);
  } catch (err) {
    if (err instanceof vscode.FileSystemError && err.code === 'FileNotFound') return [];
    throw err;
  }
}

/** Writes the export's files under `folder` (each path checked by exportPathParts). */
export async function writeExport(folder: vscode.Uri, result: ExportResult): Promise<string[]> {
  const written: string[] = [];
  const made = new Set<string>();
  for (const file of result.files) {
    const parts = exportPathParts(file.path);
    const parent = vscode.Uri.joinPath(folder, ...parts.slice(0, -1));
    if (!made.has(parent.toString())) {
      await vscode.workspace.fs.createDirectory(parent);
      made.add(parent.toString());
    }
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder, ...parts), new TextEncoder().encode(file.content));
    written.push(file.path);
  }
  return written;
}

async function pickFormat(): Promise<ExportFormat | undefined> {
  const picked = await vscode.window.showQuickPick(
    EXPORT_FORMAT_ITEMS.map((i) => ({ label: i.label, detail: i.detail, format: i.format })),
    { title: 'Export the plan for', placeHolder: 'The crawler that runs the plan', matchOnDetail: true },
  );
  return picked?.format;
}

async function pickFolder(format: ExportFormat): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    openLabel: 'Export Here',
    title: `Export the plan for ${labelOf(format)}: the folder to write into`,
    defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
  });
  return picked?.[0];
}

/** Where a folder is for people: its path for a file, else the URI. */
function shown(folder: vscode.Uri): string {
  return folder.scheme === 'file' ? folder.fsPath : folder.toString();
}

export function registerExportCommand(context: vscode.ExtensionContext, deps: ExportCommandDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMANDS.exportPlan, (arg?: unknown) =>
      runCommand(deps.log, 'Export Plan', async (): Promise<ExportCommandResult | undefined> => {
        const args = arg === undefined ? undefined : argObject('Export Plan', arg);
        // Checked before anything is asked or read.
        let format = args === undefined ? undefined : optionalChoice('format', args.format, EXPORT_FORMATS);
        let folder = args === undefined ? undefined : pathArgumentUri('folder', args.folder);
        if (args !== undefined && format === undefined)
          throw new CommandArgumentError(`format: give one of ${EXPORT_FORMATS.join(', ')}`);
        if (args?.force !== undefined && typeof args.force !== 'boolean')
          throw new CommandArgumentError('force: true or false');

        const input = deps.view.exportInput();
        if ('problem' in input) {
          if (args !== undefined) throw new Error(`nothing to export: ${input.problem}`);
          const choice = await vscode.window.showInformationMessage(
            `Crawl Planner: nothing to export yet: ${input.problem}`,
            'Open Planner',
          );
          if (choice === 'Open Planner') await deps.view.reveal();
          return undefined;
        }
        format ??= await pickFormat();
        if (format === undefined) return undefined;
        folder ??= await pickFolder(format);
        if (folder === undefined) return undefined;

        const entries = await entriesOf(folder);
        if (entries.length > 0) {
          if (args !== undefined && args.force !== true) {
            throw new CommandArgumentError(
              `folder: ${shown(folder)} is not empty; give another folder, or force: true to write into it`,
            );
          }
          if (args === undefined) {
            const answer = await vscode.window.showWarningMessage(
              `${shown(folder)} is not empty (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}). Write the ${labelOf(format)} export into it? Files of the same name are replaced; the others stay.`,
              { modal: true },
              'Write Into It',
            );
            if (answer !== 'Write Into It') return undefined;
          }
        }

        const settings = deps.config.read().settings;
        const { userAgentHeader } = await import('../../net/userAgent.js');
        const result = exportPlan(format, input.plan, {
          seeds: input.seeds,
          productToken: input.productToken,
          userAgentHeader: userAgentHeader(input.productToken, settings.contactUrl),
          ...(settings.contactUrl !== undefined ? { contact: settings.contactUrl } : {}),
          timeoutSeconds: settings.requestTimeoutSeconds,
        });
        const files = await writeExport(folder, result);
        deps.log.info(
          `Export Plan: ${labelOf(format)}, ${files.length} files in ${shown(folder)}: ${files.join(', ')}`,
        );
        if (settings.contactUrl === undefined)
          deps.log.warn(
            "Export Plan: no contact URL set (crawlPlanner.contactUrl): the exported crawler's User-Agent says nothing about who runs it.",
          );
        for (const note of result.notes) deps.log.info(`Export Plan: ${note}`);

        const inWorkspace = vscode.workspace.getWorkspaceFolder(folder) !== undefined;
        void vscode.window
          .showInformationMessage(
            `Crawl Planner: exported the plan for ${labelOf(format)} to ${shown(folder)} (${files.length} files). Its notes are in the log.`,
            'Open Folder',
            'Reveal',
            'Show Notes',
          )
          .then((choice) => {
            if (choice === 'Open Folder')
              return vscode.commands.executeCommand('vscode.openFolder', folder, { forceNewWindow: true });
            if (choice === 'Reveal')
              return vscode.commands.executeCommand(inWorkspace ? 'revealInExplorer' : 'revealFileInOS', folder);
            if (choice === 'Show Notes') deps.log.show(true);
            return undefined;
          });
        return { format, folder: folder.toString(), files, notes: result.notes };
      }),
    ),
  );
}
