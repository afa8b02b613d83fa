/**
 * Seeds files for the planner, with vscode: the Open dialog ("Load seeds from file…"), the workspace's
 * seeds.txt ("Use seeds.txt"), reading one (bounded by size), opening it at a line, and watching it so that
 * the planner follows the file when it changes on disk. The planner keeps the file as the source
 * (docs/extension.md §Seeds).
 */
import * as vscode from 'vscode';
import { sizeText } from '../../shared/planner/limits';
import type { SeedFileRead, SeedFileRef, SeedFiles } from './deps';

/** How long a seeds file must be quiet after a change before it is read again. */
const WATCH_SETTLE_MS = 300;
/** seeds.txt files found in the workspace at most (the pick lists them). */
const MAX_WORKSPACE_SEEDS = 50;

/** A file as the planner names it: its path in the workspace (with the folder when there are several), or its full path. */
export function seedFileRef(uri: vscode.Uri): SeedFileRef {
  const folders = vscode.workspace.workspaceFolders?.length ?? 0;
  return { uri: uri.toString(), label: vscode.workspace.asRelativePath(uri, folders > 1) };
}

function why(err: unknown): string {
  if (err instanceof vscode.FileSystemError) {
    if (err.code === 'FileNotFound' || err.code === 'EntryNotFound') return 'the file is gone (moved or deleted?)';
    if (err.code === 'NoPermissions') return 'no permission to read it';
    if (err.code === 'FileIsADirectory' || err.code === 'EntryIsADirectory') return 'it is a folder';
  }
  return err instanceof Error ? err.message : String(err);
}

export function createSeedFiles(): SeedFiles {
  return {
    pick: async () => {
      const picked = await vscode.window.showOpenDialog({
        title: 'Load seeds from file',
        openLabel: 'Use as seeds',
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        filters: { 'Seed lists': ['txt', 'list', 'csv', 'tsv'], 'All files': ['*'] },
      });
      return picked?.[0] === undefined ? undefined : seedFileRef(picked[0]);
    },
    findWorkspaceSeeds: async () => {
      const found = await vscode.workspace.findFiles('**/seeds.txt', '**/node_modules/**', MAX_WORKSPACE_SEEDS);
      return found
        .map(seedFileRef)
        .sort((a, b) => a.label.split('/').length - b.label.split('/').length || a.label.localeCompare(b.label));
    },
    choose: async (files) => {
      const picked = await vscode.window.showQuickPick(
        files.map((ref) => ({ label: ref.label, ref })),
        {
          title: 'Use which seeds.txt?',
          placeHolder: 'The planner reads the file you pick and follows it when it changes',
        },
      );
      return picked?.ref;
    },
    read: async (ref, maxBytes): Promise<SeedFileRead> => {
      const uri = vscode.Uri.parse(ref.uri, true);
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        if (stat.type & vscode.FileType.Directory) return { problem: `Cannot read ${ref.label}: it is a folder.` };
        if (stat.size > maxBytes) {
          return {
            problem: `${ref.label} is ${sizeText(stat.size)}; the planner reads seeds files of at most ${sizeText(maxBytes)}. Split the list, or plan it with crawl-planner estimate --seeds-file.`,
          };
        }
        const bytes = await vscode.workspace.fs.readFile(uri);
        return { text: new TextDecoder('utf-8').decode(bytes), bytes: bytes.byteLength, mtime: stat.mtime };
      } catch (err) {
        return { problem: `Cannot read ${ref.label}: ${why(err)}.` };
      }
    },
    stat: async (ref) => {
      try {
        const stat = await vscode.workspace.fs.stat(vscode.Uri.parse(ref.uri, true));
        return { bytes: stat.size, mtime: stat.mtime };
      } catch {
        return undefined;
      }
    },
    open: async (ref, line) => {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(ref.uri, true));
      const at = line === undefined ? undefined : new vscode.Position(Math.min(line, document.lineCount) - 1, 0);
      await vscode.window.showTextDocument(document, {
        preview: false,
        ...(at ? { selection: new vscode.Range(at, at) } : {}),
      });
    },
    watch: (ref, changed) => {
      const uri = vscode.Uri.parse(ref.uri, true);
      const name = uri.path.slice(uri.path.lastIndexOf('/') + 1);
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.joinPath(uri, '..'), name),
      );
      // A save can be several events: read once they settle.
      let timer: NodeJS.Timeout | undefined;
      const settled = () => {
        clearTimeout(timer);
        timer = setTimeout(changed, WATCH_SETTLE_MS);
      };
      const subscriptions = [
        watcher,
        watcher.onDidChange(settled),
        watcher.onDidCreate(settled),
        watcher.onDidDelete(settled),
      ];
      return {
        dispose: () => {
          clearTimeout(timer);
          subscriptions.forEach((s) => s.dispose());
        },
      };
    },
  };
}
