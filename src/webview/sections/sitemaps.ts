/**
 * Pages from sitemaps (docs/extension.md §What it shows, Pages from sitemaps): the "Changed since" field and its
 * choices, Size from sitemaps and its cancel, the progress line, and a card per host sized.
 */
import { el, markInvalid } from '../dom';
import {
  CHANGED_SINCE_CHOICES,
  changedSinceProblem,
  sitemapHostItems,
  sitemapsStatusText,
  sizeSitemapsDisabled,
} from '../model/sitemaps';
import type { Planner } from '../page';
import { flush, validOrSaySo } from '../pending';

/** The choices "Changed since" offers (anything `--changed-since` reads may be typed). */
export function fillChangedSinceChoices(p: Planner): void {
  p.ui.changedSinceChoices.replaceChildren(
    ...CHANGED_SINCE_CHOICES.map((c) => el('option', { attrs: { value: c.value, label: c.label } })),
  );
}

/** Whether "Changed since" can be read, and so whether the sizing can start. */
export function renderChangedSince(p: Planner): void {
  const { state, ui } = p;
  const problem = changedSinceProblem(state.fields.changedSince, Date.now());
  ui.changedSinceError.textContent = problem ?? '';
  markInvalid(ui.changedSince, problem !== undefined);
  ui.sizeSitemaps.disabled = sizeSitemapsDisabled(state.trusted, problem, state.result?.validSeeds ?? 0);
}

export function renderSitemaps(p: Planner): void {
  const { state, ui } = p;
  const sitemaps = state.sitemaps;
  const loading = sitemaps.state === 'loading';
  ui.sizeSitemaps.hidden = loading;
  ui.cancelSitemaps.hidden = !loading;
  ui.sitemapsStatus.textContent = sitemapsStatusText(sitemaps);
  ui.sitemapsStatus.dataset.state = sitemaps.state;
  renderChangedSince(p);
  ui.sitemaps.replaceChildren();
  if (sitemaps.state !== 'done') return;
  for (const item of sitemapHostItems(sitemaps.sitemaps)) {
    const card = el('section', { className: 'sitemap-host', attrs: { 'data-host': item.host } }, [
      el('h3', { text: item.host }),
      el('p', {
        className: item.pagesUnknown ? 'sitemap-pages pages-unknown' : 'sitemap-pages',
        text: item.pagesText,
      }),
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

export function listenSitemaps(p: Planner): void {
  p.ui.sizeSitemaps.addEventListener('click', () => {
    if (!validOrSaySo(p)) return;
    flush(p);
    p.post({ type: 'sizeFromSitemaps', changedSince: p.state.fields.changedSince });
  });
  p.ui.cancelSitemaps.addEventListener('click', () => p.post({ type: 'cancelSitemaps' }));
}
