/**
 * Calibration and simulation (docs/extension.md §Calibration and simulation): planning with what a test crawl
 * (or a chosen crawl report) measured and what the plan took from it, host by host; the Simulate choice and its
 * fields (sent after a pause for typing, when valid); the band in the plan's summary and the simulation's line.
 */
import { readSimulationFields } from '../../shared/planner/formFields';
import type { SimulationSettings } from '../../shared/planner/viewModel';
import { el, markInvalid, setValue } from '../dom';
import {
  bandSummaryText,
  calibrationChoice,
  calibrationHeadline,
  calibrationHelpText,
  calibrationItems,
  simulationStatusText,
} from '../model/calibration';
import { stopTimer, type Planner, type PlannerElements } from '../page';
import { flush } from '../pending';
import { FORM_DEBOUNCE_MS, type SimulationFields } from '../state';

/** What the plan takes from a test crawl, and whether it can. */
export function renderCalibration(p: Planner): void {
  const { state, ui } = p;
  const choice = calibrationChoice(state.calibration);
  ui.useCalibration.checked = choice.checked;
  ui.useCalibration.disabled = choice.disabled;
  ui.calibrationHelp.textContent = calibrationHelpText(state.calibration);
  ui.calibrationOff.hidden = !choice.fileInUse;
  const view = state.result?.calibration ?? null;
  ui.calibration.hidden = view === null;
  ui.calibrationHosts.replaceChildren();
  if (view === null) return;
  ui.calibrationSource.textContent = calibrationHeadline(view);
  const { items, more, unseen } = calibrationItems(view);
  for (const item of items) {
    ui.calibrationHosts.append(
      el('li', { className: item.planned ? 'planned' : 'unplanned', attrs: { 'data-host': item.host } }, [
        el('span', { className: 'host-name', text: item.host }),
        el('span', { className: 'hint measured', text: item.measured }),
        el('span', { className: 'used', text: item.used }),
      ]),
    );
  }
  ui.calibrationMore.textContent = more;
  ui.calibrationUnseen.textContent = unseen;
}

/** The band in the summary and the simulation's line. */
export function renderSimulation(p: Planner): void {
  const { state, ui } = p;
  const simulation = state.simulation;
  const band = state.result?.summary ? bandSummaryText(simulation) : '';
  ui.band.textContent = band;
  ui.band.hidden = band === '';
  ui.band.dataset.state = simulation.state;
  ui.simulationStatus.textContent = simulationStatusText(simulation);
  ui.simulationStatus.dataset.state = simulation.state;
}

export function simulationFieldsOnScreen(ui: PlannerElements): SimulationFields {
  return { enabled: ui.simulate.checked, runs: ui.simRuns.value, seed: ui.simSeed.value };
}

/** The Simulate settings the extension holds, in the fields (a field being typed in keeps its text). */
export function applySimulationSettings(p: Planner, settings: SimulationSettings): void {
  const { state, ui } = p;
  state.simulationSettings = settings;
  ui.simulate.checked = settings.enabled;
  if (document.activeElement !== ui.simRuns) setValue(ui.simRuns, String(settings.runs));
  if (document.activeElement !== ui.simSeed) setValue(ui.simSeed, String(settings.seed));
  ui.simRunsError.textContent = '';
  ui.simSeedError.textContent = '';
  state.simulationFields = simulationFieldsOnScreen(ui);
}

/** The Simulate choice or its fields changed: sent (after a pause for typing) when the fields are valid. */
function simulationEdited(p: Planner, now: boolean): void {
  const { state, ui } = p;
  const typed = simulationFieldsOnScreen(ui);
  state.simulationFields = typed;
  const { settings, errors } = readSimulationFields(typed.enabled, typed.runs, typed.seed);
  ui.simRunsError.textContent = errors.runs ?? '';
  ui.simSeedError.textContent = errors.seed ?? '';
  markInvalid(ui.simRuns, errors.runs !== undefined);
  markInvalid(ui.simSeed, errors.seed !== undefined);
  stopTimer(p, 'simulation');
  if (settings === undefined) return;
  const send = () => {
    state.timers.simulation = undefined;
    state.simulationSettings = settings;
    p.post({ type: 'simulate', settings });
  };
  if (now) send();
  else state.timers.simulation = setTimeout(send, FORM_DEBOUNCE_MS);
}

export function listenCalibration(p: Planner): void {
  const { ui } = p;
  ui.useCalibration.addEventListener('change', () => {
    flush(p);
    p.post({ type: 'useCalibration', source: ui.useCalibration.checked ? 'crawl' : 'off' });
  });
  ui.chooseReport.addEventListener('click', () => {
    flush(p);
    p.post({ type: 'chooseCalibrationReport' });
  });
  ui.calibrationOff.addEventListener('click', () => p.post({ type: 'useCalibration', source: 'off' }));
  ui.simulate.addEventListener('change', () => {
    flush(p);
    simulationEdited(p, true);
  });
  for (const input of [ui.simRuns, ui.simSeed]) input.addEventListener('input', () => simulationEdited(p, false));
}
