/**
 * The seeds box and what the seeds hide, as pure functions: the line under the box (its count, or why it cannot
 * be planned), the invalid lines and the notes by kind, a seeds file in a line.
 */
import { formatNumber } from '../../core/format/duration';
import { countSeedLines, type InvalidSeed, type SeedNoteCode } from '../../core/seeds';
import { PLANNER_SEED_LIMITS, seedLinesText, seedsTextProblem, sizeText } from '../../shared/planner/limits';
import type { PlanResultView, SeedFileView } from '../../shared/planner/viewModel';

/** Seed error lines shown at most. */
export const MAX_SEED_ERRORS_SHOWN = 20;

/** Under the seeds box, always: what it takes. */
export const SEEDS_HELP = `http and https only; blank lines and # comments are skipped. Up to ${formatNumber(PLANNER_SEED_LIMITS.textLines)} seed lines here, ${formatNumber(PLANNER_SEED_LIMITS.fileLines)} from a file.`;

export interface SeedErrorItem {
  line: number;
  /** "Line 4: not a URL" */
  label: string;
  /** The line as typed (untrusted: rendered as text). */
  text: string;
}

export function seedErrorItems(
  result: Pick<PlanResultView, 'invalidSeeds' | 'invalidSeedCount'>,
  max = MAX_SEED_ERRORS_SHOWN,
): { items: SeedErrorItem[]; more: number } {
  const items = result.invalidSeeds
    .slice(0, max)
    .map((s: InvalidSeed) => ({ line: s.line, label: `Line ${s.line}: ${s.message}`, text: s.text }));
  return { items, more: Math.max(0, result.invalidSeedCount - items.length) };
}

const NOTE_HEADS: Readonly<Record<SeedNoteCode, [string, string]>> = {
  credentials: [
    'seed had a user name or password: removed, never sent',
    'seeds had a user name or password: removed, never sent',
  ],
  'invisible-characters': [
    'line holds invisible characters (shown escaped)',
    'lines hold invisible characters (shown escaped)',
  ],
  'ip-literal': ['seed names an IP address in another form', 'seeds name an IP address in another form'],
  'local-address': ['seed is on this machine or a private network', 'seeds are on this machine or a private network'],
};

export interface SeedNoteItem {
  code: SeedNoteCode;
  /** "2 seeds had a user name or password: removed, never sent" */
  head: string;
  /** "Line 4: user name and password removed from the URL" with the line's text (escaped, without credentials). */
  lines: Array<{ line: number; label: string; text: string }>;
  /** Notes of this kind not listed. */
  more: number;
}

/** What the seeds hide, a group per kind, then the duplicates' count. */
export function seedNoteItems(result: Pick<PlanResultView, 'seedNotes' | 'duplicateSeeds'>): {
  groups: SeedNoteItem[];
  duplicates?: string;
} {
  const groups = result.seedNotes.map((g) => {
    const [one, many] = NOTE_HEADS[g.code];
    return {
      code: g.code,
      head: `${formatNumber(g.count)} ${g.count === 1 ? one : many}`,
      lines: g.notes.map((n) => ({ line: n.line, label: `Line ${n.line}: ${n.message}`, text: n.text })),
      more: g.count - g.notes.length,
    };
  });
  const d = result.duplicateSeeds;
  if (d === 0) return { groups };
  return {
    groups,
    duplicates: `${formatNumber(d)} duplicate ${d === 1 ? 'seed' : 'seeds'} (the same URL as an earlier line; ${d === 1 ? 'it changes' : 'they change'} nothing in the plan)`,
  };
}

/** Under the seeds box: how many seed lines, and past a few thousand, that a file suits a long list better. */
export function seedsCountText(seedLines: number): string {
  if (seedLines === 0) return '';
  const count = seedLinesText(seedLines);
  return seedLines > PLANNER_SEED_LIMITS.suggestFileLines
    ? `${count}. A list this long is better kept in a file: “Load seeds from file…” or “Use seeds.txt” (the file stays the source).`
    : `${count}.`;
}

/** A seeds file as the sidebar describes it: "50,000 seed lines · 1.2 MB", or that it is being read. */
export function seedFileSummary(file: SeedFileView): string {
  if (file.loading) return 'Reading…';
  if (file.problem !== undefined && file.bytes === 0) return '';
  return `${seedLinesText(file.seedLines)} · ${sizeText(file.bytes)}`;
}

/** The lines under the box: why its text is not planned (`refusal`: a paste refused), else its count. */
export function seedsBoxView(
  text: string,
  refusal: string | undefined,
  invalidSeedCount: number,
): { error: string; count: string; invalid: boolean } {
  const limit = refusal ?? seedsTextProblem(text);
  return {
    error: limit ?? '',
    count: limit === undefined ? seedsCountText(countSeedLines(text)) : '',
    invalid: limit !== undefined || invalidSeedCount > 0,
  };
}

/** After the listed invalid lines: the rest, or ''. */
export function moreInvalidLinesText(more: number): string {
  return more > 0 ? `and ${formatNumber(more)} more invalid lines` : '';
}

/** After a kind's listed notes: the rest, or ''. */
export function moreNotesText(more: number): string {
  return more > 0 ? `and ${formatNumber(more)} more (in Copy plan as JSON: seedNotes)` : '';
}
