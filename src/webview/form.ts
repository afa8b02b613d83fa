/**
 * What the planner webview keeps in its own saved state (getState/setState): the fields as typed and the
 * origin chosen, for the first paint of a reloaded view. The extension keeps the same fields and the seeds
 * (`fieldsEdited`, `seedsChanged`) and its copy wins; this state stays small whatever the list's length.
 * Pure: no DOM, so the unit tests run it in node.
 */
import { parseRawForm, type RawForm } from '../shared/planner/form';

/** What the webview keeps in getState/setState (small: the seeds are the extension's). */
export interface SavedState {
  v: 2;
  raw: RawForm;
  /** The origin chosen for "Open robots.txt". */
  origin?: string;
}

/**
 * Reads back getState(): this version's state, or an earlier one's (its seeds, which the extension has,
 * are dropped). Anything unexpected (a damaged value) is dropped.
 */
export function parseSavedState(value: unknown): SavedState | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (v.v !== 1 && v.v !== 2) return undefined;
  const fields = typeof v.raw === 'object' && v.raw !== null ? { ...(v.raw as Record<string, unknown>) } : undefined;
  if (fields === undefined) return undefined;
  delete fields.seeds;
  const raw = parseRawForm(fields);
  if (raw === undefined) return undefined;
  return typeof v.origin === 'string' && v.origin.length <= 2048 ? { v: 2, raw, origin: v.origin } : { v: 2, raw };
}
