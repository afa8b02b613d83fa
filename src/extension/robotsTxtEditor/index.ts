/**
 * robots.txt in the editor (docs/robots-txt-editor.md): diagnostics from the core's lint, hovers, CodeLens,
 * quick fixes, "Test URLs against this robots.txt" and "Compare with live robots.txt", for the
 * `robots-txt` language (files named robots.txt, and the extension's fetched copies).
 *
 * activate() wires it with the sidebar planner, whose plan's pages set N in "time for N pages" while there is a
 * plan (the `crawlPlanner.robotsTxt.pagesForEstimate` setting otherwise):
 *
 *   registerRobotsTxtEditor(context, { config, robots, contact, log, planner });
 */
import * as vscode from 'vscode';
import { SETTINGS } from '../ids';
import type { Log } from '../log';
import { AnalysisCache } from './analysis';
import { registerRobotsTxtCommands } from './commands';
import { registerRobotsTxtDiagnostics } from './diagnostics';
import {
  CODE_ACTION_METADATA,
  createCodeActionProvider,
  createCodeLensProvider,
  createHoverProvider,
  ROBOTS_TXT_SELECTOR,
} from './providers';
import { createRobotsTxtDeps, type RobotsTxtDepsSources } from './deps';
import type { RobotsTxtSettings } from './settings';

export { createRobotsTxtDeps, type RobotsTxtDepsSources } from './deps';
export {
  readRobotsTxtSettings,
  ROBOTS_TXT_DEFAULTS,
  type RobotsTxtFeatureSwitches,
  type RobotsTxtSettings,
} from './settings';
export type { UrlTestResult } from './commands';

export interface RobotsTxtDeps {
  /** Read on every use, so changes apply at once. */
  getSettings(): RobotsTxtSettings;
  /** The live robots.txt text of an origin (through the extension's cache), or undefined when it cannot be fetched. */
  fetchLiveRobots(origin: string): Promise<string | undefined>;
  /** Fires when the sidebar plan's pages change (they are N in the settings while there is a plan). */
  onDidChangePlannedPages(listener: () => void): vscode.Disposable;
  log: Log;
}

/** The robots.txt editor's features, from the extension's services (deps.ts). */
export function registerRobotsTxtEditor(context: vscode.ExtensionContext, sources: RobotsTxtDepsSources): void {
  const deps = createRobotsTxtDeps(sources);
  const settings = (): RobotsTxtSettings => deps.getSettings();
  const analyses = new AnalysisCache(settings);
  const lenses = createCodeLensProvider({ analyses, settings });
  context.subscriptions.push(
    analyses,
    lenses,
    vscode.languages.registerHoverProvider(ROBOTS_TXT_SELECTOR, createHoverProvider({ analyses, settings })),
    vscode.languages.registerCodeLensProvider(ROBOTS_TXT_SELECTOR, lenses),
    vscode.languages.registerCodeActionsProvider(
      ROBOTS_TXT_SELECTOR,
      createCodeActionProvider({ analyses, settings }),
      CODE_ACTION_METADATA,
    ),
  );
  const diagnostics = registerRobotsTxtDiagnostics(context, { analyses, settings });
  registerRobotsTxtCommands(context, {
    analyses,
    settings,
    fetchLiveRobots: (origin) => deps.fetchLiveRobots(origin),
    log: deps.log,
  });
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration(SETTINGS.section)) return;
      diagnostics.refreshAll();
      lenses.refresh();
    }),
    deps.onDidChangePlannedPages(() => lenses.refresh()),
  );
}
