/**
 * What the robots.txt editor features read from the settings: the planner settings (config.ts, where
 * workspace trust is applied), the feature switches `crawlPlanner.robotsTxt.*.enabled`, and N for "time
 * for N pages". Only types come from `vscode`, so this module also loads in unit tests.
 */
import type * as vscode from 'vscode';
import type { CrawlDelayPolicy } from '../../core/politeness/interval';
import { numberProblem } from '../../core/limits';
import { SETTING_LIMITS, type CrawlPlannerSettings } from '../config';
import { SETTINGS } from '../ids';

export interface RobotsTxtFeatureSwitches {
  diagnostics: boolean;
  hovers: boolean;
  codeLens: boolean;
  quickFixes: boolean;
}

export interface RobotsTxtSettings {
  maxCrawlDelaySeconds: number;
  crawlDelayPolicy: CrawlDelayPolicy;
  configuredDelaySeconds: number;
  /** N in "time for N pages". */
  pagesForEstimate: number;
  /** The product token: picks the group in hovers and the "Test URLs" command. */
  userAgent: string;
  features: RobotsTxtFeatureSwitches;
}

/** N in "time for N pages" when the setting is not set (its range is SETTING_LIMITS'). */
export const ROBOTS_TXT_DEFAULTS = {
  pagesForEstimate: 1_000_000,
} as const;

/** `crawlPlanner.robotsTxt.*` relative to the `crawlPlanner` section. */
function relative(key: string): string {
  return key.slice(SETTINGS.section.length + 1);
}

/**
 * Reads the switches and N from a `crawlPlanner` configuration, falling back to the defaults for values of
 * the wrong type (settings.json can hold anything). `plannedPages` (the pages of the sidebar's plan, or
 * undefined without one) wins over the setting when it is in the setting's range.
 */
export function readRobotsTxtSettings(
  configuration: Pick<vscode.WorkspaceConfiguration, 'get'>,
  planner: Pick<
    CrawlPlannerSettings,
    'maxCrawlDelaySeconds' | 'crawlDelayPolicy' | 'defaultDelaySeconds' | 'userAgent'
  >,
  plannedPages: number | undefined,
): RobotsTxtSettings {
  const flag = (key: string): boolean => configuration.get<unknown>(relative(key)) !== false;
  const setting = configuration.get<unknown>(relative(SETTINGS.robotsTxtPagesForEstimate));
  const valid = (n: unknown): n is number =>
    numberProblem(n, SETTING_LIMITS[SETTINGS.robotsTxtPagesForEstimate]) === undefined;
  return {
    maxCrawlDelaySeconds: planner.maxCrawlDelaySeconds,
    crawlDelayPolicy: planner.crawlDelayPolicy,
    configuredDelaySeconds: planner.defaultDelaySeconds,
    pagesForEstimate: valid(plannedPages)
      ? plannedPages
      : valid(setting)
        ? setting
        : ROBOTS_TXT_DEFAULTS.pagesForEstimate,
    userAgent: planner.userAgent,
    features: {
      diagnostics: flag(SETTINGS.robotsTxtDiagnostics),
      hovers: flag(SETTINGS.robotsTxtHovers),
      codeLens: flag(SETTINGS.robotsTxtCodeLens),
      quickFixes: flag(SETTINGS.robotsTxtQuickFixes),
    },
  };
}
