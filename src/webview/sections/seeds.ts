/**
 * The seeds (docs/extension.md §What it shows, Seeds): the box, whose text goes to the extension, which keeps
 * it (at once, or after a pause for a long text); a paste or a drop that would put it over its limits, refused
 * before it reaches the box; a seeds file's summary in its place; the invalid lines and what the seeds hide.
 */
import { seedsPasteProblem, seedsStoreProblem } from '../../shared/planner/limits';
import type { SeedsView } from '../../shared/planner/viewModel';
import { closestTo, el, markInvalid, setValue } from '../dom';
import {
  moreInvalidLinesText,
  moreNotesText,
  seedErrorItems,
  seedFileSummary,
  seedNoteItems,
  seedsBoxView,
} from '../model/seeds';
import { stopTimer, type Planner } from '../page';
import { SEEDS_DEBOUNCE_MS, seedsToSend, sendsSeedsNow } from '../state';

/** Sends the box's text when it differs from what the extension has. */
export function flushSeeds(p: Planner): void {
  stopTimer(p, 'seeds');
  const box = p.state.seeds;
  const text = seedsToSend(box);
  if (text === undefined) return;
  box.kept = text;
  box.view = { source: 'text', text };
  p.post({ type: 'seedsChanged', text });
}

/** The box changed (typed, pasted, dropped, set): check it, send it, say what its size means. */
function seedsEdited(p: Planner): void {
  const box = p.state.seeds;
  if (!box.loaded) return;
  box.text = p.ui.seeds.value;
  box.refusal = undefined;
  const notKept = seedsStoreProblem(box.text);
  if (notKept !== undefined) {
    // Over what the extension keeps (only a paste that came past the paste check gets here): back to what was kept.
    p.ui.seeds.value = box.kept;
    box.text = p.ui.seeds.value;
    refuse(p, notKept);
    return;
  }
  stopTimer(p, 'seeds');
  if (sendsSeedsNow(box.text)) flushSeeds(p);
  else p.state.timers.seeds = setTimeout(() => flushSeeds(p), SEEDS_DEBOUNCE_MS);
  renderSeedsBox(p);
}

/** A refused paste: its size, the limit and what to do instead; the old line errors go (they were for other text). */
function refuse(p: Planner, message: string): void {
  p.state.seeds.refusal = message;
  p.ui.seedErrors.replaceChildren();
  p.ui.seedNotes.replaceChildren();
  renderSeedsBox(p);
}

/** A paste or a drop that would put the box over its limits is refused before the text reaches it. */
function checkInsert(p: Planner, event: Event, inserted: string): void {
  const box = p.ui.seeds;
  const resultText = box.value.slice(0, box.selectionStart) + inserted + box.value.slice(box.selectionEnd);
  const problem = seedsPasteProblem(inserted, resultText);
  if (problem === undefined) return;
  event.preventDefault();
  refuse(p, problem);
}

/** The lines under the box: its count, or why it is not planned. */
function renderSeedsBox(p: Planner): void {
  const { state, ui } = p;
  if (state.seeds.view.source === 'file') {
    // The box is hidden and not planned: its text's size says nothing now.
    ui.seedsError.textContent = '';
    ui.seedsCount.textContent = '';
    return;
  }
  const view = seedsBoxView(state.seeds.text, state.seeds.refusal, state.result?.invalidSeedCount ?? 0);
  ui.seedsError.textContent = view.error;
  ui.seedsCount.textContent = view.count;
  markInvalid(ui.seeds, view.invalid);
}

/** The seeds' source as the extension sent it: the box with its text, or a file's summary in its place. */
export function applySeeds(p: Planner, view: SeedsView): void {
  const { state, ui } = p;
  const box = state.seeds;
  box.view = view;
  box.loaded = true;
  ui.seeds.readOnly = false;
  if (view.source === 'text') {
    box.kept = view.text;
    setValue(ui.seeds, view.text);
    box.text = ui.seeds.value;
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
  box.refusal = undefined;
  renderSeedsBox(p);
}

/** The plan's invalid seed lines (links to their line in a seeds file) and what the seeds hide, by kind. */
export function renderSeedErrors(p: Planner): void {
  const { state, ui } = p;
  ui.seedErrors.replaceChildren();
  ui.seedNotes.replaceChildren();
  const result = state.result;
  if (result === undefined || state.seeds.refusal !== undefined) return;
  const { items, more } = seedErrorItems(result);
  const inFile = state.seeds.view.source === 'file';
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
  if (more > 0) ui.seedErrors.append(el('li', { className: 'more', text: moreInvalidLinesText(more) }));
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
    if (group.more > 0) list.append(el('li', { className: 'more', text: moreNotesText(group.more) }));
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
  renderSeedsBox(p);
}

export function listenSeeds(p: Planner): void {
  const { ui } = p;
  ui.seeds.addEventListener('input', () => seedsEdited(p));
  ui.seeds.addEventListener('paste', (event) =>
    checkInsert(p, event, event.clipboardData?.getData('text/plain') ?? ''),
  );
  ui.seeds.addEventListener('drop', (event) => checkInsert(p, event, event.dataTransfer?.getData('text/plain') ?? ''));
  // Hiding the view moves the focus first: the box's text is sent before the webview goes.
  ui.seeds.addEventListener('blur', () => flushSeeds(p));
  ui.useSeedsText.addEventListener('click', () => p.post({ type: 'useSeedsText' }));
  ui.openSeedsFile.addEventListener('click', () => p.post({ type: 'openSeedsFile' }));
  ui.seedErrors.addEventListener('click', (event) => {
    const target = closestTo(event, 'button[data-line]', HTMLButtonElement);
    if (target === null || p.state.seeds.view.source !== 'file') return;
    const line = Number(target.dataset.line);
    if (Number.isInteger(line) && line >= 1) p.post({ type: 'openSeedsFile', line });
  });
}
