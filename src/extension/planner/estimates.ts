/**
 * What the sidebar is sent of a calibration and of a simulation (docs/extension.md §Calibration and
 * simulation): the CLI's words for both (src/core/format/calibrationText.ts), trimmed to what a sidebar shows.
 * Pure (no vscode), so it is tested in node.
 */
import type { Calibration } from '../../core/calibrate/types';
import { calibrationRows, calibrationSourceText, formatSimulationText } from '../../core/format/calibrationText';
import { NO_BAND_TEXT } from '../../core/format/crawlLines';
import { formatDuration } from '../../core/format/duration';
import { sanitizeText } from '../../core/format/table';
import type { Plan } from '../../core/plan';
import type { Simulation } from '../../core/simulate/types';
import {
  MAX_CALIBRATION_HOSTS_POSTED,
  type CalibrationView,
  type SimulationView,
} from '../../shared/planner/viewModel';

/** Planned hosts that keep the typed values, named in the sidebar at most. */
export const MAX_UNSEEN_HOSTS_POSTED = 5;

/** A calibration the planner holds: what was measured and where it came from. */
export interface HeldCalibration {
  source: CalibrationView['source'];
  /** The crawl's name, or the report file's path for people. */
  label: string;
  calibration: Calibration;
}

/** What the sidebar shows of a calibration in use: per measured host, the inputs the plan took from it. */
export function calibrationView(plan: Pick<Plan, 'hosts'>, held: HeldCalibration): CalibrationView {
  const rows = calibrationRows(plan, held.calibration);
  const unseen = plan.hosts.filter((h) => h.calibrated.length === 0);
  return {
    source: held.source,
    label: sanitizeText(held.label),
    headline: calibrationSourceText(held.calibration),
    hosts: rows.slice(0, MAX_CALIBRATION_HOSTS_POSTED),
    hostCount: rows.length,
    unseenHosts: unseen.slice(0, MAX_UNSEEN_HOSTS_POSTED).map((h) => h.host),
    unseenCount: unseen.length,
  };
}

/** "p10 28.1 s · p50 29 s · p90 31.2 s", or one number when the band has no width in print. */
export function simulationBandText(sim: Pick<Simulation, 'p10Seconds' | 'p50Seconds' | 'p90Seconds'>): string {
  const [p10, p50, p90] = [sim.p10Seconds, sim.p50Seconds, sim.p90Seconds].map(formatDuration);
  return p10 === p90 ? `${p50} in every run` : `p10 ${p10} · p50 ${p50} · p90 ${p90}`;
}

/** What the sidebar shows of a simulation of `plan`. */
export function simulationView(sim: Simulation, plan: Plan): SimulationView {
  return {
    method: sim.method,
    runs: sim.runs,
    seed: sim.seed,
    p10Seconds: sim.p10Seconds,
    p50Seconds: sim.p50Seconds,
    p90Seconds: sim.p90Seconds,
    planSeconds: plan.totalSeconds,
    // An uncalibrated plan has no band (nothing measured to draw from): the words say how to get one.
    bandText: plan.input.calibration === null ? NO_BAND_TEXT : simulationBandText(sim),
    text: formatSimulationText(sim, plan, false).trim(),
    timelineHosts: sim.timeline.hosts.length,
  };
}
