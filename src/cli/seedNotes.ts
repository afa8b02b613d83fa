/**
 * The seed notes of `validateSeeds` (src/core/seeds.ts) as stderr lines for a command: what a line hides
 * (credentials removed, an IP literal in another form, a local address, invisible characters) and how many
 * seeds repeat an earlier one (docs/cli.md §Seed notes).
 */
import { formatNumber } from '../core/format/duration';
import { sanitizeText } from '../core/format/table';
import { seedNotesByCode, type SeedNoteCode, type SeedValidation } from '../core/seeds';
import { seedLocation } from './args';

/** Notes printed per code; the rest are counted on one line (every note is in the `--json` document). */
export const SEED_NOTES_PRINTED = 20;

const PLURAL: Readonly<Record<SeedNoteCode, string>> = {
  credentials: 'seeds had credentials, removed',
  'ip-literal': 'seeds name an IP address in another form',
  'local-address': 'seeds are on this machine or a private network',
  'invisible-characters': 'lines hold invisible characters',
};

/** One line per note (at most {@link SEED_NOTES_PRINTED} per code), then the duplicates, each ending in "\n". */
export function seedNoteLines(command: string, check: Pick<SeedValidation, 'notes' | 'duplicates'>): string[] {
  const lines: string[] = [];
  for (const group of seedNotesByCode(check.notes, SEED_NOTES_PRINTED)) {
    for (const n of group.notes)
      lines.push(
        `crawl-planner ${command}: ${sanitizeText(seedLocation(n.line, n.source))}: ${sanitizeText(n.message)}: "${sanitizeText(n.text)}"\n`,
      );
    const more = group.count - group.notes.length;
    if (more > 0)
      lines.push(
        `crawl-planner ${command}: and ${formatNumber(more)} more ${PLURAL[group.code]} (all in --json: seedNotes)\n`,
      );
  }
  if (check.duplicates > 0) {
    const n = check.duplicates;
    lines.push(
      `crawl-planner ${command}: ${formatNumber(n)} duplicate ${n === 1 ? 'seed' : 'seeds'} (the same URL as an earlier line; ${n === 1 ? 'it changes' : 'they change'} nothing in the plan)\n`,
    );
  }
  return lines;
}
