/**
 * DOM helpers shared by the planner and the plan report: the VS Code API, the page's elements by id, elements
 * built with text and attributes set as data (never parsed as markup), the duration chart and the notices.
 * Browser only.
 */
import { formatNumber } from '../core/format/duration';
import type { ChartModel } from '../core/format/planSummary';

/** The VS Code API of a webview, typed with what the page posts and what it keeps in getState/setState. */
export interface WebviewApi<ToHost, Saved> {
  postMessage(message: ToHost): void;
  getState(): unknown;
  setState(state: Saved): void;
}
declare function acquireVsCodeApi(): WebviewApi<unknown, unknown>;

/** The page's VS Code API (VS Code hands it out once per page: call this once). */
export function webviewApi<ToHost, Saved>(): WebviewApi<ToHost, Saved> {
  return acquireVsCodeApi();
}

export function byId<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing`);
  return found as T;
}

/** What a page looks up: each name's element id and the element's type (`HTMLInputElement`, …). */
export type ElementTable = Readonly<Record<string, readonly [id: string, type: abstract new () => HTMLElement]>>;

/** The elements a table names, by name, each of its type. */
export type Elements<T extends ElementTable> = { readonly [K in keyof T]: InstanceType<T[K][1]> };

/** The elements of `table` by name, each checked to be of its type (a page whose markup moved on fails at once). */
export function elementsById<T extends ElementTable>(table: T): Elements<T> {
  const found: Record<string, HTMLElement> = {};
  for (const [name, [id, type]] of Object.entries(table)) {
    const element = byId(id);
    if (!(element instanceof type)) throw new Error(`#${id} is not a ${type.name}`);
    found[name] = element;
  }
  return found as Elements<T>;
}

/**
 * What every section of a page is handed (the planner's, the plan report's): the page's one state, its
 * elements, and the way to the extension.
 */
export interface WebviewPage<State, Elements, ToHost> {
  readonly state: State;
  readonly ui: Elements;
  post(message: ToHost): void;
  /** Keeps what the page saves in the webview's own state (getState/setState). */
  save(): void;
}

export interface ElementOptions {
  className?: string;
  text?: string;
  attrs?: Record<string, string>;
}

/** An element with text and attributes set as data, never parsed as markup. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  children: Node[] = [],
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  for (const [name, value] of Object.entries(options.attrs ?? {})) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

/** Messages from the extension that pass the page's guard go to `handle` (anything else is dropped). */
export function receiveMessages<T>(isMessage: (raw: unknown) => raw is T, handle: (message: T) => void): void {
  window.addEventListener('message', (event: MessageEvent<unknown>) => {
    if (isMessage(event.data)) handle(event.data);
  });
}

/**
 * The element of `type` matching `selector` that an event happened in (a click on a button's text is a click on
 * the button), or null: what a listener on a list of buttons acts on.
 */
export function closestTo<T extends Element>(event: Event, selector: string, type: abstract new () => T): T | null {
  const found = event.target instanceof Element ? event.target.closest(selector) : null;
  return found instanceof type ? found : null;
}

/** Sets an input's value when it differs (setting it anew would move the caret and the selection). */
export function setValue(input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement, value: string): void {
  if (input.value !== value) input.value = value;
}

/** Marks an input invalid (`aria-invalid`) or not. */
export function markInvalid(input: HTMLElement, invalid: boolean): void {
  if (invalid) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/** Draws the duration chart into `chart` (a role="img" whose label reads it all) and says in `more` what is left out. */
export function renderChart(chart: HTMLElement, more: HTMLElement, model: ChartModel | null): void {
  chart.replaceChildren();
  more.textContent = '';
  if (model === null) {
    chart.setAttribute('aria-label', 'No plan yet');
    return;
  }
  chart.setAttribute('aria-label', model.summary);
  for (const bar of model.bars) {
    const fill = el('span', { className: 'bar-fill' });
    // CSSOM, not a style attribute: allowed by the CSP (no 'unsafe-inline').
    fill.style.width = `${bar.percent}%`;
    const attrs: Record<string, string> = { 'data-kind': bar.kind, 'aria-hidden': 'true' };
    if (bar.host !== undefined) attrs['data-host'] = bar.host;
    chart.append(
      el('div', { className: bar.binding ? 'bar binding' : 'bar', attrs }, [
        el('span', { className: 'bar-label', text: bar.label, attrs: { title: bar.label } }),
        el('span', { className: 'bar-value', text: bar.binding ? `${bar.value} · limits the crawl` : bar.value }),
        el('span', { className: 'bar-track' }, [fill]),
      ]),
    );
  }
  if (model.hidden > 0)
    more.textContent = `${formatNumber(model.hidden)} shorter ${model.hidden === 1 ? 'host is' : 'hosts are'} not drawn.`;
}

/**
 * A short line in a status element (aria-live) that clears itself after `ms`; `data-level` says error or info.
 * `timers.notice` holds the timer that clears it (a new notice restarts it).
 */
export function showNotice(
  status: HTMLElement,
  level: 'info' | 'error',
  message: string,
  ms: number,
  timers: { notice?: ReturnType<typeof setTimeout> },
): void {
  status.textContent = message;
  status.dataset.level = level;
  clearTimeout(timers.notice);
  timers.notice = setTimeout(() => {
    timers.notice = undefined;
    status.textContent = '';
    delete status.dataset.level;
  }, ms);
}
