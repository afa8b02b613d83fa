/**
 * What meets the deadline (docs/extension.md §What it shows): the verdict, the earliest finish, what blocks it,
 * and the solver's options, each with a button that applies it; and the hosts a drop left out, each with
 * "Plan again".
 */
import { closestTo, el } from '../dom';
import { deadlineHeadline, deadlineOptionLabel, droppedText, NO_DEADLINE_OPTION } from '../model/deadline';
import type { Planner } from '../page';

export function renderDeadline(p: Planner): void {
  const { ui } = p;
  const d = p.state.result?.deadline ?? null;
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
    ui.deadlineOptions.append(el('li', { className: 'more', text: NO_DEADLINE_OPTION }));
}

export function renderDropped(p: Planner): void {
  const { ui } = p;
  const result = p.state.result;
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

export function listenDeadline(p: Planner): void {
  const { ui } = p;
  ui.deadlineOptions.addEventListener('click', (event) => {
    const button = closestTo(event, 'button[data-index]', HTMLButtonElement);
    if (button === null) return;
    const plan = Number(button.dataset.plan);
    const index = Number(button.dataset.index);
    if (Number.isInteger(plan) && Number.isInteger(index)) p.post({ type: 'applyDeadlineOption', plan, index });
  });
  ui.droppedList.addEventListener('click', (event) => {
    const button = closestTo(event, 'button[data-host]', HTMLButtonElement);
    if (button !== null && button.dataset.host !== undefined)
      p.post({ type: 'restoreHosts', host: button.dataset.host });
  });
  ui.restoreAll.addEventListener('click', () => p.post({ type: 'restoreHosts' }));
}
