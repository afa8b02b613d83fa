/**
 * The planner webview (browser, bundled as an iife into dist/webview.js). It keeps the form's fields as typed
 * in getState/setState and sends them (debounced) once every field is valid; it sends the seeds box's text at
 * once, whatever the other fields hold, because the extension keeps the seeds (docs/extension.md §Seeds). It
 * renders what the extension posts back: a summary of the plan, never the plan of every host. Every piece of
 * text goes in through `textContent` or an attribute: no HTML is ever parsed from a string here
 * (test/unit/webview-static.test.ts checks it). The rendering decisions live in `model.ts` (pure,
 * unit-tested); this file only builds elements.
 */
import { formatNumber } from '../core/format/duration';
import { PLAN_DEFAULTS } from '../core/plan';
import { countSeedLines } from '../core/seeds';
import { assertNever } from '../shared/messageChecks';
import { isHostMessage, type HostToWebview, type WebviewToHost } from '../shared/planner/messages';
import { PLANNER_SEED_LIMITS, seedsPasteProblem, seedsStoreProblem, seedsTextProblem } from '../shared/planner/limits';
import type {
  CalibrationState,
  CrawlResultView,
  PlannerViewSettings,
  PlanResultView,
  RobotsState,
  SeedsView,
  SimulationSettings,
  SimulationState,
  SitemapsState,
} from '../shared/planner/viewModel';
import type { PlannerForm, RawForm } from '../shared/planner/form';
import { byId, el, elementsById, renderChart, showNotice, webviewApi } from './dom';
import {
  formToRaw,
  readForm,
  readSimulationFields,
  sameForm,
  type FieldErrors,
  type RawField,
} from '../shared/planner/formFields';
import { parseSavedState, type SavedState } from './form';
import {
  ariaSort,
  bandSummaryText,
  calibrationHeadline,
  calibrationHelpText,
  calibrationItems,
  CHANGED_SINCE_CHOICES,
  changedSinceProblem,
  chosenOrigin,
  crawlResultModel,
  deadlineHeadline,
  deadlineOptionLabel,
  droppedText,
  hostPagesRows,
  nextSort,
  robotsCards,
  robotsStatusText,
  seedErrorItems,
  seedFileSummary,
  seedNoteItems,
  seedsCountText,
  sitemapHostItems,
  simulationStatusText,
  sitemapsStatusText,
  sortRows,
  type RobotsCard,
  type SortKey,
  type TableSort,
} from './model';

const DEBOUNCE_MS = 250;
const NOTICE_MS = 6000;
/** A seeds text longer than this is sent after a short pause (and when the box loses focus), not on every key. */
const SEEDS_SEND_NOW_CHARS = 64 * 1024;
const SEEDS_DEBOUNCE_MS = 150;
const ORIGIN_SEARCH_MS = 120;
/** Origins listed in the picker at once. */
const ORIGIN_OPTIONS = 50;

const vscode = webviewApi<WebviewToHost, SavedState>();

// ---------------------------------------------------------------------------------------------
// Elements

const ui = elementsById({
  main: ['planner', HTMLElement],
  form: ['plan-form', HTMLFormElement],
  trustNote: ['trust-note', HTMLElement],
  seeds: ['seeds', HTMLTextAreaElement],
  seedsBox: ['seeds-box', HTMLElement],
  seedsCount: ['seeds-count', HTMLElement],
  seedsHelp: ['seeds-help', HTMLElement],
  seedsError: ['seeds-error', HTMLElement],
  seedsFile: ['seeds-file', HTMLElement],
  seedsFileName: ['seeds-file-name', HTMLElement],
  seedsFileCount: ['seeds-file-count', HTMLElement],
  seedsFileLines: ['seeds-file-lines', HTMLOListElement],
  seedsFileProblem: ['seeds-file-problem', HTMLElement],
  openSeedsFile: ['open-seeds-file', HTMLButtonElement],
  useSeedsText: ['use-seeds-text', HTMLButtonElement],
  loadSeedsFile: ['load-seeds-file', HTMLButtonElement],
  useWorkspaceSeeds: ['use-workspace-seeds', HTMLButtonElement],
  seedErrors: ['seed-errors', HTMLUListElement],
  seedNotes: ['seed-notes', HTMLElement],
  pages: ['pages', HTMLInputElement],
  pagesMode: ['pages-mode', HTMLSelectElement],
  rate: ['rate', HTMLInputElement],
  workers: ['workers', HTMLInputElement],
  machines: ['machines', HTMLInputElement],
  deadline: ['deadline', HTMLInputElement],
  pagesByHost: ['pages-by-host', HTMLElement],
  pagesByHostList: ['pages-by-host-list', HTMLUListElement],
  pagesByHostMore: ['pages-by-host-more', HTMLElement],
  pagesByHostOther: ['pages-by-host-other', HTMLElement],
  pagesByHostError: ['pages-by-host-error', HTMLElement],
  changedSince: ['changed-since', HTMLInputElement],
  changedSinceChoices: ['changed-since-choices', HTMLDataListElement],
  changedSinceError: ['changed-since-error', HTMLElement],
  sizeSitemaps: ['size-sitemaps', HTMLButtonElement],
  cancelSitemaps: ['cancel-sitemaps', HTMLButtonElement],
  sitemapsStatus: ['sitemaps-status', HTMLElement],
  sitemaps: ['sitemaps', HTMLElement],
  exportPlan: ['export-plan', HTMLButtonElement],
  dropped: ['dropped', HTMLElement],
  droppedHead: ['dropped-head', HTMLElement],
  droppedList: ['dropped-list', HTMLUListElement],
  droppedMore: ['dropped-more', HTMLElement],
  restoreAll: ['restore-all', HTMLButtonElement],
  deadlineSection: ['deadline-section', HTMLElement],
  deadlineVerdict: ['deadline-verdict', HTMLElement],
  deadlineEarliest: ['deadline-earliest', HTMLElement],
  deadlineBlocking: ['deadline-blocking', HTMLElement],
  deadlineOptions: ['deadline-options', HTMLUListElement],
  delay: ['delay', HTMLInputElement],
  delayFrom: ['delay-from', HTMLSelectElement],
  latency: ['latency', HTMLInputElement],
  userAgent: ['user-agent', HTMLInputElement],
  useRobots: ['use-robots', HTMLInputElement],
  runCrawl: ['run-crawl', HTMLButtonElement],
  copyPlan: ['copy-plan', HTMLButtonElement],
  status: ['status', HTMLElement],
  planStatus: ['plan-status', HTMLElement],
  stale: ['stale', HTMLElement],
  total: ['total', HTMLElement],
  binding: ['binding', HTMLElement],
  problems: ['problems', HTMLUListElement],
  warnings: ['warnings', HTMLUListElement],
  warningsMore: ['warnings-more', HTMLElement],
  chart: ['chart', HTMLElement],
  chartMore: ['chart-more', HTMLElement],
  hostTable: ['host-table', HTMLTableElement],
  tableMore: ['table-more', HTMLElement],
  openReport: ['open-report', HTMLButtonElement],
  robotsStatus: ['robots-status', HTMLElement],
  robotsOrigin: ['robots-origin', HTMLInputElement],
  robotsOriginList: ['robots-origin-list', HTMLUListElement],
  robotsOriginCount: ['robots-origin-count', HTMLElement],
  openRobots: ['open-robots', HTMLButtonElement],
  checkRobots: ['check-robots', HTMLButtonElement],
  robots: ['robots', HTMLElement],
  crawlSection: ['crawl-section', HTMLElement],
  crawlResult: ['crawl-result', HTMLElement],
  crawlNotFollowedHead: ['crawl-not-followed-head', HTMLElement],
  crawlNotFollowed: ['crawl-not-followed', HTMLUListElement],
  band: ['band', HTMLElement],
  useCalibration: ['use-calibration', HTMLInputElement],
  calibrationHelp: ['calibration-help', HTMLElement],
  chooseReport: ['choose-report', HTMLButtonElement],
  calibrationOff: ['calibration-off', HTMLButtonElement],
  calibration: ['calibration', HTMLElement],
  calibrationSource: ['calibration-source', HTMLElement],
  calibrationHosts: ['calibration-hosts', HTMLUListElement],
  calibrationMore: ['calibration-more', HTMLElement],
  calibrationUnseen: ['calibration-unseen', HTMLElement],
  simulate: ['simulate', HTMLInputElement],
  simRuns: ['sim-runs', HTMLInputElement],
  simRunsError: ['sim-runs-error', HTMLElement],
  simSeed: ['sim-seed', HTMLInputElement],
  simSeedError: ['sim-seed-error', HTMLElement],
  simulationStatus: ['simulation-status', HTMLElement],
});

/** The input of each raw field that can be wrong, and where its message goes. */
const FIELD_INPUTS: ReadonlyArray<[RawField, HTMLInputElement, HTMLElement]> = [
  ['pages', ui.pages, byId('pages-error')],
  ['rate', ui.rate, byId('rate-error')],
  ['workers', ui.workers, byId('workers-error')],
  ['machines', ui.machines, byId('machines-error')],
  ['deadline', ui.deadline, byId('deadline-error')],
  ['delay', ui.delay, byId('delay-error')],
  ['latency', ui.latency, byId('latency-error')],
  ['userAgent', ui.userAgent, byId('user-agent-error')],
];

// ---------------------------------------------------------------------------------------------
// State (the webview's own; the extension holds the seeds and the truth about the plan)

const saved = parseSavedState(vscode.getState());
/** The first `state` sets the fields (the extension keeps them); later ones leave what is typed alone. */
let stateSeen = false;
/** The seeds box holds the extension's seeds (after the first `state`); until then it is read-only. */
let hasSeeds = false;
let chosen: string | undefined = saved?.origin;
let settings: PlannerViewSettings | undefined;
let trusted = true;
let result: PlanResultView | undefined;
let seeds: SeedsView = { source: 'text', text: '' };
let robots: RobotsState = { state: 'off' };
let sitemaps: SitemapsState = { state: 'off' };
/** Each host's own pages as typed (hosts not shown in the list too): the list's inputs edit it. */
let hostPages: Record<string, string> = {};
/** The hosts the "pages by host" list was built for (rebuilt only when they change: typing keeps its focus). */
let hostPagesKey: string | undefined;
let lastCrawl: CrawlResultView | undefined;
let calibration: CalibrationState = { crawl: null, using: null };
let simulation: SimulationState = { state: 'off' };
/** The Simulate settings the extension holds (what a reload shows). */
let simulationSettings: SimulationSettings | undefined;
let simTimer: ReturnType<typeof setTimeout> | undefined;
let pendingForm: PlannerForm | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let seedsTimer: ReturnType<typeof setTimeout> | undefined;
/** The seeds text the extension was last sent (or sent us): what a refused edit goes back to. */
let keptSeeds = '';
/** The refusal of the last paste, shown until the next edit. */
let refusal: string | undefined;
let sort: TableSort = { key: 'plan', descending: false };
/** The origin picker: the options listed and the active one. */
let originOptions: string[] = [];
let activeOption = -1;
let originTimer: ReturnType<typeof setTimeout> | undefined;

function post(message: WebviewToHost): void {
  vscode.postMessage(message);
}

function readPagesMode(): RawForm['pagesMode'] {
  const mode = ui.pagesMode.value;
  return mode === 'perHost' || mode === 'byHost' ? mode : 'total';
}

/** The list's inputs into `hostPages` (an emptied one is no number of its own). */
function readHostPages(): Record<string, string> {
  for (const input of ui.pagesByHostList.querySelectorAll<HTMLInputElement>('input[data-host]')) {
    const host = input.dataset.host!;
    if (input.value.trim() === '') delete hostPages[host];
    else hostPages[host] = input.value;
  }
  return { ...hostPages };
}

function readRaw(): RawForm {
  return {
    pagesMode: readPagesMode(),
    pages: ui.pages.value,
    pagesByHost: readHostPages(),
    rate: ui.rate.value,
    workers: ui.workers.value,
    machines: ui.machines.value,
    deadline: ui.deadline.value,
    delay: ui.delay.value,
    delayFrom: ui.delayFrom.value === 'end' ? 'end' : 'start',
    latency: ui.latency.value,
    userAgent: ui.userAgent.value,
    useRobots: ui.useRobots.checked,
    changedSince: ui.changedSince.value,
  };
}

function setValue(input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  if (input.value !== value) input.value = value;
}

function applyRaw(raw: RawForm): void {
  setValue(ui.pagesMode, raw.pagesMode);
  setValue(ui.pages, raw.pages);
  setValue(ui.rate, raw.rate);
  setValue(ui.workers, raw.workers);
  setValue(ui.machines, raw.machines);
  setValue(ui.deadline, raw.deadline);
  setValue(ui.delay, raw.delay);
  setValue(ui.delayFrom, raw.delayFrom);
  setValue(ui.latency, raw.latency);
  setValue(ui.userAgent, raw.userAgent);
  ui.useRobots.checked = raw.useRobots;
  setValue(ui.changedSince, raw.changedSince);
  hostPages = { ...raw.pagesByHost };
  hostPagesKey = undefined;
  renderHostPages();
}

function save(raw: RawForm): void {
  vscode.setState(chosen === undefined ? { v: 2, raw } : { v: 2, raw, origin: chosen });
}

function showErrors(errors: FieldErrors): void {
  for (const [field, input, out] of FIELD_INPUTS) {
    const message = errors[field];
    out.textContent = message ?? '';
    if (message === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }
  ui.pagesByHostError.textContent = errors.pagesByHost ?? '';
  ui.stale.hidden = Object.keys(errors).length === 0;
  renderChangedSince();
}

/**
 * Reads the inputs, saves them here and in the extension (at once: what is typed is never only here), shows
 * field errors, and schedules `formChanged` when all is valid.
 */
function edited(): void {
  const raw = readRaw();
  save(raw);
  post({ type: 'fieldsEdited', fields: raw });
  const { form, errors } = readForm(raw);
  showErrors(errors);
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  pendingForm = form;
  if (form !== undefined) timer = setTimeout(flush, DEBOUNCE_MS);
  renderHostPages();
  renderRobots();
}

/** Sends the pending form and seeds now (before any action, so the extension acts on what is on screen). */
function flush(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (pendingForm !== undefined) post({ type: 'formChanged', form: pendingForm });
  pendingForm = undefined;
  flushSeeds();
}

function formIsValid(): boolean {
  return readForm(readRaw()).form !== undefined;
}

// ---------------------------------------------------------------------------------------------
// The seeds box: its text goes to the extension, which keeps it

/** Sends the box's text when it differs from what the extension has. */
function flushSeeds(): void {
  if (seedsTimer !== undefined) clearTimeout(seedsTimer);
  seedsTimer = undefined;
  if (!hasSeeds || seeds.source !== 'text') return;
  const text = ui.seeds.value;
  if (text === keptSeeds) return;
  keptSeeds = text;
  seeds = { source: 'text', text };
  post({ type: 'seedsChanged', text });
}

/** The box changed (typed, pasted, dropped, set): check it, send it, say what its size means. */
function seedsEdited(): void {
  if (!hasSeeds) return;
  const text = ui.seeds.value;
  refusal = undefined;
  const notKept = seedsStoreProblem(text);
  if (notKept !== undefined) {
    // Over what the extension keeps (only a paste that came past the paste check gets here): back to what was kept.
    ui.seeds.value = keptSeeds;
    refuse(notKept);
    return;
  }
  if (seedsTimer !== undefined) clearTimeout(seedsTimer);
  if (text.length <= SEEDS_SEND_NOW_CHARS) flushSeeds();
  else seedsTimer = setTimeout(flushSeeds, SEEDS_DEBOUNCE_MS);
  renderSeedsBox();
}

/** A refused paste: its size, the limit and what to do instead; the old line errors go (they were for other text). */
function refuse(message: string): void {
  refusal = message;
  ui.seedErrors.replaceChildren();
  ui.seedNotes.replaceChildren();
  renderSeedsBox();
}

/** A paste or a drop that would put the box over its limits is refused before the text reaches it. */
function checkInsert(event: Event, inserted: string): void {
  const box = ui.seeds;
  const resultText = box.value.slice(0, box.selectionStart) + inserted + box.value.slice(box.selectionEnd);
  const problem = seedsPasteProblem(inserted, resultText);
  if (problem === undefined) return;
  event.preventDefault();
  refuse(problem);
}

function renderSeedsBox(): void {
  if (seeds.source === 'file') {
    // The box is hidden and not planned: its text's size says nothing now.
    ui.seedsError.textContent = '';
    ui.seedsCount.textContent = '';
    return;
  }
  const text = ui.seeds.value;
  const limit = refusal ?? seedsTextProblem(text);
  ui.seedsError.textContent = limit ?? '';
  ui.seedsCount.textContent = limit === undefined ? seedsCountText(countSeedLines(text)) : '';
  if (limit !== undefined || (result?.invalidSeedCount ?? 0) > 0) ui.seeds.setAttribute('aria-invalid', 'true');
  else ui.seeds.removeAttribute('aria-invalid');
}

/** The seeds' source as the extension sent it: the box with its text, or a file's summary in its place. */
function applySeeds(view: SeedsView): void {
  seeds = view;
  hasSeeds = true;
  ui.seeds.readOnly = false;
  if (view.source === 'text') {
    keptSeeds = view.text;
    setValue(ui.seeds, view.text);
    ui.seedsBox.hidden = false;
    ui.seedsFile.hidden = true;
    ui.seeds.disabled = false;
  } else {
    const file = view.file;
    ui.seedsBox.hidden = true;
    ui.seedsFile.hidden = false;
    ui.seedsFileName.textContent = file.label;
    ui.seedsFileName.title = file.label;
    ui.seedsFileCount.textContent = seedFileSummary(file);
    ui.seedsFileLines.replaceChildren(...file.firstLines.map((line) => el('li', { text: line })));
    ui.seedsFileProblem.textContent = file.problem ?? '';
    ui.openSeedsFile.disabled = file.loading === true;
  }
  refusal = undefined;
  renderSeedsBox();
}

// ---------------------------------------------------------------------------------------------
// Rendering

function renderSettings(): void {
  if (settings !== undefined) {
    ui.delay.placeholder = `${settings.defaultDelaySeconds} (setting)`;
    ui.userAgent.placeholder = settings.userAgent;
  }
  ui.workers.placeholder = String(PLAN_DEFAULTS.workers);
  ui.latency.placeholder = String(PLAN_DEFAULTS.latencySeconds);
  ui.rate.placeholder = 'no limit';
  ui.trustNote.hidden = trusted;
  ui.runCrawl.disabled = !trusted;
  ui.useRobots.disabled = !trusted && !ui.useRobots.checked;
  const L = PLANNER_SEED_LIMITS;
  ui.seedsHelp.textContent = `http and https only; blank lines and # comments are skipped. Up to ${formatNumber(L.textLines)} seed lines here, ${formatNumber(L.fileLines)} from a file.`;
}

function renderSeedErrors(): void {
  ui.seedErrors.replaceChildren();
  ui.seedNotes.replaceChildren();
  if (result === undefined || refusal !== undefined) return;
  const { items, more } = seedErrorItems(result);
  const inFile = seeds.source === 'file';
  for (const item of items) {
    const label = inFile
      ? el('button', {
          className: 'link seed-error-label',
          text: item.label,
          attrs: { type: 'button', 'data-line': String(item.line), title: `Open the file at line ${item.line}` },
        })
      : el('span', { className: 'seed-error-label', text: item.label });
    ui.seedErrors.append(
      el('li', { attrs: { 'data-line': String(item.line) } }, [
        label,
        document.createTextNode(' '),
        el('code', { className: 'seed-error-text', text: item.text === '' ? '(empty)' : item.text }),
      ]),
    );
  }
  if (more > 0)
    ui.seedErrors.append(el('li', { className: 'more', text: `and ${formatNumber(more)} more invalid lines` }));
  const notes = seedNoteItems(result);
  for (const group of notes.groups) {
    const list = el(
      'ul',
      {},
      group.lines.map((n) =>
        el('li', { attrs: { 'data-line': String(n.line) } }, [
          el('span', { text: n.label }),
          document.createTextNode(' '),
          el('code', { text: n.text }),
        ]),
      ),
    );
    if (group.more > 0)
      list.append(
        el('li', { className: 'more', text: `and ${formatNumber(group.more)} more (in Copy plan as JSON: seedNotes)` }),
      );
    ui.seedNotes.append(
      el('details', { className: 'seed-note', attrs: { 'data-code': group.code } }, [
        el('summary', { text: group.head }),
        list,
      ]),
    );
  }
  if (notes.duplicates !== undefined)
    ui.seedNotes.append(
      el('p', { className: 'seed-note hint', text: notes.duplicates, attrs: { 'data-code': 'duplicates' } }),
    );
  renderSeedsBox();
}

function renderTable(): void {
  const tbody = ui.hostTable.tBodies[0] ?? ui.hostTable.createTBody();
  tbody.replaceChildren();
  const summary = result?.summary ?? null;
  for (const th of ui.hostTable.tHead?.querySelectorAll<HTMLTableCellElement>('th[data-sort]') ?? [])
    th.setAttribute('aria-sort', ariaSort(sort, th.dataset.sort as SortKey));
  ui.tableMore.textContent = '';
  ui.hostTable.hidden = summary === null || summary.groups.length === 0;
  if (summary === null) return;
  for (const row of sortRows(summary.groups, sort)) {
    // A group: "1,000 ×" on screen, "1,000 hosts like" for screen readers, then the host it is named after.
    const name = el('span', { className: 'host-name', text: row.host });
    const label =
      row.count > 1
        ? [
            el('span', {
              className: 'host-count',
              text: `${formatNumber(row.count)} ×`,
              attrs: { 'aria-hidden': 'true' },
            }),
            el('span', { className: 'sr-only', text: `${formatNumber(row.count)} hosts like ` }),
            name,
          ]
        : [name];
    const hostCell = el(
      'th',
      { attrs: { scope: 'row', title: `${row.label}: ${row.detail}${row.period ? `, ${row.period}` : ''}` } },
      label,
    );
    const classes = [row.binding ? 'binding' : '', row.skipped ? 'skipped' : ''].filter(Boolean).join(' ');
    const attrs: Record<string, string> = {
      'data-host': row.host,
      'data-source': row.intervalSource,
      'data-count': String(row.count),
    };
    tbody.append(
      el('tr', { className: classes, attrs }, [
        hostCell,
        el('td', { text: row.pages }),
        el(
          'td',
          {
            attrs: {
              title: `${row.interval}, set by ${row.source ?? 'the delay'}${row.period ? `; ${row.period}` : ''}`,
            },
          },
          [
            el('span', { text: row.interval }),
            ...(row.source === undefined ? [] : [el('span', { className: 'host-detail', text: row.source })]),
          ],
        ),
        el('td', { text: row.skipped ? 'skipped' : row.duration }),
      ]),
    );
  }
  const hidden = summary.groupCount - summary.groups.length;
  if (hidden > 0)
    ui.tableMore.textContent = `${formatNumber(hidden)} more ${hidden === 1 ? 'row' : 'rows'} in the plan report.`;
}

function renderPlan(): void {
  ui.problems.replaceChildren();
  ui.warnings.replaceChildren();
  ui.warningsMore.textContent = '';
  ui.planStatus.textContent = '';
  const summary = result?.summary ?? null;
  ui.copyPlan.disabled = summary === null;
  ui.exportPlan.disabled = summary === null;
  ui.openReport.disabled = summary === null;
  renderTable();
  if (result === undefined || summary === null) {
    ui.total.textContent = 'No plan yet.';
    ui.binding.textContent = '';
    for (const p of result?.problems ?? [])
      ui.problems.append(el('li', { text: p.message, attrs: { 'data-field': p.field } }));
    renderChart(ui.chart, ui.chartMore, null);
    return;
  }
  ui.total.textContent = summary.totalText;
  ui.binding.textContent = summary.bindingDescription;
  for (const w of summary.warnings) {
    const attrs: Record<string, string> = { 'data-code': w.code };
    if (w.host !== undefined) attrs['data-host'] = w.host;
    ui.warnings.append(el('li', { text: w.text, attrs }));
  }
  const moreWarnings = summary.warningCount - summary.warnings.length;
  if (moreWarnings > 0)
    ui.warningsMore.textContent = `and ${formatNumber(moreWarnings)} more warnings in the plan report.`;

  renderChart(ui.chart, ui.chartMore, summary.chart);
}

// ---------------------------------------------------------------------------------------------
// The origin picker: a search box over the seed origins (the extension searches long lists)

function renderOrigins(): void {
  const origins = result?.origins ?? [];
  const total = result?.originCount ?? 0;
  ui.robotsOrigin.disabled = total === 0;
  ui.openRobots.disabled = total === 0 || !trusted;
  const selected = chosenOrigin(origins, chosen, total);
  if (document.activeElement !== ui.robotsOrigin) setValue(ui.robotsOrigin, selected ?? '');
  ui.robotsOriginCount.textContent = total > 1 ? `${formatNumber(total)} origins: type to search.` : '';
  if (!ui.robotsOriginList.hidden) searchOrigins();
}

function showOriginOptions(options: string[], total: number): void {
  originOptions = options;
  activeOption = options.length > 0 ? 0 : -1;
  ui.robotsOriginList.replaceChildren(
    ...options.map((origin, i) =>
      el('li', {
        text: origin,
        attrs: {
          role: 'option',
          id: `origin-option-${i}`,
          'data-origin': origin,
          'aria-selected': String(i === activeOption),
        },
      }),
    ),
  );
  if (total > options.length)
    ui.robotsOriginList.append(
      el('li', {
        className: 'more',
        text: `and ${formatNumber(total - options.length)} more: type more of the name`,
        attrs: { role: 'presentation' },
      }),
    );
  if (options.length === 0)
    ui.robotsOriginList.append(
      el('li', { className: 'more', text: 'No seed origin contains that.', attrs: { role: 'presentation' } }),
    );
  setOriginListOpen(true);
  markActiveOption();
}

function setOriginListOpen(open: boolean): void {
  ui.robotsOriginList.hidden = !open;
  ui.robotsOrigin.setAttribute('aria-expanded', String(open));
  if (!open) ui.robotsOrigin.removeAttribute('aria-activedescendant');
}

function markActiveOption(): void {
  for (const [i, item] of [...ui.robotsOriginList.querySelectorAll('li[role="option"]')].entries())
    item.setAttribute('aria-selected', String(i === activeOption));
  if (activeOption >= 0) {
    ui.robotsOrigin.setAttribute('aria-activedescendant', `origin-option-${activeOption}`);
    document.getElementById(`origin-option-${activeOption}`)?.scrollIntoView({ block: 'nearest' });
  } else ui.robotsOrigin.removeAttribute('aria-activedescendant');
}

/** Lists the origins that contain the typed text: from the origins at hand when they are all here, else asked. */
function searchOrigins(): void {
  const query = ui.robotsOrigin.value.trim().toLowerCase();
  const origins = result?.origins ?? [];
  const total = result?.originCount ?? 0;
  if (total <= origins.length) {
    const found = origins.filter((o) => o.toLowerCase().includes(query));
    showOriginOptions(found.slice(0, ORIGIN_OPTIONS), found.length);
    return;
  }
  if (originTimer !== undefined) clearTimeout(originTimer);
  originTimer = setTimeout(() => post({ type: 'findOrigins', query: ui.robotsOrigin.value.trim() }), ORIGIN_SEARCH_MS);
}

function pickOrigin(origin: string): void {
  chosen = origin;
  setValue(ui.robotsOrigin, origin);
  setOriginListOpen(false);
  save(readRaw());
}

// ---------------------------------------------------------------------------------------------
// robots.txt cards and the last crawl

function robotsCardElement(card: RobotsCard): HTMLElement {
  const section = el('section', {
    className: card.stale ? 'robots-origin stale' : 'robots-origin',
    attrs: { 'data-origin': card.origin, 'data-outcome': card.outcome },
  });
  section.append(el('h3', { text: card.origin }));
  section.append(el('p', { className: `outcome outcome-${card.outcome}`, text: card.outcomeText }));
  if (card.stale) section.append(el('p', { className: 'hint', text: 'Not a seed origin any more.' }));
  section.append(el('p', { text: card.crawlDelayText }));
  if (card.intervalText !== undefined) section.append(el('p', { text: card.intervalText }));
  if (card.groupText !== undefined) section.append(el('p', { text: card.groupText }));
  section.append(el('p', { className: 'hint', text: card.reason }));
  if (card.notText !== undefined)
    section.append(el('p', { className: 'not-text', attrs: { role: 'note' }, text: card.notText }));
  if (card.sitemaps.length > 0) {
    const list = el(
      'ul',
      { className: 'sitemaps' },
      card.sitemaps.map((s) => el('li', { text: s })),
    );
    if (card.sitemapsMore !== undefined) list.append(el('li', { className: 'more', text: card.sitemapsMore }));
    section.append(
      el('details', {}, [
        el('summary', { text: `Sitemaps (${card.sitemaps.length + (card.sitemapsMore ? '+' : '')})` }),
        list,
      ]),
    );
  }
  if (card.findingsText !== undefined) section.append(el('p', { className: 'hint', text: card.findingsText }));
  if (card.seeds.length > 0) {
    const list = el('ul', { className: 'verdicts', attrs: { 'aria-label': `Seed verdicts for ${card.origin}` } });
    for (const seed of card.seeds) {
      const item = el('li', { attrs: { 'data-verdict': seed.verdict } }, [
        el('span', { className: `verdict verdict-${seed.verdict}`, text: seed.verdictText }),
        document.createTextNode(' '),
        el('span', { className: 'url', text: seed.url }),
      ]);
      if (seed.deciding !== undefined) {
        item.append(
          el('button', {
            className: 'link rule-link',
            text: seed.deciding.label,
            attrs: {
              type: 'button',
              'data-origin': card.origin,
              'data-line': String(seed.deciding.line),
              title: `Open robots.txt at line ${seed.deciding.line}`,
            },
          }),
        );
      }
      item.append(el('span', { className: 'hint reason', text: seed.reason }));
      list.append(item);
    }
    section.append(list);
  }
  section.append(
    el('button', {
      className: 'secondary',
      text: 'Open robots.txt',
      attrs: { type: 'button', 'data-origin': card.origin, 'aria-label': `Open robots.txt of ${card.origin}` },
    }),
  );
  return section;
}

function renderRobots(): void {
  const useRobots = ui.useRobots.checked;
  ui.robotsStatus.textContent = robotsStatusText(robots, useRobots, result?.robots?.unchecked ?? 0);
  ui.robotsStatus.dataset.state = useRobots ? robots.state : 'off';
  ui.checkRobots.hidden = !useRobots;
  ui.checkRobots.disabled = !trusted;
  ui.robots.replaceChildren();
  if (!useRobots || robots.state !== 'done') return;
  for (const card of robotsCards(robots.robots, result?.robots ?? null)) ui.robots.append(robotsCardElement(card));
}

function renderCrawl(): void {
  ui.crawlSection.hidden = lastCrawl === undefined;
  if (lastCrawl === undefined) return;
  const model = crawlResultModel(lastCrawl);
  ui.crawlResult.textContent = model.headline;
  ui.crawlResult.dataset.ok = String(model.ok);
  ui.crawlNotFollowedHead.textContent = model.notFollowedHeadline;
  ui.crawlNotFollowed.replaceChildren(...model.notFollowed.map((text) => el('li', { text })));
}

// ---------------------------------------------------------------------------------------------
// Pages by host, sitemap sizing, the deadline, dropped hosts

/** The "pages by host" list in `byHost` mode: a row per seed host posted, its own pages as typed. */
function renderHostPages(): void {
  const byHost = readPagesMode() === 'byHost';
  ui.pagesByHost.hidden = !byHost;
  ui.pages.placeholder = byHost ? '0 (the hosts without their own)' : 'required';
  if (!byHost || result === undefined) return;
  const { rows, more } = hostPagesRows(result, hostPages);
  const key = rows.map((r) => r.host).join('\n');
  if (key !== hostPagesKey) {
    hostPagesKey = key;
    ui.pagesByHostList.replaceChildren(
      ...rows.map((row, i) =>
        el('li', {}, [
          el('label', { className: 'host-name', text: row.host, attrs: { for: `host-pages-${i}`, title: row.host } }),
          el('input', {
            attrs: {
              id: `host-pages-${i}`,
              type: 'text',
              inputmode: 'numeric',
              autocomplete: 'off',
              'data-host': row.host,
              'aria-describedby': 'pages-by-host-error',
            },
          }),
        ]),
      ),
    );
  }
  for (const input of ui.pagesByHostList.querySelectorAll<HTMLInputElement>('input[data-host]')) {
    if (document.activeElement !== input) setValue(input, hostPages[input.dataset.host!] ?? '');
  }
  ui.pagesByHostMore.textContent = more;
  const other = result.pagesForOtherHosts;
  ui.pagesByHostOther.textContent =
    other.length === 0 ? '' : `Also kept, not planned (not seed hosts): ${other.join(', ')}`;
}

function renderChangedSince(): void {
  const problem = changedSinceProblem(ui.changedSince.value, Date.now());
  ui.changedSinceError.textContent = problem ?? '';
  if (problem === undefined) ui.changedSince.removeAttribute('aria-invalid');
  else ui.changedSince.setAttribute('aria-invalid', 'true');
  ui.sizeSitemaps.disabled = !trusted || problem !== undefined || (result?.validSeeds ?? 0) === 0;
}

function renderSitemaps(): void {
  const loading = sitemaps.state === 'loading';
  ui.sizeSitemaps.hidden = loading;
  ui.cancelSitemaps.hidden = !loading;
  ui.sitemapsStatus.textContent = sitemapsStatusText(sitemaps);
  ui.sitemapsStatus.dataset.state = sitemaps.state;
  renderChangedSince();
  ui.sitemaps.replaceChildren();
  if (sitemaps.state !== 'done') return;
  for (const item of sitemapHostItems(sitemaps.sitemaps)) {
    const card = el('section', { className: 'sitemap-host', attrs: { 'data-host': item.host } }, [
      el('h3', { text: item.host }),
      el('p', { className: 'sitemap-pages', text: item.pagesText }),
      el('p', { className: 'sitemap-counts', text: item.countsText }),
    ]);
    if (item.lastmodText !== undefined)
      card.append(el('p', { className: 'hint sitemap-lastmod', text: item.lastmodText }));
    if (item.changedText !== undefined) card.append(el('p', { className: 'sitemap-changed', text: item.changedText }));
    if (item.errors.length > 0) {
      const list = el('ul', {
        className: 'sitemap-errors',
        attrs: { 'aria-label': `Sitemap errors for ${item.host}` },
      });
      for (const e of item.errors) {
        const li = el('li', { attrs: { 'data-code': e.code } }, [
          el('span', { className: 'sitemap-error', text: e.text }),
        ]);
        if (e.url !== null) li.append(document.createTextNode(' '), el('code', { className: 'url', text: e.url }));
        list.append(li);
      }
      if (item.errorsMore !== undefined) list.append(el('li', { className: 'more', text: item.errorsMore }));
      card.append(list);
    }
    ui.sitemaps.append(card);
  }
}

function renderDeadline(): void {
  const d = result?.deadline ?? null;
  ui.deadlineSection.hidden = d === null;
  ui.deadlineOptions.replaceChildren();
  if (d === null) return;
  ui.deadlineSection.dataset.met = String(d.met);
  ui.deadlineVerdict.textContent = deadlineHeadline(d);
  ui.deadlineEarliest.textContent = d.earliest;
  ui.deadlineBlocking.textContent = d.blocking ?? '';
  for (const [i, option] of d.options.entries()) {
    ui.deadlineOptions.append(
      el('li', { attrs: { 'data-kind': option.kind } }, [
        el('span', { className: 'deadline-option-text', text: option.text }),
        el('button', {
          className: 'secondary',
          text: deadlineOptionLabel(option),
          attrs: {
            type: 'button',
            'data-index': String(i),
            'data-plan': String(d.plan),
            'aria-label': `Apply: ${option.text}`,
          },
        }),
      ]),
    );
  }
  if (!d.met && d.options.length === 0)
    ui.deadlineOptions.append(el('li', { className: 'more', text: "Nothing within the plan's limits meets it." }));
}

function renderDropped(): void {
  const text = result === undefined ? undefined : droppedText(result);
  ui.dropped.hidden = text === undefined;
  ui.droppedList.replaceChildren();
  if (text === undefined || result === undefined) return;
  ui.droppedHead.textContent = text.head;
  ui.droppedMore.textContent = text.more;
  for (const host of result.dropped) {
    ui.droppedList.append(
      el('li', {}, [
        el('span', { className: 'host-name', text: host }),
        document.createTextNode(' '),
        el('button', {
          className: 'link',
          text: 'Plan again',
          attrs: { type: 'button', 'data-host': host, 'aria-label': `Plan ${host} again` },
        }),
      ]),
    );
  }
}

/** What the plan takes from a test crawl, and whether it can. */
function renderCalibration(): void {
  ui.useCalibration.checked = calibration.using === 'crawl';
  ui.useCalibration.disabled = calibration.crawl === null && calibration.using !== 'crawl';
  ui.calibrationHelp.textContent = calibrationHelpText(calibration);
  ui.calibrationOff.hidden = calibration.using !== 'file';
  const view = result?.calibration ?? null;
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
function renderSimulation(): void {
  const band = result?.summary ? bandSummaryText(simulation) : '';
  ui.band.textContent = band;
  ui.band.hidden = band === '';
  ui.band.dataset.state = simulation.state;
  ui.simulationStatus.textContent = simulationStatusText(simulation);
  ui.simulationStatus.dataset.state = simulation.state;
}

function applySimulationSettings(settings: SimulationSettings): void {
  simulationSettings = settings;
  ui.simulate.checked = settings.enabled;
  if (document.activeElement !== ui.simRuns) setValue(ui.simRuns, String(settings.runs));
  if (document.activeElement !== ui.simSeed) setValue(ui.simSeed, String(settings.seed));
  ui.simRunsError.textContent = '';
  ui.simSeedError.textContent = '';
}

/** The Simulate choice or its fields changed: sent (after a pause for typing) when the fields are valid. */
function simulationEdited(now: boolean): void {
  const { settings, errors } = readSimulationFields(ui.simulate.checked, ui.simRuns.value, ui.simSeed.value);
  ui.simRunsError.textContent = errors.runs ?? '';
  ui.simSeedError.textContent = errors.seed ?? '';
  for (const [input, error] of [
    [ui.simRuns, errors.runs],
    [ui.simSeed, errors.seed],
  ] as const) {
    if (error === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }
  if (simTimer !== undefined) clearTimeout(simTimer);
  simTimer = undefined;
  if (settings === undefined) return;
  const send = () => {
    simTimer = undefined;
    simulationSettings = settings;
    post({ type: 'simulate', settings });
  };
  if (now) send();
  else simTimer = setTimeout(send, DEBOUNCE_MS);
}

function renderResult(): void {
  renderSeedErrors();
  renderPlan();
  renderHostPages();
  renderDeadline();
  renderDropped();
  renderChangedSince();
  renderOrigins();
  renderRobots();
  renderCalibration();
  renderSimulation();
}

function renderAll(): void {
  renderSettings();
  renderResult();
  renderSitemaps();
  renderCrawl();
}

// ---------------------------------------------------------------------------------------------
// Messages from the extension

function handle(message: HostToWebview): void {
  switch (message.type) {
    case 'state':
      settings = message.settings;
      trusted = message.trusted;
      if (!stateSeen) {
        // The extension's copy of the fields is the newest (this view's saved state can lag behind a reload).
        stateSeen = true;
        applyRaw(message.fields ?? formToRaw(message.form));
        save(readRaw());
        const { form, errors } = readForm(readRaw());
        showErrors(errors);
        // Fields typed and kept but not yet planned (the view went before the pause ended): plan them now.
        if (form !== undefined && !sameForm(form, message.form)) post({ type: 'formChanged', form });
      }
      // The seeds are the extension's: a (re)loaded view shows what it holds. A box edited since is not overwritten.
      if (!hasSeeds || seeds.source !== message.seeds.source || message.seeds.source === 'file')
        applySeeds(message.seeds);
      result = message.result;
      robots = message.robots;
      sitemaps = message.sitemaps;
      calibration = message.calibration;
      simulation = message.simulation;
      if (simulationSettings === undefined || simTimer === undefined)
        applySimulationSettings(message.simulationSettings);
      renderAll();
      ui.main.removeAttribute('aria-busy');
      break;
    case 'seeds':
      applySeeds(message.seeds);
      break;
    case 'formSet': {
      // The extension changed the form (sizing, a deadline option, seeds from code): it has it; what was pending here is older.
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      pendingForm = undefined;
      applyRaw(message.fields);
      const raw = readRaw();
      save(raw);
      showErrors(readForm(raw).errors);
      renderRobots();
      break;
    }
    case 'sitemapsState':
      sitemaps = message.sitemaps;
      renderSitemaps();
      break;
    case 'planning':
      ui.planStatus.textContent = `Planning ${formatNumber(message.seeds)} seeds…`;
      break;
    case 'planResult':
      result = message.result;
      renderResult();
      break;
    case 'origins':
      if (message.query === ui.robotsOrigin.value.trim() && document.activeElement === ui.robotsOrigin)
        showOriginOptions(message.origins, message.total);
      break;
    case 'robotsPending':
      robots = { state: 'loading', origins: message.origins };
      renderRobots();
      break;
    case 'robotsResult':
      robots = { state: 'done', robots: message.robots };
      renderRobots();
      break;
    case 'robotsError':
      robots = { state: 'error', message: message.message };
      renderRobots();
      break;
    case 'settings':
      settings = message.settings;
      trusted = message.trusted;
      renderSettings();
      renderOrigins();
      renderRobots();
      renderChangedSince();
      break;
    case 'notice':
      showNotice(ui.status, message.level, message.message, NOTICE_MS);
      break;
    case 'crawlResult':
      lastCrawl = message.crawl;
      renderCrawl();
      break;
    case 'calibration':
      calibration = message.calibration;
      renderCalibration();
      break;
    case 'simulation':
      simulation = message.simulation;
      renderSimulation();
      break;
    default:
      assertNever(message);
  }
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  if (isHostMessage(event.data)) handle(event.data);
});

// ---------------------------------------------------------------------------------------------
// Events

ui.form.addEventListener('submit', (event) => event.preventDefault());
for (const input of [
  ui.pages,
  ui.rate,
  ui.workers,
  ui.machines,
  ui.deadline,
  ui.delay,
  ui.latency,
  ui.userAgent,
  ui.changedSince,
])
  input.addEventListener('input', edited);
ui.pagesByHostList.addEventListener('input', edited);
for (const select of [ui.pagesMode, ui.delayFrom]) select.addEventListener('change', edited);

ui.seeds.addEventListener('input', seedsEdited);
ui.seeds.addEventListener('paste', (event) => checkInsert(event, event.clipboardData?.getData('text/plain') ?? ''));
ui.seeds.addEventListener('drop', (event) => checkInsert(event, event.dataTransfer?.getData('text/plain') ?? ''));
// Hiding the view moves the focus first: the box's text is sent before the webview goes.
ui.seeds.addEventListener('blur', flushSeeds);
window.addEventListener('pagehide', flush);

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
    flush();
    post({ type });
  });
}
ui.useSeedsText.addEventListener('click', () => post({ type: 'useSeedsText' }));
ui.openSeedsFile.addEventListener('click', () => post({ type: 'openSeedsFile' }));
ui.seedErrors.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button[data-line]') : null;
  if (!(target instanceof HTMLButtonElement) || seeds.source !== 'file') return;
  const line = Number(target.dataset.line);
  if (Number.isInteger(line) && line >= 1) post({ type: 'openSeedsFile', line });
});

ui.useRobots.addEventListener('change', () => {
  edited();
  // Turning it on is a request: the extension starts the check when it sees the flag go on.
  flush();
});

/** Leaving the seeds or the user agent after a change re-checks robots.txt (not on every keystroke). */
function committed(): void {
  if (!ui.useRobots.checked || !trusted || !formIsValid()) return;
  flush();
  post({ type: 'requestRobots' });
}
ui.seeds.addEventListener('change', committed);
ui.userAgent.addEventListener('change', committed);

ui.runCrawl.addEventListener('click', () => {
  if (!formIsValid()) {
    showNotice(ui.status, 'error', 'Fix the fields marked above first.', NOTICE_MS);
    return;
  }
  flush();
  post({ type: 'runTestCrawl' });
});

ui.sizeSitemaps.addEventListener('click', () => {
  if (!formIsValid()) {
    showNotice(ui.status, 'error', 'Fix the fields marked above first.', NOTICE_MS);
    return;
  }
  flush();
  post({ type: 'sizeFromSitemaps', changedSince: ui.changedSince.value });
});
ui.cancelSitemaps.addEventListener('click', () => post({ type: 'cancelSitemaps' }));

ui.deadlineOptions.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-index]') : null;
  if (!(button instanceof HTMLButtonElement)) return;
  const plan = Number(button.dataset.plan);
  const index = Number(button.dataset.index);
  if (Number.isInteger(plan) && Number.isInteger(index)) post({ type: 'applyDeadlineOption', plan, index });
});
ui.droppedList.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-host]') : null;
  if (button instanceof HTMLButtonElement && button.dataset.host !== undefined)
    post({ type: 'restoreHosts', host: button.dataset.host });
});
ui.restoreAll.addEventListener('click', () => post({ type: 'restoreHosts' }));

ui.useCalibration.addEventListener('change', () => {
  flush();
  post({ type: 'useCalibration', source: ui.useCalibration.checked ? 'crawl' : 'off' });
});
ui.chooseReport.addEventListener('click', () => {
  flush();
  post({ type: 'chooseCalibrationReport' });
});
ui.calibrationOff.addEventListener('click', () => post({ type: 'useCalibration', source: 'off' }));
ui.simulate.addEventListener('change', () => {
  flush();
  simulationEdited(true);
});
for (const input of [ui.simRuns, ui.simSeed]) input.addEventListener('input', () => simulationEdited(false));

ui.hostTable.tHead?.addEventListener('click', (event) => {
  const button = event.target instanceof Element ? event.target.closest('button[data-sort]') : null;
  if (!(button instanceof HTMLButtonElement)) return;
  sort = nextSort(sort, button.dataset.sort as SortKey);
  renderTable();
});

ui.robotsOrigin.addEventListener('input', searchOrigins);
ui.robotsOrigin.addEventListener('focus', searchOrigins);
ui.robotsOrigin.addEventListener('keydown', (event) => {
  const open = !ui.robotsOriginList.hidden;
  if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
    event.preventDefault();
    if (!open) {
      searchOrigins();
      return;
    }
    const n = originOptions.length;
    if (n === 0) return;
    activeOption = event.key === 'ArrowDown' ? (activeOption + 1) % n : (activeOption - 1 + n) % n;
    markActiveOption();
  } else if (event.key === 'Enter') {
    event.preventDefault();
    const origin = open
      ? originOptions[activeOption]
      : chosenOrigin(result?.origins ?? [], chosen, result?.originCount ?? 0);
    if (origin !== undefined) pickOrigin(origin);
  } else if (event.key === 'Escape' && open) {
    event.preventDefault();
    setOriginListOpen(false);
  }
});
ui.robotsOrigin.addEventListener('blur', () => {
  // A click on an option lands after the blur: close once it had its turn.
  setTimeout(() => {
    setOriginListOpen(false);
    renderOrigins();
  }, 150);
});
ui.robotsOriginList.addEventListener('mousedown', (event) => {
  const item = event.target instanceof Element ? event.target.closest('li[data-origin]') : null;
  if (item instanceof HTMLElement && item.dataset.origin !== undefined) {
    event.preventDefault();
    pickOrigin(item.dataset.origin);
  }
});

ui.openRobots.addEventListener('click', () => {
  const origin = chosenOrigin(result?.origins ?? [], chosen, result?.originCount ?? 0);
  if (origin !== undefined) post({ type: 'openRobots', origin });
});

ui.robots.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button[data-origin]') : null;
  if (!(target instanceof HTMLButtonElement)) return;
  const origin = target.dataset.origin;
  if (origin === undefined) return;
  const line = target.dataset.line === undefined ? undefined : Number(target.dataset.line);
  post(
    line !== undefined && Number.isInteger(line) && line >= 1
      ? { type: 'openRobots', origin, line }
      : { type: 'openRobots', origin },
  );
});

// ---------------------------------------------------------------------------------------------
// Start: show the fields as this view last saved them, then tell the extension we are here (it answers with
// its copy of the fields and the seeds).

ui.changedSinceChoices.replaceChildren(
  ...CHANGED_SINCE_CHOICES.map((c) => el('option', { attrs: { value: c.value, label: c.label } })),
);
renderSettings();
renderPlan();
renderHostPages();
renderSitemaps();
if (saved !== undefined) {
  applyRaw(saved.raw);
  showErrors(readForm(saved.raw).errors);
}
post({ type: 'ready' });
