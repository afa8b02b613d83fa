/**
 * The `crawlPlanner.*` settings, read into one typed object.
 *
 * Only types are imported from `vscode`, so this module also loads outside VS Code (the manifest tests
 * check SETTING_DEFAULTS and RESTRICTED_SETTINGS against package.json). The caller hands in
 * `vscode.workspace`.
 *
 * Every value is checked here as well as by the settings schema: settings.json is a text file and
 * can hold anything. A value of the wrong type or out of range falls back to the default and is
 * reported in `problems`, so it can be logged.
 *
 * Workspace trust (docs/extension.md §Workspace trust): VS Code ignores workspace values of the settings listed in
 * `capabilities.untrustedWorkspaces.restrictedConfigurations` while the workspace is in Restricted
 * Mode. This module does the same on its own, so the rule holds in every host that runs the
 * extension (code-server, older builds) and is visible in one place.
 */
import type * as vscode from 'vscode';
import { SAMPLE_CRAWL_DEFAULTS } from '../core/crawl/sampleCrawlOptions';
import { contactProblem, CONTACT_MAX_LENGTH, DEFAULT_PRODUCT_TOKEN } from '../core/identity';
import { numberProblem, rangeText, type NumberLimit } from '../core/limits';
import { PACING_DEFAULTS, PACING_LIMITS } from '../core/politeness/pacing';
import { ROBOTS_FETCH_TIMEOUT_SECONDS } from '../core/robots/decode';
import { AddressOverrides, parseAddressOverride, type AddressOverride } from '../core/servers/overrides';
import type { PlannerViewSettings } from '../shared/planner/viewModel';
import { SETTINGS } from './ids';

/** The `crawlPlanner.*` settings as the extension uses them; the planner view sees the part it needs. */
export interface CrawlPlannerSettings extends PlannerViewSettings {
  /** A contact page for the User-Agent header, or undefined. */
  contactUrl: string | undefined;
  connectTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  /** One robots.txt fetch in all, redirects included. */
  robotsTxtTimeoutSeconds: number;
  /** Relative to the workspace folder, or absolute. */
  reportFolder: string;
  /** `crawlPlanner.resolve`: the entries that read as HOST=IP (a bad one is left out and named in `problems`). */
  resolve: readonly AddressOverride[];
}

/**
 * The defaults, taken from the core's tables (a setting is the same default the CLI and the engine use);
 * package.json declares the same ones (test/unit/manifest.test.ts holds them equal).
 */
export const SETTING_DEFAULTS: Readonly<CrawlPlannerSettings> = {
  userAgent: DEFAULT_PRODUCT_TOKEN,
  contactUrl: undefined,
  defaultDelaySeconds: PACING_DEFAULTS.delaySeconds,
  delayFrom: PACING_DEFAULTS.delayFrom,
  maxCrawlDelaySeconds: PACING_DEFAULTS.maxCrawlDelaySeconds,
  crawlDelayPolicy: PACING_DEFAULTS.crawlDelayPolicy,
  connectTimeoutSeconds: SAMPLE_CRAWL_DEFAULTS.connectTimeoutSeconds,
  requestTimeoutSeconds: SAMPLE_CRAWL_DEFAULTS.timeoutSeconds,
  robotsTxtTimeoutSeconds: ROBOTS_FETCH_TIMEOUT_SECONDS,
  maxPages: SAMPLE_CRAWL_DEFAULTS.maxPages,
  reportFolder: '.crawl-planner/reports',
  resolve: [],
};

/** The range of each numeric setting; package.json declares the same (test/unit/manifest.test.ts). */
export const SETTING_LIMITS = {
  [SETTINGS.defaultDelay]: PACING_LIMITS.delaySeconds,
  [SETTINGS.maxCrawlDelay]: PACING_LIMITS.maxCrawlDelaySeconds,
  [SETTINGS.connectTimeout]: { min: 1, max: 120 },
  [SETTINGS.requestTimeout]: { min: 1, max: 600 },
  [SETTINGS.robotsTxtTimeout]: { min: 1, max: 600 },
  /** Test crawls are for checking a plan, not for crawling a site. */
  [SETTINGS.maxPages]: { min: 1, max: 10_000, integer: true },
  [SETTINGS.robotsTxtPagesForEstimate]: { min: 1, max: 1e12, integer: true },
} as const satisfies Record<string, NumberLimit>;

/** The longest text settings: a product token, a contact, a report folder. */
export const SETTING_MAX_LENGTHS = {
  [SETTINGS.userAgent]: 64,
  [SETTINGS.contactUrl]: CONTACT_MAX_LENGTH,
  [SETTINGS.reportFolder]: 1024,
} as const;

/** `crawlPlanner.resolve`: entries read at most (package.json's maxItems), and the characters of one. */
export const RESOLVE_SETTING_MAX_ENTRIES = 10_000;
export const RESOLVE_SETTING_MAX_ENTRY_CHARS = 1024;

/**
 * Settings whose workspace value is ignored in Restricted Mode: how the crawler identifies itself,
 * how hard it may hit a host, and where it writes files. package.json lists the same keys in
 * `restrictedConfigurations`.
 */
export const RESTRICTED_SETTINGS: readonly string[] = [
  SETTINGS.userAgent,
  SETTINGS.contactUrl,
  SETTINGS.defaultDelay,
  SETTINGS.delayFrom,
  SETTINGS.maxCrawlDelay,
  SETTINGS.crawlDelayPolicy,
  SETTINGS.maxPages,
  SETTINGS.reportFolder,
  SETTINGS.resolve,
];

export const PRODUCT_TOKEN = /^[a-zA-Z_-]+$/;

/** What the settings reader needs of `vscode.workspace`. */
export type WorkspaceSettingsApi = Pick<
  typeof vscode.workspace,
  'getConfiguration' | 'isTrusted' | 'onDidChangeConfiguration'
>;

export interface SettingsReading {
  settings: CrawlPlannerSettings;
  /** One line per value that was refused (wrong type, out of range) and replaced by its default. */
  problems: string[];
  /** Restricted settings whose workspace value was ignored because the workspace is not trusted. */
  ignoredWorkspaceValues: string[];
}

export interface ConfigAccess {
  /** The settings as they apply to `scope` (a workspace folder, a file) or the window. */
  read(scope?: vscode.ConfigurationScope): SettingsReading;
  /** Fires when any `crawlPlanner.*` setting changes. */
  onDidChange(listener: () => void): vscode.Disposable;
}

/** The key below the section: `crawlPlanner.timeouts.connect` → `timeouts.connect`. */
function relativeKey(key: string): string {
  return key.slice(SETTINGS.section.length + 1);
}

export function createConfigAccess(workspace: WorkspaceSettingsApi): ConfigAccess {
  return {
    read(scope) {
      const configuration = workspace.getConfiguration(SETTINGS.section, scope);
      return readSettings((key) => configuration.inspect(relativeKey(key)), workspace.isTrusted);
    },
    onDidChange(listener) {
      return workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SETTINGS.section)) listener();
      });
    },
  };
}

/** The parts of `WorkspaceConfiguration.inspect()` this module reads. */
export interface InspectedValue {
  defaultValue?: unknown;
  globalValue?: unknown;
  workspaceValue?: unknown;
  workspaceFolderValue?: unknown;
}

/**
 * Reads every setting from `inspect` (full key → the levels of its value). Pure: the trust state is
 * passed in. Folder beats workspace beats user, as VS Code does; in Restricted Mode the workspace and
 * folder levels of RESTRICTED_SETTINGS are skipped.
 */
export function readSettings(inspect: (key: string) => InspectedValue | undefined, trusted: boolean): SettingsReading {
  const problems: string[] = [];
  const ignoredWorkspaceValues: string[] = [];

  const raw = (key: string): unknown => {
    const levels = inspect(key);
    if (!levels) return undefined;
    const restricted = !trusted && RESTRICTED_SETTINGS.includes(key);
    if (restricted && (levels.workspaceFolderValue !== undefined || levels.workspaceValue !== undefined)) {
      ignoredWorkspaceValues.push(key);
    }
    if (!restricted) {
      if (levels.workspaceFolderValue !== undefined) return levels.workspaceFolderValue;
      if (levels.workspaceValue !== undefined) return levels.workspaceValue;
    }
    return levels.globalValue;
  };

  const number = (key: keyof typeof SETTING_LIMITS, fallback: number): number => {
    const value = raw(key);
    if (value === undefined || value === null) return fallback;
    const limit: NumberLimit = SETTING_LIMITS[key];
    if (numberProblem(value, limit) !== undefined) {
      problems.push(`${key}: ${JSON.stringify(value)} is not ${rangeText(limit)}; using ${fallback}`);
      return fallback;
    }
    return value as number;
  };

  const choice = <T extends string>(key: string, fallback: T, allowed: readonly T[]): T => {
    const value = raw(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
      problems.push(`${key}: ${JSON.stringify(value)} is not one of ${allowed.join(', ')}; using ${fallback}`);
      return fallback;
    }
    return value as T;
  };

  const text = (key: string, fallback: string, valid: (s: string) => boolean, what: string): string => {
    const value = raw(key);
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'string' || !valid(value.trim())) {
      problems.push(`${key}: ${JSON.stringify(value)} is not ${what}; using ${JSON.stringify(fallback)}`);
      return fallback;
    }
    return value.trim();
  };

  /** Each entry read as --resolve reads it; a bad one is named and ignored, the others kept. */
  const resolveEntries = (): AddressOverride[] => {
    const key = SETTINGS.resolve;
    const value = raw(key);
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) {
      problems.push(`${key}: ${JSON.stringify(value).slice(0, 80)} is not a list of "HOST=IP" entries; using none`);
      return [];
    }
    const entries: AddressOverride[] = [];
    for (const [i, entry] of value.entries()) {
      if (i >= RESOLVE_SETTING_MAX_ENTRIES) {
        problems.push(`${key}: only the first ${RESOLVE_SETTING_MAX_ENTRIES} entries are used`);
        break;
      }
      const shown = JSON.stringify(entry)?.slice(0, 80) ?? String(entry);
      if (typeof entry !== 'string' || entry.length > RESOLVE_SETTING_MAX_ENTRY_CHARS) {
        problems.push(`${key}: entry ${shown} is not a "HOST=IP" text; ignored`);
        continue;
      }
      const parsed = parseAddressOverride(entry);
      if ('problem' in parsed) problems.push(`${key}: entry ${shown}: ${parsed.problem}; ignored`);
      else entries.push(parsed);
    }
    return entries;
  };

  const d = SETTING_DEFAULTS;
  const contact = text(
    SETTINGS.contactUrl,
    '',
    (s) => s === '' || isContactUrl(s),
    'empty, an http(s) URL or a mailto: address',
  );
  return {
    settings: {
      userAgent: text(
        SETTINGS.userAgent,
        d.userAgent,
        (s) => PRODUCT_TOKEN.test(s) && s.length <= SETTING_MAX_LENGTHS[SETTINGS.userAgent],
        'a product token ([a-zA-Z_-]+)',
      ),
      contactUrl: contact === '' ? undefined : contact,
      defaultDelaySeconds: number(SETTINGS.defaultDelay, d.defaultDelaySeconds),
      delayFrom: choice(SETTINGS.delayFrom, d.delayFrom, ['start', 'end'] as const),
      maxCrawlDelaySeconds: number(SETTINGS.maxCrawlDelay, d.maxCrawlDelaySeconds),
      crawlDelayPolicy: choice(SETTINGS.crawlDelayPolicy, d.crawlDelayPolicy, ['cap', 'skip', 'obey'] as const),
      connectTimeoutSeconds: number(SETTINGS.connectTimeout, d.connectTimeoutSeconds),
      requestTimeoutSeconds: number(SETTINGS.requestTimeout, d.requestTimeoutSeconds),
      robotsTxtTimeoutSeconds: number(SETTINGS.robotsTxtTimeout, d.robotsTxtTimeoutSeconds),
      maxPages: number(SETTINGS.maxPages, d.maxPages),
      reportFolder: text(
        SETTINGS.reportFolder,
        d.reportFolder,
        (s) => s !== '' && s.length <= SETTING_MAX_LENGTHS[SETTINGS.reportFolder] && !s.includes('\0'),
        'a folder path',
      ),
      resolve: resolveEntries(),
    },
    problems,
    ignoredWorkspaceValues,
  };
}

/** An absolute http(s) URL or a mailto: address that can go inside `(+…)` in the User-Agent header. */
export function isContactUrl(text: string): boolean {
  return contactProblem(text) === undefined;
}

/** The `crawlPlanner.resolve` entries as the lookups and the HTTP clients take them (curl's rule of which wins). */
export function addressOverrides(settings: Pick<CrawlPlannerSettings, 'resolve'>): AddressOverrides {
  return new AddressOverrides(settings.resolve);
}

/** The HTTP options that make a client's connections follow `crawlPlanner.resolve` (none without entries). */
export function resolveHttpOptions(settings: Pick<CrawlPlannerSettings, 'resolve'>): { resolve?: AddressOverrides } {
  return settings.resolve.length > 0 ? { resolve: addressOverrides(settings) } : {};
}
