/**
 * The form's fields (docs/extension.md §What it shows, Form): on every edit they are read into the state, saved
 * here and in the extension at once (what is typed is never only here), checked, and sent as a form after a
 * pause once every field is valid (src/webview/pending.ts). Also what the settings
 * and the workspace's trust show, and the "pages by host" list.
 */
import type { PlannerForm, RawForm } from '../../shared/planner/form';
import { readForm, type FieldErrors, type RawField } from '../../shared/planner/formFields';
import { el, markInvalid, setValue } from '../dom';
import {
  fieldPlaceholders,
  hostListKey,
  hostPagesRows,
  otherHostsText,
  pagesModeOf,
  pagesPlaceholder,
} from '../model/fields';
import { politenessByOf, turnsCheckOn } from '../model/servers';
import { SEEDS_HELP } from '../model/seeds';
import { stopTimer, type Planner, type PlannerElements } from '../page';
import { flush } from '../pending';
import { FORM_DEBOUNCE_MS, formToPlan } from '../state';
import { renderRobots } from './robots';
import { renderServers } from './servers';
import { renderChangedSince } from './sitemaps';

type Named<T> = { [K in keyof PlannerElements]: PlannerElements[K] extends T ? K : never }[keyof PlannerElements];

/** The input of each raw field that can be wrong, and where its message goes. */
const FIELD_ERRORS: ReadonlyArray<[RawField, Named<HTMLInputElement>, Named<HTMLElement>]> = [
  ['pages', 'pages', 'pagesError'],
  ['rate', 'rate', 'rateError'],
  ['workers', 'workers', 'workersError'],
  ['machines', 'machines', 'machinesError'],
  ['deadline', 'deadline', 'deadlineError'],
  ['delay', 'delay', 'delayError'],
  ['latency', 'latency', 'latencyError'],
  ['userAgent', 'userAgent', 'userAgentError'],
];

/** The fields as the inputs show them; `typed`: each host's own pages as typed, hosts the list does not show too. */
export function fieldsOnScreen(ui: PlannerElements, typed: Readonly<Record<string, string>>): RawForm {
  const pagesByHost = { ...typed };
  // The list's inputs (an emptied one is no number of its own).
  for (const input of ui.pagesByHostList.querySelectorAll<HTMLInputElement>('input[data-host]')) {
    const host = input.dataset.host!;
    if (input.value.trim() === '') delete pagesByHost[host];
    else pagesByHost[host] = input.value;
  }
  return {
    pagesMode: pagesModeOf(ui.pagesMode.value),
    pages: ui.pages.value,
    pagesByHost,
    rate: ui.rate.value,
    workers: ui.workers.value,
    machines: ui.machines.value,
    deadline: ui.deadline.value,
    delay: ui.delay.value,
    delayFrom: ui.delayFrom.value === 'end' ? 'end' : 'start',
    latency: ui.latency.value,
    userAgent: ui.userAgent.value,
    useRobots: ui.useRobots.checked,
    checkServers: ui.checkServers.checked,
    politenessBy: politenessByOf(ui.politenessBy.value),
    changedSince: ui.changedSince.value,
  };
}

function readFields(p: Planner): RawForm {
  p.state.fields = fieldsOnScreen(p.ui, p.state.fields.pagesByHost);
  return p.state.fields;
}

/** Shows `raw` in the inputs (the extension's copy of the fields, or this view's saved one). */
export function applyFields(p: Planner, raw: RawForm): void {
  const { ui } = p;
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
  ui.checkServers.checked = raw.checkServers;
  setValue(ui.politenessBy, raw.politenessBy);
  setValue(ui.changedSince, raw.changedSince);
  p.state.fields = { ...raw, pagesByHost: { ...raw.pagesByHost } };
  p.state.hostPagesKey = undefined;
  renderHostPages(p);
  readFields(p);
}

export function showErrors(p: Planner, errors: FieldErrors): void {
  const { ui } = p;
  for (const [field, input, out] of FIELD_ERRORS) {
    const message = errors[field];
    ui[out].textContent = message ?? '';
    markInvalid(ui[input], message !== undefined);
  }
  ui.pagesByHostError.textContent = errors.pagesByHost ?? '';
  ui.stale.hidden = Object.keys(errors).length === 0;
  renderChangedSince(p);
}

/**
 * A field was edited: reads the inputs, saves them here and in the extension, shows field errors, and schedules
 * `formChanged` when all is valid.
 */
function fieldsEdited(p: Planner): void {
  const { state } = p;
  const raw = readFields(p);
  p.save();
  p.post({ type: 'fieldsEdited', fields: raw });
  const { form, errors } = readForm(raw);
  showErrors(p, errors);
  stopTimer(p, 'form');
  state.pendingForm = form;
  if (form !== undefined) state.timers.form = setTimeout(() => flush(p), FORM_DEBOUNCE_MS);
  renderHostPages(p);
  renderRobots(p);
  renderServers(p);
}

/** The first `state`: the extension's copy of the fields is the newest (this view's saved state can lag behind a reload). */
export function fieldsFromHost(p: Planner, raw: RawForm, planned: PlannerForm): void {
  applyFields(p, raw);
  p.save();
  const { form, errors } = readForm(p.state.fields);
  showErrors(p, errors);
  // Fields typed and kept but not yet planned (the view went before the pause ended): plan them now.
  const toPlan = formToPlan(form, planned);
  if (toPlan !== undefined) p.post({ type: 'formChanged', form: toPlan });
}

/** The extension changed the form (sizing, a deadline option, seeds from code): it has it; what was pending here is older. */
export function fieldsSet(p: Planner, raw: RawForm): void {
  stopTimer(p, 'form');
  p.state.pendingForm = undefined;
  applyFields(p, raw);
  p.save();
  showErrors(p, readForm(p.state.fields).errors);
  renderRobots(p);
  renderServers(p);
}

/** What the settings and the workspace's trust show: the placeholders, the trust note, what is turned off. */
export function renderSettings(p: Planner): void {
  const { state, ui } = p;
  const placeholders = fieldPlaceholders(state.settings);
  if (placeholders.delay !== undefined) ui.delay.placeholder = placeholders.delay;
  if (placeholders.userAgent !== undefined) ui.userAgent.placeholder = placeholders.userAgent;
  ui.workers.placeholder = placeholders.workers;
  ui.latency.placeholder = placeholders.latency;
  ui.rate.placeholder = placeholders.rate;
  ui.trustNote.hidden = state.trusted;
  ui.runCrawl.disabled = !state.trusted;
  ui.useRobots.disabled = !state.trusted && !state.fields.useRobots;
  ui.checkServers.disabled = !state.trusted && !state.fields.checkServers;
  ui.seedsHelp.textContent = SEEDS_HELP;
}

/** The "pages by host" list in `byHost` mode: a row per seed host posted, its own pages as typed. */
export function renderHostPages(p: Planner): void {
  const { state, ui } = p;
  const byHost = state.fields.pagesMode === 'byHost';
  ui.pagesByHost.hidden = !byHost;
  ui.pages.placeholder = pagesPlaceholder(byHost);
  if (!byHost || state.result === undefined) return;
  const typed = state.fields.pagesByHost;
  const { rows, more } = hostPagesRows(state.result, typed);
  const key = hostListKey(rows);
  if (key !== state.hostPagesKey) {
    state.hostPagesKey = key;
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
    if (document.activeElement !== input) setValue(input, typed[input.dataset.host!] ?? '');
  }
  ui.pagesByHostMore.textContent = more;
  ui.pagesByHostOther.textContent = otherHostsText(state.result.pagesForOtherHosts);
}

export function listenFields(p: Planner): void {
  const { ui } = p;
  const edited = () => fieldsEdited(p);
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
  ui.useRobots.addEventListener('change', () => {
    edited();
    // Turning it on is a request: the extension starts the check when it sees the flag go on.
    flush(p);
  });
  ui.checkServers.addEventListener('change', () => {
    edited();
    flush(p);
  });
  ui.politenessBy.addEventListener('change', () => {
    // `ip` groups hosts by the addresses looked up: it turns the check on (where it can run; else the status says why).
    if (turnsCheckOn(ui.politenessBy.value, ui.checkServers.checked, p.state.trusted)) ui.checkServers.checked = true;
    edited();
    flush(p);
  });
}
