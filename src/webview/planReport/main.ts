/**
 * The plan report webview (browser, bundled as an iife into dist/planReport.js): messages from the extension go
 * into the page's one state (`state.ts`), and the sections that show them are drawn from it (sections/, one
 * module per section, each listening to its own elements): the plan's header and chart, every host in a table
 * drawn a window at a time, and the simulation's band and timeline. The extension sorts, filters and searches
 * (it holds the plan); the report asks for the rows it draws and positions them in a tall scroll area, so
 * 100,000 hosts cost what 60 do. Text goes in through `textContent` and attributes only
 * (test/unit/webview-static.test.ts). Decisions live in `model.ts` and `state.ts` (pure, unit-tested).
 */
import { assertNever } from '../../shared/messageChecks';
import { isHostReportMessage, type HostToReport, type ReportToHost } from '../../shared/planReport/messages';
import { elementsById, receiveMessages, showNotice, webviewApi } from '../dom';
import { parseReportState, type ReportState } from './model';
import { REPORT_ELEMENTS, type PlanReport } from './page';
import { renderHeader } from './sections/header';
import { listenHosts, renderHeadings, resetRows, rowsReceived } from './sections/hosts';
import { listenTimeline, renderSimulation, timelineReceived } from './sections/simulation';
import { createPlanReportState, savedState, takesSimulation } from './state';

const NOTICE_MS = 8000;

const vscode = webviewApi<ReportToHost, ReportState>();
const ui = elementsById(REPORT_ELEMENTS);
const state = createPlanReportState(parseReportState(vscode.getState()));
const p: PlanReport = {
  state,
  ui,
  drawn: { rows: new Map(), timeline: new Map() },
  post: (message) => vscode.postMessage(message),
  save: () => vscode.setState(savedState(state, ui.viewport.scrollTop)),
};

// ---------------------------------------------------------------------------------------------
// Messages from the extension

function handle(message: HostToReport): void {
  switch (message.type) {
    case 'report':
      state.plan = message.plan;
      state.report = message.report;
      renderHeader(p, message.problems);
      resetRows(p, state.table.restoreScroll ?? 0);
      ui.main.removeAttribute('aria-busy');
      break;
    case 'rows':
      rowsReceived(p, message);
      break;
    case 'notice':
      showNotice(ui.status, message.level, message.message, NOTICE_MS, state.timers);
      break;
    case 'simulation':
      if (!takesSimulation(state, message)) break;
      state.timeline.simulation = message.simulation;
      renderSimulation(p, message.status);
      break;
    case 'timeline':
      timelineReceived(p, message);
      break;
    default:
      assertNever(message);
  }
}

receiveMessages(isHostReportMessage, handle);

// ---------------------------------------------------------------------------------------------
// Events: each section listens to its own elements

listenHosts(p);
listenTimeline(p);

// ---------------------------------------------------------------------------------------------
// Start: the view this report saved, no plan yet; then tell the extension we are here (it answers with the plan)

renderHeadings(p);
renderHeader(p, []);
p.post({ type: 'ready' });
