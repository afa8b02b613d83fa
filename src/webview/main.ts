/**
 * The planner webview (browser, bundled as an iife into dist/webview.js). It keeps the form as typed in
 * getState/setState, sends it (debounced) once every field is valid, and renders what the extension
 * posts back. Every piece of text goes in through `textContent` or an attribute: no HTML is ever parsed
 * from a string here (test/unit/webview-static.test.ts checks it). The rendering decisions live in
 * `model.ts` (pure, unit-tested); this file only builds elements.
 */
import { PLAN_DEFAULTS } from '../core/plan';
import {
  assertNever,
  isHostMessage,
  type CrawlResultView,
  type HostToWebview,
  type NoticeLevel,
  type PlannerForm,
  type PlannerViewSettings,
  type PlanResultView,
  type RobotsState,
  type WebviewToHost,
} from '../shared/protocol';
import { formToRaw, parseSavedState, readForm, type FieldErrors, type RawField, type RawForm, type SavedState } from './form';
import {
  chartModel,
  chosenOrigin,
  crawlResultModel,
  hostRows,
  robotsCards,
  robotsStatusText,
  seedErrorItems,
  totalText,
  warningItems,
  type RobotsCard,
} from './model';

interface VsCodeApi {
  postMessage(message: WebviewToHost): void;
  getState(): unknown;
  setState(state: SavedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const DEBOUNCE_MS = 250;
const NOTICE_MS = 6000;

const vscode = acquireVsCodeApi();

// ---------------------------------------------------------------------------------------------
// Elements

function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`planner: #${id} is missing`);
  return found as T;
}

interface ElementOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
}

/** An element with text and attributes set as data, never parsed as markup. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, options: ElementOptions = {}, children: Node[] = []): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

const ui = {
  main: byId<HTMLElement>('planner'),
  form: byId<HTMLFormElement>('plan-form'),
  trustNote: byId<HTMLElement>('trust-note'),
  seeds: byId<HTMLTextAreaElement>('seeds'),
  seedErrors: byId<HTMLUListElement>('seed-errors'),
  pages: byId<HTMLInputElement>('pages'),
  pagesMode: byId<HTMLSelectElement>('pages-mode'),
  rate: byId<HTMLInputElement>('rate'),
  workers: byId<HTMLInputElement>('workers'),
  delay: byId<HTMLInputElement>('delay'),
  delayFrom: byId<HTMLSelectElement>('delay-from'),
  latency: byId<HTMLInputElement>('latency'),
  userAgent: byId<HTMLInputElement>('user-agent'),
  useRobots: byId<HTMLInputElement>('use-robots'),
  runCrawl: byId<HTMLButtonElement>('run-crawl'),
  copyPlan: byId<HTMLButtonElement>('copy-plan'),
  status: byId<HTMLElement>('status'),
  stale: byId<HTMLElement>('stale'),
  total: byId<HTMLElement>('total'),
  binding: byId<HTMLElement>('binding'),
  problems: byId<HTMLUListElement>('problems'),
  warnings: byId<HTMLUListElement>('warnings'),
  chart: byId<HTMLElement>('chart'),
  chartMore: byId<HTMLElement>('chart-more'),
  hostTable: byId<HTMLTableElement>('host-table'),
  tableMore: byId<HTMLElement>('table-more'),
  robotsStatus: byId<HTMLElement>('robots-status'),
  robotsOrigin: byId<HTMLSelectElement>('robots-origin'),
  openRobots: byId<HTMLButtonElement>('open-robots'),
  checkRobots: byId<HTMLButtonElement>('check-robots'),
  robots: byId<HTMLElement>('robots'),
  crawlSection: byId<HTMLElement>('crawl-section'),
  crawlResult: byId<HTMLElement>('crawl-result'),
  crawlNotFollowedHead: byId<HTMLElement>('crawl-not-followed-head'),
  crawlNotFollowed: byId<HTMLUListElement>('crawl-not-followed'),
};

/** The input of each raw field that can be wrong, and where its message goes. */
const FIELD_INPUTS: ReadonlyArray<[RawField, HTMLInputElement | HTMLTextAreaElement, HTMLElement]> = [
  ['seeds', ui.seeds, byId('seeds-error')],
  ['pages', ui.pages, byId('pages-error')],
  ['rate', ui.rate, byId('rate-error')],
  ['workers', ui.workers, byId('workers-error')],
  ['delay', ui.delay, byId('delay-error')],
  ['latency', ui.latency, byId('latency-error')],
  ['userAgent', ui.userAgent, byId('user-agent-error')],
];

// ---------------------------------------------------------------------------------------------
// State (the webview's own; the extension holds the truth about the plan)

const saved = parseSavedState(vscode.getState());
/** The inputs hold the user's form (from getState or from a first `state`); later `state`s leave them alone. */
let hasLocalForm = saved !== undefined;
let chosen: string | undefined = saved?.origin;
let settings: PlannerViewSettings | undefined;
let trusted = true;
let result: PlanResultView | undefined;
let robots: RobotsState = { state: 'off' };
let lastCrawl: CrawlResultView | undefined;
let pendingForm: PlannerForm | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let noticeTimer: ReturnType<typeof setTimeout> | undefined;

function post(message: WebviewToHost): void {
  vscode.postMessage(message);
}

function readRaw(): RawForm {
  return {
    seeds: ui.seeds.value,
    pagesMode: ui.pagesMode.value === 'perHost' ? 'perHost' : 'total',
    pages: ui.pages.value,
    rate: ui.rate.value,
    workers: ui.workers.value,
    delay: ui.delay.value,
    delayFrom: ui.delayFrom.value === 'end' ? 'end' : 'start',
    latency: ui.latency.value,
    userAgent: ui.userAgent.value,
    useRobots: ui.useRobots.checked,
  };
}

function setValue(input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  if (input.value !== value) input.value = value;
}

function applyRaw(raw: RawForm): void {
  setValue(ui.seeds, raw.seeds);
  setValue(ui.pagesMode, raw.pagesMode);
  setValue(ui.pages, raw.pages);
  setValue(ui.rate, raw.rate);
  setValue(ui.workers, raw.workers);
  setValue(ui.delay, raw.delay);
  setValue(ui.delayFrom, raw.delayFrom);
  setValue(ui.latency, raw.latency);
  setValue(ui.userAgent, raw.userAgent);
  ui.useRobots.checked = raw.useRobots;
}

function save(raw: RawForm): void {
  vscode.setState(chosen === undefined ? { v: 1, raw } : { v: 1, raw, origin: chosen });
}

function showErrors(errors: FieldErrors): void {
  for (const [field, input, out] of FIELD_INPUTS) {
    const message = errors[field];
    out.textContent = message ?? '';
    if (message === undefined) input.removeAttribute('aria-invalid');
    else input.setAttribute('aria-invalid', 'true');
  }
  // The seeds area is also invalid while the extension reports bad lines.
  if (errors.seeds === undefined && (result?.invalidSeedCount ?? 0) > 0) ui.seeds.setAttribute('aria-invalid', 'true');
  ui.stale.hidden = Object.keys(errors).length === 0;
}

/** Reads the inputs, saves them, shows field errors, and schedules `formChanged` when all is valid. */
function edited(): void {
  const raw = readRaw();
  save(raw);
  const { form, errors } = readForm(raw);
  showErrors(errors);
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  pendingForm = form;
  if (form !== undefined) timer = setTimeout(flush, DEBOUNCE_MS);
  renderRobots();
}

/** Sends the pending form now (before any action, so the extension acts on what is on screen). */
function flush(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  if (pendingForm !== undefined) post({ type: 'formChanged', form: pendingForm });
  pendingForm = undefined;
}

function formIsValid(): boolean {
  return readForm(readRaw()).form !== undefined;
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
  ui.pages.placeholder = 'required';
  ui.trustNote.hidden = trusted;
  ui.runCrawl.disabled = !trusted;
  ui.useRobots.disabled = !trusted && !ui.useRobots.checked;
}

function renderSeedErrors(): void {
  ui.seedErrors.replaceChildren();
  if (result === undefined) return;
  const { items, more } = seedErrorItems(result);
  for (const item of items) {
    ui.seedErrors.append(
      el('li', { attrs: { 'data-line': String(item.line) } }, [
        el('span', { className: 'seed-error-label', text: item.label }),
        document.createTextNode(' '),
        el('code', { className: 'seed-error-text', text: item.text === '' ? '(empty)' : item.text }),
      ]),
    );
  }
  if (more > 0) ui.seedErrors.append(el('li', { className: 'more', text: `and ${more} more invalid lines` }));
  if (result.invalidSeedCount > 0) ui.seeds.setAttribute('aria-invalid', 'true');
  else if (byId('seeds-error').textContent === '') ui.seeds.removeAttribute('aria-invalid');
}

function renderPlan(): void {
  const tbody = ui.hostTable.tBodies[0] ?? ui.hostTable.createTBody();
  tbody.replaceChildren();
  ui.problems.replaceChildren();
  ui.warnings.replaceChildren();
  ui.chart.replaceChildren();
  ui.chartMore.textContent = '';
  ui.tableMore.textContent = '';
  const plan = result?.plan ?? null;
  ui.copyPlan.disabled = plan === null;
  if (result === undefined || plan === null) {
    ui.total.textContent = 'No plan yet.';
    ui.binding.textContent = '';
    for (const p of result?.problems ?? []) ui.problems.append(el('li', { text: p.message, attrs: { 'data-field': p.field } }));
    ui.chart.setAttribute('aria-label', 'No plan yet');
    ui.hostTable.hidden = true;
    return;
  }
  ui.total.textContent = totalText(plan);
  ui.binding.textContent = plan.bindingDescription;
  for (const w of warningItems(plan)) {
    const attrs: Record<string, string> = { 'data-code': w.code };
    if (w.host !== undefined) attrs['data-host'] = w.host;
    ui.warnings.append(el('li', { text: w.text, attrs }));
  }

  const chart = chartModel(plan);
  ui.chart.setAttribute('aria-label', chart.summary);
  for (const bar of chart.bars) {
    const fill = el('span', { className: 'bar-fill' });
    // CSSOM, not a style attribute: allowed by the CSP (no 'unsafe-inline').
    fill.style.width = `${bar.percent}%`;
    const attrs: Record<string, string> = { 'data-kind': bar.kind, 'aria-hidden': 'true' };
    if (bar.host !== undefined) attrs['data-host'] = bar.host;
    ui.chart.append(
      el('div', { className: bar.binding ? 'bar binding' : 'bar', attrs }, [
        el('span', { className: 'bar-label', text: bar.label }),
        el('span', { className: 'bar-value', text: bar.binding ? `${bar.value} · limits the crawl` : bar.value }),
        el('span', { className: 'bar-track' }, [fill]),
      ]),
    );
  }
  if (chart.hidden > 0) ui.chartMore.textContent = `${chart.hidden} shorter ${chart.hidden === 1 ? 'host is' : 'hosts are'} not drawn.`;

  const { rows, hidden } = hostRows(plan);
  ui.hostTable.hidden = rows.length === 0;
  for (const row of rows) {
    const hostCell = el('th', { attrs: { scope: 'row' } }, [
      el('span', { className: 'host-name', text: row.host }),
      el('span', { className: 'host-detail', text: row.detail }),
    ]);
    const intervalCell = el('td', { attrs: { 'data-label': 'Interval' } }, [el('span', { text: row.interval })]);
    if (row.period !== undefined) intervalCell.append(el('span', { className: 'host-detail', text: row.period }));
    const classes = [row.binding ? 'binding' : '', row.skipped ? 'skipped' : ''].filter(Boolean).join(' ');
    tbody.append(
      el('tr', { className: classes, attrs: { 'data-host': row.host, 'data-source': row.intervalSource } }, [
        hostCell,
        intervalCell,
        el('td', { text: row.pagesPerHour, attrs: { 'data-label': 'Pages/h' } }),
        el('td', { text: row.duration, attrs: { 'data-label': 'Duration' } }),
      ]),
    );
  }
  if (hidden > 0) ui.tableMore.textContent = `${hidden} more hosts are in the JSON copy.`;
}

function renderOrigins(): void {
  const origins = result?.origins ?? [];
  const selected = chosenOrigin(origins, chosen);
  const current = [...ui.robotsOrigin.options].map((o) => o.value);
  if (current.length !== origins.length || current.some((v, i) => v !== origins[i])) {
    ui.robotsOrigin.replaceChildren(...origins.map((o) => el('option', { text: o, attrs: { value: o } })));
  }
  if (selected !== undefined) ui.robotsOrigin.value = selected;
  ui.robotsOrigin.disabled = origins.length === 0;
  ui.openRobots.disabled = origins.length === 0 || !trusted;
}

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
  if (card.notText !== undefined) section.append(el('p', { className: 'not-text', attrs: { role: 'note' }, text: card.notText }));
  if (card.sitemaps.length > 0) {
    const list = el('ul', { className: 'sitemaps' }, card.sitemaps.map((s) => el('li', { text: s })));
    if (card.sitemapsMore !== undefined) list.append(el('li', { className: 'more', text: card.sitemapsMore }));
    section.append(el('details', {}, [el('summary', { text: `Sitemaps (${card.sitemaps.length + (card.sitemapsMore ? '+' : '')})` }), list]));
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
    el('button', { className: 'secondary', text: 'Open robots.txt', attrs: { type: 'button', 'data-origin': card.origin, 'aria-label': `Open robots.txt of ${card.origin}` } }),
  );
  return section;
}

function renderRobots(): void {
  const useRobots = ui.useRobots.checked;
  const origins = result?.origins ?? [];
  ui.robotsStatus.textContent = robotsStatusText(robots, useRobots, origins);
  ui.robotsStatus.dataset.state = useRobots ? robots.state : 'off';
  ui.checkRobots.hidden = !useRobots;
  ui.checkRobots.disabled = !trusted;
  ui.robots.replaceChildren();
  if (!useRobots || robots.state !== 'done') return;
  for (const card of robotsCards(robots.robots, result?.plan ?? null, origins)) ui.robots.append(robotsCardElement(card));
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

function renderAll(): void {
  renderSettings();
  renderSeedErrors();
  renderPlan();
  renderOrigins();
  renderRobots();
  renderCrawl();
}

function showNotice(level: NoticeLevel, message: string): void {
  ui.status.textContent = message;
  ui.status.dataset.level = level;
  if (noticeTimer !== undefined) clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    ui.status.textContent = '';
    delete ui.status.dataset.level;
  }, NOTICE_MS);
}

// ---------------------------------------------------------------------------------------------
// Messages from the extension

function handle(message: HostToWebview): void {
  switch (message.type) {
    case 'state':
      settings = message.settings;
      trusted = message.trusted;
      if (!hasLocalForm) {
        applyRaw(formToRaw(message.form));
        hasLocalForm = true;
        save(readRaw());
        showErrors({});
      }
      result = message.result;
      robots = message.robots;
      renderAll();
      ui.main.removeAttribute('aria-busy');
      break;
    case 'planResult':
      result = message.result;
      renderSeedErrors();
      renderPlan();
      renderOrigins();
      renderRobots();
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
      break;
    case 'notice':
      showNotice(message.level, message.message);
      break;
    case 'crawlResult':
      lastCrawl = message.crawl;
      renderCrawl();
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
for (const input of [ui.seeds, ui.pages, ui.rate, ui.workers, ui.delay, ui.latency, ui.userAgent]) input.addEventListener('input', edited);
for (const select of [ui.pagesMode, ui.delayFrom]) select.addEventListener('change', edited);

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
    showNotice('error', 'Fix the fields marked above first.');
    return;
  }
  flush();
  post({ type: 'runTestCrawl' });
});

ui.copyPlan.addEventListener('click', () => {
  flush();
  post({ type: 'copyPlan' });
});

ui.checkRobots.addEventListener('click', () => {
  flush();
  post({ type: 'requestRobots' });
});

ui.robotsOrigin.addEventListener('change', () => {
  chosen = ui.robotsOrigin.value;
  save(readRaw());
});

ui.openRobots.addEventListener('click', () => {
  const origin = chosenOrigin(result?.origins ?? [], chosen);
  if (origin !== undefined) post({ type: 'openRobots', origin });
});

ui.robots.addEventListener('click', (event) => {
  const target = event.target instanceof Element ? event.target.closest('button[data-origin]') : null;
  if (!(target instanceof HTMLButtonElement)) return;
  const origin = target.dataset.origin;
  if (origin === undefined) return;
  const line = target.dataset.line === undefined ? undefined : Number(target.dataset.line);
  post(line !== undefined && Number.isInteger(line) && line >= 1 ? { type: 'openRobots', origin, line } : { type: 'openRobots', origin });
});

// ---------------------------------------------------------------------------------------------
// Start: restore the form, then tell the extension we are here.

renderSettings();
renderPlan();
if (saved !== undefined) {
  applyRaw(saved.raw);
  const { form, errors } = readForm(saved.raw);
  showErrors(errors);
  post(form === undefined ? { type: 'ready' } : { type: 'ready', form });
} else {
  post({ type: 'ready' });
}
