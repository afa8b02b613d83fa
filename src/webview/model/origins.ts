/**
 * The origin picker as pure functions: a search box over the seed origins (a combobox) whose options are the
 * origins that contain what is typed, found here when every origin is at hand, else by the extension.
 */
import { formatNumber } from '../../core/format/duration';

/** Origins listed in the picker at once. */
export const ORIGIN_OPTIONS = 50;

/**
 * The origin "Open robots.txt" uses: the chosen one while it is still a seed origin (or may be: the list
 * posted is only the first of `total`), else the first.
 */
export function chosenOrigin(
  origins: readonly string[],
  chosen: string | undefined,
  total = origins.length,
): string | undefined {
  return chosen !== undefined && (origins.includes(chosen) || total > origins.length) ? chosen : origins[0];
}

/** Whether the origins at hand are all of them (the picker searches them here), or the first of `total`. */
export function searchesHere(origins: readonly string[], total: number): boolean {
  return total <= origins.length;
}

/** The origins that contain `query` (any case): the first `max`, and how many in all. */
export function matchingOrigins(
  origins: readonly string[],
  query: string,
  max = ORIGIN_OPTIONS,
): { options: string[]; total: number } {
  const needle = query.trim().toLowerCase();
  const found = origins.filter((o) => o.toLowerCase().includes(needle));
  return { options: found.slice(0, max), total: found.length };
}

/** The active option after an arrow key (down: the next; up: the previous), around the ends. */
export function moveActiveOption(active: number, count: number, down: boolean): number {
  return down ? (active + 1) % count : (active - 1 + count) % count;
}

/** Under the picker: "1,200 origins: type to search." with more than one. */
export function originCountText(total: number): string {
  return total > 1 ? `${formatNumber(total)} origins: type to search.` : '';
}

/** The list's last lines: how many it does not list, and that nothing matched. */
export function originListNotes(shown: number, total: number): string[] {
  const notes: string[] = [];
  if (total > shown) notes.push(`and ${formatNumber(total - shown)} more: type more of the name`);
  if (shown === 0) notes.push('No seed origin contains that.');
  return notes;
}
