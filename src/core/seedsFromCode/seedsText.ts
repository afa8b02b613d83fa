/**
 * URLs from code or text as the planner's seed lines (src/core/seeds.ts, `seedLines`): one a line, after a `#`
 * comment that says where they came from. Pure.
 */

/** White space and control characters (a URL literal may hold them; a seed line may not). */
const BREAKS_A_LINE = /[\s\u0000-\u001f\u007f-\u009f]/gu;

/**
 * A URL as one seed line: white space and control characters percent-encoded as UTF-8 (as Scrapy's and
 * Crawlee's URL handling would send them), so a literal with a space or a line break stays one seed.
 */
export function seedLineOf(url: string): string {
  return url.replace(BREAKS_A_LINE, (c) =>
    [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/** The seeds text: `# comment` (control characters made spaces), then one URL a line. */
export function seedsTextOf(urls: readonly string[], comment: string): string {
  const head = comment.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ').trim();
  const lines = urls.map(seedLineOf);
  return `${head === '' ? '' : `# ${head}\n`}${lines.join('\n')}${lines.length > 0 ? '\n' : ''}`;
}
