/**
 * The `estimate --json` document: a stable, versioned shape built from a Plan. Shared so the extension
 * can offer the same JSON ("copy plan as JSON") without going through the CLI.
 */
import { formatDuration } from '../format/duration';
import type { InvalidSeed } from '../seeds';
import type {
  BindingConstraint,
  Bounds,
  DeadlineCheck,
  HostPlan,
  Plan,
  PlanWarning,
  ResolvedPlanInput,
  Sharding,
} from './types';

/** Bumped only on a breaking change (a field removed, renamed or retyped); new fields do not bump it. */
export const ESTIMATE_SCHEMA_VERSION = 1;

export interface EstimateDocument {
  schemaVersion: typeof ESTIMATE_SCHEMA_VERSION;
  totalSeconds: number;
  /** totalSeconds in human units, e.g. "11 d 13 h 47 m". */
  totalHuman: string;
  totalPages: number;
  skippedPages: number;
  bindingConstraint: BindingConstraint;
  bindingHost: string | null;
  bindingMachine: number | null;
  bindingDescription: string;
  perWorkerDelaySeconds: number | null;
  bounds: Bounds;
  settings: ResolvedPlanInput;
  hosts: HostPlan[];
  warnings: PlanWarning[];
  invalidSeeds: InvalidSeed[];
  deadline: DeadlineCheck | null;
  sharding: Sharding | null;
}

export function estimateDocument(plan: Plan, invalidSeeds: readonly InvalidSeed[] = []): EstimateDocument {
  return {
    schemaVersion: ESTIMATE_SCHEMA_VERSION,
    totalSeconds: plan.totalSeconds,
    totalHuman: formatDuration(plan.totalSeconds),
    totalPages: plan.totalPages,
    skippedPages: plan.skippedPages,
    bindingConstraint: plan.bindingConstraint,
    bindingHost: plan.bindingHost,
    bindingMachine: plan.bindingMachine,
    bindingDescription: plan.bindingDescription,
    perWorkerDelaySeconds: plan.perWorkerDelaySeconds,
    bounds: plan.bounds,
    settings: plan.input,
    hosts: plan.hosts,
    warnings: plan.warnings,
    invalidSeeds: [...invalidSeeds],
    deadline: plan.deadline,
    sharding: plan.sharding,
  };
}
