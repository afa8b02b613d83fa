/**
 * The `crawlPlanner` task definition (package.json `taskDefinitions`) and how it becomes the options
 * of a test crawl. Only types come from `vscode`; the options are validated by the engine's own
 * `validateSampleCrawlOptions`, whose error names the field; here the field is renamed to the task
 * property the user wrote.
 */
import type * as vscode from 'vscode';
import {
  CrawlOptionsError,
  validateSampleCrawlOptions,
  type SampleCrawlOptions,
} from '../../core/crawl/sampleCrawlOptions';
import { numberProblem, numberProblemText } from '../../core/limits';
import { PLAN_LIMITS } from '../../core/plan/types';
import type { DelayFrom } from '../../core/politeness/interval';
import type { PolitenessBy } from '../../core/servers/units';
import type { CrawlPlannerSettings } from '../config';
import { TASK_TYPE } from '../ids';

export interface CrawlTaskDefinition extends vscode.TaskDefinition {
  type: typeof TASK_TYPE;
  seeds: string[];
  maxPages?: number;
  /** Each host's page budget, and a budget per host (docs/crawl-engine.md#per-host-page-budgets). */
  pagesPerHost?: number;
  pagesFor?: Record<string, number>;
  maxDepth?: number;
  delay?: number;
  delayFrom?: DelayFrom;
  concurrency?: number;
  timeout?: number;
  userAgent?: string;
  /** The politeness unit (docs/how-it-works.md#politeness-units): host, ip or domain. */
  politenessBy?: PolitenessBy;
  report?: string;
}

/** The task properties, in the order the schema lists them (tests compare with package.json). */
export const TASK_PROPERTIES = [
  'seeds',
  'maxPages',
  'pagesPerHost',
  'pagesFor',
  'maxDepth',
  'delay',
  'delayFrom',
  'concurrency',
  'timeout',
  'userAgent',
  'politenessBy',
  'report',
] as const;

/** The engine's option names → the task property that sets them. */
const PROPERTY_FOR_OPTION: Readonly<Record<string, string>> = {
  pageBudgets: 'pagesFor',
  delaySeconds: 'delay',
  timeoutSeconds: 'timeout',
};

export class TaskDefinitionError extends Error {
  override readonly name = 'TaskDefinitionError';
  constructor(
    readonly property: string,
    message: string,
  ) {
    super(`${property}: ${message}`);
  }
}

export interface ResolvedCrawlTask {
  options: SampleCrawlOptions;
  /** The `report` property as written (a path), when given. */
  report?: string;
}

/**
 * The test crawl a definition asks for, with the settings filling in what it leaves out. Throws
 * TaskDefinitionError naming the task property for anything out of range.
 */
export function resolveCrawlTask(raw: unknown, settings: CrawlPlannerSettings): ResolvedCrawlTask {
  if (typeof raw !== 'object' || raw === null) throw new TaskDefinitionError('task', 'must be an object');
  const d = raw as Record<string, unknown>;
  if (d.report !== undefined && (typeof d.report !== 'string' || d.report.trim() === '')) {
    throw new TaskDefinitionError('report', 'must be a file path');
  }
  try {
    const budgets = d.pagesPerHost !== undefined || d.pagesFor !== undefined;
    // pagesPerHost is `--pages-per-host`: the plan's limits (a host of its own may have 0: pagesFor).
    const perHostProblem = d.pagesPerHost === undefined ? undefined : numberProblem(d.pagesPerHost, PLAN_LIMITS.pages);
    if (perHostProblem !== undefined)
      throw new TaskDefinitionError(
        'pagesPerHost',
        numberProblemText(perHostProblem, JSON.stringify(d.pagesPerHost), PLAN_LIMITS.pages),
      );
    const options = validateSampleCrawlOptions({
      seeds: d.seeds,
      // With page budgets, the pages default to their total (capped by maxPages when given).
      maxPages: d.maxPages ?? (budgets ? undefined : settings.maxPages),
      ...(budgets ? { pageBudgets: { byHost: d.pagesFor ?? {}, otherwise: d.pagesPerHost ?? 0 } } : {}),
      maxDepth: d.maxDepth,
      delaySeconds: d.delay ?? settings.defaultDelaySeconds,
      delayFrom: d.delayFrom ?? settings.delayFrom,
      concurrency: d.concurrency,
      timeoutSeconds: d.timeout ?? settings.requestTimeoutSeconds,
      connectTimeoutSeconds: settings.connectTimeoutSeconds,
      userAgent: d.userAgent ?? settings.userAgent,
      politenessBy: d.politenessBy,
      contactUrl: settings.contactUrl,
      crawlDelayPolicy: settings.crawlDelayPolicy,
      maxCrawlDelaySeconds: settings.maxCrawlDelaySeconds,
    });
    return { options, ...(typeof d.report === 'string' ? { report: d.report.trim() } : {}) };
  } catch (err) {
    if (err instanceof CrawlOptionsError) {
      const property = PROPERTY_FOR_OPTION[err.field] ?? err.field;
      throw new TaskDefinitionError(property, err.message.slice(err.field.length + 2));
    }
    throw err;
  }
}

/** A definition from command arguments ({ seeds, maxPages, … }); unknown keys are dropped. */
export function definitionFrom(args: Partial<Record<(typeof TASK_PROPERTIES)[number], unknown>>): CrawlTaskDefinition {
  const definition: Record<string, unknown> = { type: TASK_TYPE };
  for (const key of TASK_PROPERTIES) if (args[key] !== undefined) definition[key] = args[key];
  return definition as CrawlTaskDefinition;
}

/** Two definitions ask for the same crawl (key order aside). */
export function sameDefinition(a: vscode.TaskDefinition, b: vscode.TaskDefinition): boolean {
  return stableJson(a) === stableJson(b);
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)),
        )
      : v,
  );
}
