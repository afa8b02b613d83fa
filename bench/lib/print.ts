/** A bench table as the lines `npm run bench` prints: the title, the table, the notes. */
import { renderTable } from '../../src/core/format/table';
import type { BenchTable } from './types';

export function benchTableLines(t: BenchTable): string[] {
  return [t.title, ...renderTable(t.columns, t.rows, { indent: '  ' }), ...(t.notes ?? []).map((note) => `  ${note}`)];
}
