/**
 * What waits to be sent: the valid form (after the pause that follows an edit) and the seeds box's text. Before
 * any action the extension is sent what waits, so that it acts on what is on screen.
 */
import { readForm } from '../shared/planner/formFields';
import { showNotice } from './dom';
import { stopTimer, type Planner } from './page';
import { flushSeeds } from './sections/seeds';
import { NOTICE_MS } from './state';

/** Sends the pending form and seeds now. */
export function flush(p: Planner): void {
  stopTimer(p, 'form');
  if (p.state.pendingForm !== undefined) p.post({ type: 'formChanged', form: p.state.pendingForm });
  p.state.pendingForm = undefined;
  flushSeeds(p);
}

export function formIsValid(p: Planner): boolean {
  return readForm(p.state.fields).form !== undefined;
}

/** Whether the form is valid; if not, a notice says to fix it first. */
export function validOrSaySo(p: Planner): boolean {
  if (formIsValid(p)) return true;
  showNotice(p.ui.status, 'error', 'Fix the fields marked above first.', NOTICE_MS, p.state.timers);
  return false;
}
