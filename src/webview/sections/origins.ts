/**
 * The origin picker (docs/extension.md §What it shows, robots.txt): a search box over the seed origins, a
 * combobox whose list holds the origins that contain what is typed (arrow keys and Enter pick one); the
 * extension searches a list longer than the origins it posted. "Open robots.txt" opens the chosen one's.
 */
import type { HostToWebview } from '../../shared/planner/messages';
import { closestTo, el, setValue } from '../dom';
import {
  chosenOrigin,
  matchingOrigins,
  moveActiveOption,
  ORIGIN_OPTIONS,
  originCountText,
  originListNotes,
  searchesHere,
} from '../model/origins';
import { stopTimer, type Planner } from '../page';
import { ORIGIN_SEARCH_MS } from '../state';

/** The origin the buttons and Enter use while the list is closed. */
function currentOrigin(p: Planner): string | undefined {
  const result = p.state.result;
  return chosenOrigin(result?.origins ?? [], p.state.origins.chosen, result?.originCount ?? 0);
}

function setQuery(p: Planner, text: string): void {
  setValue(p.ui.robotsOrigin, text);
  p.state.origins.query = p.ui.robotsOrigin.value;
}

export function renderOrigins(p: Planner): void {
  const { state, ui } = p;
  const total = state.result?.originCount ?? 0;
  ui.robotsOrigin.disabled = total === 0;
  ui.openRobots.disabled = total === 0 || !state.trusted;
  if (document.activeElement !== ui.robotsOrigin) setQuery(p, currentOrigin(p) ?? '');
  ui.robotsOriginCount.textContent = originCountText(total);
  if (state.origins.open) searchOrigins(p);
}

function showOriginOptions(p: Planner, options: string[], total: number): void {
  const { state, ui } = p;
  state.origins.options = options;
  state.origins.active = options.length > 0 ? 0 : -1;
  ui.robotsOriginList.replaceChildren(
    ...options.map((origin, i) =>
      el('li', {
        text: origin,
        attrs: {
          role: 'option',
          id: `origin-option-${i}`,
          'data-origin': origin,
          'aria-selected': String(i === state.origins.active),
        },
      }),
    ),
  );
  for (const note of originListNotes(options.length, total))
    ui.robotsOriginList.append(el('li', { className: 'more', text: note, attrs: { role: 'presentation' } }));
  setListOpen(p, true);
  markActiveOption(p);
}

function setListOpen(p: Planner, open: boolean): void {
  const { ui } = p;
  p.state.origins.open = open;
  ui.robotsOriginList.hidden = !open;
  ui.robotsOrigin.setAttribute('aria-expanded', String(open));
  if (!open) ui.robotsOrigin.removeAttribute('aria-activedescendant');
}

function markActiveOption(p: Planner): void {
  const { ui } = p;
  const active = p.state.origins.active;
  for (const [i, item] of [...ui.robotsOriginList.querySelectorAll('li[role="option"]')].entries())
    item.setAttribute('aria-selected', String(i === active));
  if (active >= 0) {
    ui.robotsOrigin.setAttribute('aria-activedescendant', `origin-option-${active}`);
    document.getElementById(`origin-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  } else ui.robotsOrigin.removeAttribute('aria-activedescendant');
}

/** Lists the origins that contain the typed text: from the origins at hand when they are all here, else asked. */
function searchOrigins(p: Planner): void {
  const { state } = p;
  const origins = state.result?.origins ?? [];
  if (searchesHere(origins, state.result?.originCount ?? 0)) {
    const { options, total } = matchingOrigins(origins, state.origins.query, ORIGIN_OPTIONS);
    showOriginOptions(p, options, total);
    return;
  }
  stopTimer(p, 'origins');
  state.timers.origins = setTimeout(() => {
    state.timers.origins = undefined;
    p.post({ type: 'findOrigins', query: state.origins.query.trim() });
  }, ORIGIN_SEARCH_MS);
}

/** The extension's answer to `findOrigins`: shown while it answers what the box still asks. */
export function originsFound(p: Planner, message: Extract<HostToWebview, { type: 'origins' }>): void {
  if (message.query === p.state.origins.query.trim() && document.activeElement === p.ui.robotsOrigin)
    showOriginOptions(p, message.origins, message.total);
}

function pickOrigin(p: Planner, origin: string): void {
  p.state.origins.chosen = origin;
  setQuery(p, origin);
  setListOpen(p, false);
  p.save();
}

export function listenOrigins(p: Planner): void {
  const { state, ui } = p;
  const typed = () => {
    state.origins.query = ui.robotsOrigin.value;
    searchOrigins(p);
  };
  ui.robotsOrigin.addEventListener('input', typed);
  ui.robotsOrigin.addEventListener('focus', typed);
  ui.robotsOrigin.addEventListener('keydown', (event) => {
    const { open, options, active } = state.origins;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) {
        searchOrigins(p);
        return;
      }
      if (options.length === 0) return;
      state.origins.active = moveActiveOption(active, options.length, event.key === 'ArrowDown');
      markActiveOption(p);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const origin = open ? options[active] : currentOrigin(p);
      if (origin !== undefined) pickOrigin(p, origin);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setListOpen(p, false);
    }
  });
  ui.robotsOrigin.addEventListener('blur', () => {
    // A click on an option lands after the blur: close once it had its turn.
    setTimeout(() => {
      setListOpen(p, false);
      renderOrigins(p);
    }, 150);
  });
  ui.robotsOriginList.addEventListener('mousedown', (event) => {
    const item = closestTo(event, 'li[data-origin]', HTMLElement);
    if (item !== null && item.dataset.origin !== undefined) {
      event.preventDefault();
      pickOrigin(p, item.dataset.origin);
    }
  });
  ui.openRobots.addEventListener('click', () => {
    const origin = currentOrigin(p);
    if (origin !== undefined) p.post({ type: 'openRobots', origin });
  });
}
