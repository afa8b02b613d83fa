/**
 * A fetched robots.txt as a read-only document: the file under a header of `#` comment lines (so the
 * document is still a valid robots.txt) that says what was fetched, which group applies to our product
 * token, the Crawl-delay and the effective interval, and the verdict for each URL asked about with its
 * deciding line. Line numbers in the header are the file's own; `offset` maps them to the document's.
 * Pure (no vscode): service.ts serves it under ROBOTS_SCHEME.
 */
import { formatDuration, formatSeconds } from '../../core/format/duration';
import { sanitizeText } from '../../core/format/table';
import type { InspectedOrigin, RobotsInspection } from '../../net/robotsInspect';

export interface RenderedRobotsDocument {
  text: string;
  /** Document line (0-based) of robots.txt line 1. */
  offset: number;
}

const MAX_FINDINGS_SHOWN = 20;

function clean(text: string): string {
  return sanitizeText(String(text)).replace(/[\r\n]+/g, ' ');
}

/** The header block and the file, and where the file starts. Exported for tests. */
export function renderRobotsDocument(
  origin: InspectedOrigin,
  inspection: Pick<RobotsInspection, 'productToken' | 'results'>,
): RenderedRobotsDocument {
  const head: string[] = [];
  const fetched =
    origin.fetchedAt !== null
      ? `fetched ${new Date(origin.fetchedAt)
          .toISOString()
          .replace('T', ' ')
          .replace(/\.\d+Z$/, ' UTC')}`
      : 'not fetched';
  // Every URL is followed by a space or the end of the line: the editor's link detection would take a
  // comma or colon right after one as part of the link.
  head.push(`# robots.txt of ${clean(origin.origin)} (read-only, as fetched by Crawl Planner)`);
  head.push(
    `# ${origin.outcome}${origin.status !== null ? ` (HTTP ${origin.status})` : ''}, ${fetched}, from ${clean(origin.robotsUrl)}`,
  );
  head.push(`# ${clean(origin.reason)}`);
  for (const r of origin.redirects) head.push(`#   redirect ${r.status}: ${clean(r.from)} → ${clean(r.to)}`);
  const token = clean(inspection.productToken);
  if (origin.group) {
    const how =
      origin.group.matchedBy === 'product-token'
        ? `names ${token}`
        : origin.group.matchedBy === 'star'
          ? 'User-agent: *'
          : 'no group';
    const where = origin.group.line !== null ? ` (line ${origin.group.line})` : '';
    head.push(`# Group for ${token}: ${how}${where}; agents: ${origin.group.userAgents.map(clean).join(', ') || '—'}`);
  } else if (origin.outcome === 'ok') {
    head.push(`# Group for ${token}: none applies, so everything is allowed`);
  }
  const delay =
    origin.crawlDelaySeconds !== null
      ? `Crawl-delay ${formatSeconds(origin.crawlDelaySeconds)}${origin.crawlDelayLine !== null ? ` (line ${origin.crawlDelayLine})` : ''}`
      : 'no Crawl-delay';
  head.push(
    `# ${delay}; effective interval ${formatDuration(origin.effectiveIntervalSeconds)} (${clean(origin.intervalSource)})${origin.skipped ? '; host skipped: Crawl-delay above the cap' : ''}`,
  );
  if (origin.sitemaps.length > 0) {
    head.push(`# Sitemaps (${origin.sitemaps.length}):`);
    for (const s of origin.sitemaps.slice(0, 20)) head.push(`#   ${clean(s)}`);
    if (origin.sitemaps.length > 20) head.push(`#   … and ${origin.sitemaps.length - 20} more`);
  }
  const results = inspection.results.filter((r) => r.origin === origin.origin);
  if (results.length > 0) {
    head.push('#', `# Verdicts for ${token}:`);
    const width = Math.max(...results.map((r) => r.verdict.length));
    for (const r of results) {
      const rule = r.line !== null ? ` (line ${r.line}${r.rule !== null ? `: ${clean(r.rule)}` : ''})` : '';
      head.push(`#   ${r.verdict.padEnd(width)}  ${clean(r.url)}${rule}`);
      head.push(`#   ${' '.repeat(width)}  ${clean(r.reason)}`);
    }
  }
  if (origin.findings.length > 0) {
    head.push('#', `# Findings (${origin.findings.length}):`);
    for (const f of origin.findings.slice(0, MAX_FINDINGS_SHOWN))
      head.push(`#   line ${f.line} ${f.severity}: ${clean(f.message)}`);
    if (origin.findings.length > MAX_FINDINGS_SHOWN)
      head.push(`#   … and ${origin.findings.length - MAX_FINDINGS_SHOWN} more`);
  }
  if (origin.text === undefined) {
    head.push('#', '# (no file: robots.txt was not fetched with a 2xx status)');
    return { text: head.join('\n') + '\n', offset: head.length };
  }
  // The marker line is the last header line; the file's line 1 follows it.
  head.push('#', `# ---- the file follows; its line 1 is line ${head.length + 3} here ----`);
  return { text: `${head.join('\n')}\n${origin.text}`, offset: head.length };
}
