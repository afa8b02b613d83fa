/**
 * CSV text (RFC 4180): fields quoted when they hold a comma, a quote or a line break, quotes doubled, lines
 * ended with CRLF. A text field that a spreadsheet would read as a formula (it starts with =, +, -, @, a tab
 * or a carriage return) gets a leading apostrophe, so opening an export never runs what a host name says.
 */

const FORMULA = /^[=+\-@\t\r]/;

/** One field: a number as written, a text quoted when it must be. */
export function csvField(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  const text = FORMULA.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, CRLF included. */
export function csvRow(values: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
