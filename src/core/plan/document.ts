/**
 * The `estimate --json` document: a stable, versioned shape built from a Plan. Shared so the extension
 * can offer the same JSON ("copy plan as JSON") without going through the CLI.
 */
import { calibrationMatcher } from '../calibrate/match';
import type { Calibration } from '../calibrate/types';
import { formatDuration } from '../format/duration';
import type { InvalidSeed, SeedNote } from '../seeds';
import type { HostPlan, Plan, ResolvedPlanInput } from './types';

/** Bumped only on a breaking change (a field removed, renamed or retyped); new fields do not bump it. */
export const ESTIMATE_SCHEMA_VERSION = 1;

/**
 * The plan's own fields (declared once, in types.ts), with the input as `settings`, the total in human
 * units and the seed lines that were not used. The key order of the JSON is estimateDocument's.
 */
export type EstimateDocument = Omit<Plan, 'input' | 'hosts'> & {
  schemaVersion: typeof ESTIMATE_SCHEMA_VERSION;
  hosts: EstimateHost[];
  /** totalSeconds in human units, e.g. "11 d 13 h 47 m". */
  totalHuman: string;
  /** The input as used, without the calibration (which has a field of its own). */
  settings: Omit<ResolvedPlanInput, 'calibration'>;
  invalidSeeds: InvalidSeed[];
  /** What the seed lines hide (src/core/seeds.ts validateSeeds): credentials removed, IP literals, local addresses, invisible characters. */
  seedNotes: SeedNote[];
  /** Seeds that repeat an earlier seed's URL. */
  duplicateSeeds: number;
  /** What a test crawl measured and the plan used (`estimate --calibrate`), or null. */
  calibration: CalibrationSection | null;
};

/** A host as the document gives it: `pages` is null when its pages are unknown (`pagesUnknown` says why). */
export type EstimateHost = Omit<HostPlan, 'pages'> & { pages: number | null };

/** The host as the document gives it: a host whose pages are unknown has `pages: null`, never 0. */
export function estimateHost(h: HostPlan): EstimateHost {
  return h.pagesUnknown === undefined ? h : { ...h, pages: null };
}

/** The seed notes and duplicates of `validateSeeds`, for the document. */
export interface SeedHygieneSection {
  notes: readonly SeedNote[];
  duplicates: number;
}

/** The `calibration` section: the measurements, and the planned hosts the report did not see. */
export type CalibrationSection = Calibration & {
  /** Planned hosts the report has no page request for: they keep the typed values. */
  unseenHosts: string[];
};

/** The calibration section of a plan, or null without a calibration. */
export function calibrationSection(plan: Plan): CalibrationSection | null {
  const c = plan.input.calibration;
  if (c === null) return null;
  const calibrationOf = calibrationMatcher(c);
  return { ...c, unseenHosts: plan.hosts.filter((h) => calibrationOf(h.host) === undefined).map((h) => h.host) };
}

export function estimateDocument(
  plan: Plan,
  invalidSeeds: readonly InvalidSeed[] = [],
  seeds: SeedHygieneSection = { notes: [], duplicates: 0 },
): EstimateDocument {
  return {
    schemaVersion: ESTIMATE_SCHEMA_VERSION,
    totalSeconds: plan.totalSeconds,
    totalHuman: formatDuration(plan.totalSeconds),
    totalPages: plan.totalPages,
    skippedPages: plan.skippedPages,
    complete: plan.complete,
    unknownHosts: plan.unknownHosts,
    bindingConstraint: plan.bindingConstraint,
    bindingHost: plan.bindingHost,
    bindingUnit: plan.bindingUnit,
    bindingMachine: plan.bindingMachine,
    bindingDescription: plan.bindingDescription,
    perWorkerDelaySeconds: plan.perWorkerDelaySeconds,
    bounds: plan.bounds,
    overhead: plan.overhead,
    settings: settingsOf(plan.input),
    hosts: plan.complete ? plan.hosts : plan.hosts.map(estimateHost),
    warnings: plan.warnings,
    invalidSeeds: [...invalidSeeds],
    seedNotes: [...seeds.notes],
    duplicateSeeds: seeds.duplicates,
    deadline: plan.deadline,
    sharding: plan.sharding,
    sharedServers: plan.sharedServers,
    calendar: plan.calendar,
    units: plan.units,
    transfer: plan.transfer,
    calibration: calibrationSection(plan),
    seedUrls: plan.seedUrls,
  };
}

function settingsOf(input: ResolvedPlanInput): Omit<ResolvedPlanInput, 'calibration'> {
  const { calibration: _calibration, ...settings } = input;
  return settings;
}
