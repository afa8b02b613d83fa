/**
 * The planner webview (browser, bundled as an iife into dist/webview.js): messages from the extension go into
 * the page's one state (`state.ts`), and the sections that show them are drawn again from it
 * (src/webview/sections/, one module per section, each listening to its own elements). The webview keeps the
 * form's fields as typed in getState/setState and sends them (debounced) once every field is valid; it sends
 * the seeds box's text at once, whatever the other fields hold, because the extension keeps the seeds
 * (docs/extension.md §Seeds). It shows a summary of the plan, never the plan of every host. Every piece of text
 * goes in through `textContent` or an attribute: no HTML is ever parsed from a string here
 * (test/unit/webview-static.test.ts checks it). What to show is decided in `model/` (pure, unit-tested).
 */
import { formToRaw, readForm } from '../shared/planner/formFields';
import { assertNever } from '../shared/messageChecks';
import { isHostMessage, type HostToWebview, type WebviewToHost } from '../shared/planner/messages';
import { receiveMessages, showNotice, webviewApi } from './dom';
import { parseSavedState, type SavedState } from './form';
import { planningText } from './model/plan';
import { plannerElements, type Planner } from './page';
import { flush, validOrSaySo } from './pending';
import {
  applySimulationSettings,
  listenCalibration,
  renderCalibration,
  renderSimulation,
  simulationFieldsOnScreen,
} from './sections/calibration';
import { renderCrawl } from './sections/crawl';
import { listenDeadline, renderDeadline, renderDropped } from './sections/deadline';
import {
  applyFields,
  fieldsFromHost,
  fieldsOnScreen,
  fieldsSet,
  listenFields,
  renderHostPages,
  renderSettings,
  showErrors,
} from './sections/fields';
import { listenOrigins, originsFound, renderOrigins } from './sections/origins';
import { listenTable, renderPlan } from './sections/plan';
import { listenRobots, renderRobots } from './sections/robots';
import { listenServers, renderServers } from './sections/servers';
import { applySeeds, listenSeeds, renderSeedErrors } from './sections/seeds';
import { fillChangedSinceChoices, listenSitemaps, renderChangedSince, renderSitemaps } from './sections/sitemaps';
import { createPlannerState, NOTICE_MS, savedState, takesSeeds, takesSimulationSettings } from './state';

const vscode = webviewApi<WebviewToHost, SavedState>();
const saved = parseSavedState(vscode.getState());
const ui = plannerElements();
const state = createPlannerState(
  {
    fields: fieldsOnScreen(ui, {}),
    simulationFields: simulationFieldsOnScreen(ui),
    seedsText: ui.seeds.value,
    originQuery: ui.robotsOrigin.value,
  },
  saved,
);
const p: Planner = {
  state,
  ui,
  post: (message) => vscode.postMessage(message),
  save: () => vscode.setState(savedState(state)),
};

// ---------------------------------------------------------------------------------------------
// Drawing again what a message changed

/** A new plan: every section that shows some of it. */
function renderResult(): void {
  renderSeedErrors(p);
  renderPlan(p);
  renderHostPages(p);
  renderDeadline(p);
  renderDropped(p);
  renderChangedSince(p);
  renderOrigins(p);
  renderRobots(p);
  renderServers(p);
  renderCalibration(p);
  renderSimulation(p);
}

function renderAll(): void {
  renderSettings(p);
  renderResult();
  renderSitemaps(p);
  renderCrawl(p);
}

// ---------------------------------------------------------------------------------------------
// Messages from the extension

function handle(message: HostToWebview): void {
  switch (message.type) {
    case 'state':
      state.settings = message.settings;
      state.trusted = message.trusted;
      if (!state.stateSeen) {
        // The first `state` sets the fields (the extension keeps them); later ones leave what is typed alone.
        state.stateSeen = true;
        fieldsFromHost(p, message.fields ?? formToRaw(message.form), message.form);
      }
      // The seeds are the extension's: a (re)loaded view shows what it holds. A box edited since is not overwritten.
      if (takesSeeds(state.seeds, message.seeds)) applySeeds(p, message.seeds);
      state.result = message.result;
      state.robots = message.robots;
      state.servers = message.servers;
      state.sitemaps = message.sitemaps;
      state.calibration = message.calibration;
      state.simulation = message.simulation;
      if (takesSimulationSettings(state)) applySimulationSettings(p, message.simulationSettings);
      renderAll();
      ui.main.removeAttribute('aria-busy');
      break;
    case 'seeds':
      applySeeds(p, message.seeds);
      break;
    case 'formSet':
      fieldsSet(p, message.fields);
      break;
    case 'sitemapsState':
      state.sitemaps = message.sitemaps;
      renderSitemaps(p);
      break;
    case 'planning':
      ui.planStatus.textContent = planningText(message.seeds);
      break;
    case 'planResult':
      state.result = message.result;
      renderResult();
      break;
    case 'origins':
      originsFound(p, message);
      break;
    case 'robotsPending':
      state.robots = { state: 'loading', origins: message.origins };
      renderRobots(p);
      break;
    case 'robotsResult':
      state.robots = { state: 'done', robots: message.robots };
      renderRobots(p);
      break;
    case 'robotsError':
      state.robots = { state: 'error', message: message.message };
      renderRobots(p);
      break;
    case 'serversState':
      state.servers = message.servers;
      renderServers(p);
      break;
    case 'settings':
      state.settings = message.settings;
      state.trusted = message.trusted;
      renderSettings(p);
      renderOrigins(p);
      renderRobots(p);
      renderServers(p);
      renderChangedSince(p);
      break;
    case 'notice':
      showNotice(ui.status, message.level, message.message, NOTICE_MS, state.timers);
      break;
    case 'crawlResult':
      state.lastCrawl = message.crawl;
      renderCrawl(p);
      break;
    case 'calibration':
      state.calibration = message.calibration;
      renderCalibration(p);
      break;
    case 'simulation':
      state.simulation = message.simulation;
      renderSimulation(p);
      break;
    default:
      assertNever(message);
  }
}

receiveMessages(isHostMessage, handle);

// ---------------------------------------------------------------------------------------------
// Events: each section listens to its own elements; these buttons act on what is on screen

listenFields(p);
listenSeeds(p);
listenTable(p);
listenDeadline(p);
listenRobots(p);
listenServers(p);
listenOrigins(p);
listenSitemaps(p);
listenCalibration(p);
window.addEventListener('pagehide', () => flush(p));

/** Buttons whose message the extension acts on with what is on screen: the pending edits go first. */
const FLUSHING_BUTTONS: ReadonlyArray<
  [
    HTMLButtonElement,
    'loadSeedsFile' | 'useWorkspaceSeeds' | 'copyPlan' | 'exportPlan' | 'openReport' | 'requestRobots',
  ]
> = [
  [ui.loadSeedsFile, 'loadSeedsFile'],
  [ui.useWorkspaceSeeds, 'useWorkspaceSeeds'],
  [ui.copyPlan, 'copyPlan'],
  [ui.exportPlan, 'exportPlan'],
  [ui.openReport, 'openReport'],
  [ui.checkRobots, 'requestRobots'],
];
for (const [button, type] of FLUSHING_BUTTONS) {
  button.addEventListener('click', () => {
    flush(p);
    p.post({ type });
  });
}
ui.runCrawl.addEventListener('click', () => {
  if (!validOrSaySo(p)) return;
  flush(p);
  p.post({ type: 'runTestCrawl' });
});

// ---------------------------------------------------------------------------------------------
// Start: show the fields as this view last saved them, then tell the extension we are here (it answers with
// its copy of the fields and the seeds).

fillChangedSinceChoices(p);
renderSettings(p);
renderPlan(p);
renderHostPages(p);
renderSitemaps(p);
if (saved !== undefined) {
  applyFields(p, saved.raw);
  showErrors(p, readForm(saved.raw).errors);
}
p.post({ type: 'ready' });
