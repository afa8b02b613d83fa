/**
 * robots.txt (docs/extension.md §What it shows, robots.txt; only with "Use robots.txt" on): the status line and
 * a card per origin (outcome, Crawl-delay, group, sitemaps, findings, each seed's verdict with a link to its
 * deciding line). robots.txt is checked again on leaving the seeds or the user agent after a change, never on
 * every keystroke.
 */
import { closestTo, el } from '../dom';
import { robotsCards, robotsStatusText, sitemapsSummaryText, type RobotsCard } from '../model/robots';
import type { Planner } from '../page';
import { flush, formIsValid } from '../pending';

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
    section.append(el('details', {}, [el('summary', { text: sitemapsSummaryText(card) }), list]));
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

export function renderRobots(p: Planner): void {
  const { state, ui } = p;
  const useRobots = state.fields.useRobots;
  const robots = state.robots;
  ui.robotsStatus.textContent = robotsStatusText(robots, useRobots, state.result?.robots?.unchecked ?? 0);
  ui.robotsStatus.dataset.state = useRobots ? robots.state : 'off';
  ui.checkRobots.hidden = !useRobots;
  ui.checkRobots.disabled = !state.trusted;
  ui.robots.replaceChildren();
  if (!useRobots || robots.state !== 'done') return;
  for (const card of robotsCards(robots.robots, state.result?.robots ?? null))
    ui.robots.append(robotsCardElement(card));
}

/** Leaving the seeds or the user agent after a change re-checks robots.txt (not on every keystroke). */
function committed(p: Planner): void {
  if (!p.state.fields.useRobots || !p.state.trusted || !formIsValid(p)) return;
  flush(p);
  p.post({ type: 'requestRobots' });
}

export function listenRobots(p: Planner): void {
  const { ui } = p;
  ui.seeds.addEventListener('change', () => committed(p));
  ui.userAgent.addEventListener('change', () => committed(p));
  ui.robots.addEventListener('click', (event) => {
    const target = closestTo(event, 'button[data-origin]', HTMLButtonElement);
    if (target === null) return;
    const origin = target.dataset.origin;
    if (origin === undefined) return;
    const line = target.dataset.line === undefined ? undefined : Number(target.dataset.line);
    p.post(
      line !== undefined && Number.isInteger(line) && line >= 1
        ? { type: 'openRobots', origin, line }
        : { type: 'openRobots', origin },
    );
  });
}
